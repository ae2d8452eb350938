import Foundation

extension DependencyValues {
  /// The current date. Live: the system clock. Tests must choose, e.g. `.constant(date)`.
  ///
  /// ```swift
  /// @Dependency(\.date) var date
  /// let now = date.now
  /// ```
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static var testValue: DateGenerator {
    DateGenerator {
      reportUnimplemented(#"@Dependency(\.date)"#, fileID: #fileID, line: #line)
      return Date(timeIntervalSince1970: 0)
    }
  }
}

/// A source of the current date.
///
/// ```swift
/// withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 1_700_000_000)) } operation: {
///   @Dependency(\.date) var date
///   print(date.now)   // 2023-11-14 22:13:20 +0000
/// }
/// ```
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date { generate() }

  /// Returns the current date.
  public func callAsFunction() -> Date { generate() }

  /// A generator that always returns `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}
