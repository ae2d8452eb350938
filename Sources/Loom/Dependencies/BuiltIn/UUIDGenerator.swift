import Foundation

extension DependencyValues {
  /// Generates UUIDs. Live: random UUIDs. Tests must choose, e.g. ``UUIDGenerator/incrementing``.
  ///
  /// ```swift
  /// @Dependency(\.uuid) var uuid
  /// let id = uuid()
  /// ```
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator { UUID() }
  static var testValue: UUIDGenerator {
    UUIDGenerator {
      reportUnimplemented(#"@Dependency(\.uuid)"#, fileID: #fileID, line: #line)
      return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
  }
}

/// A source of UUIDs.
///
/// ```swift
/// let uuid = UUIDGenerator.incrementing
/// uuid()  // 00000000-0000-0000-0000-000000000000
/// uuid()  // 00000000-0000-0000-0000-000000000001
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns the next UUID.
  public func callAsFunction() -> UUID { generate() }

  /// A generator that always returns `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// A generator of `00000000-0000-0000-0000-000000000000`, `…0001`, `…0002`, and so on. Each
  /// use of the property makes a new generator that starts at zero.
  public static var incrementing: Self {
    let counter = LockedState<UInt64>(0)
    return Self {
      let value = counter.withLock { value -> UInt64 in
        defer { value += 1 }
        return value
      }
      return UUID(incrementing: value)
    }
  }
}

extension UUID {
  /// The UUID whose last 64 bits are `value`, e.g. `00000000-0000-0000-0000-00000000000a`.
  init(incrementing value: UInt64) {
    let text = String(value, radix: 16)
    let padded = String(repeating: "0", count: max(0, 12 - text.count)) + text
    self = UUID(uuidString: "00000000-0000-0000-0000-\(padded.suffix(12))") ?? UUID()
  }
}
