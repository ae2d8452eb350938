import Loom
import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// A failure a test store found: what happened, in words, and the line of the test it points at.
public struct TestFailure: Sendable, Equatable, CustomStringConvertible {
  /// What happened and what to do about it.
  public var message: String
  /// The line of the test the failure points at.
  public var location: CodeLocation
  /// The same file path as a static string, which XCTest needs.
  let staticFilePath: StaticString?
  /// The framework of the test that created the test store, captured when it was created: a
  /// failure reported at the end of the test may come from a context that no longer knows it.
  let framework: TestFramework?

  /// Creates a failure.
  public init(message: String, location: CodeLocation) {
    self.message = message
    self.location = location
    self.staticFilePath = nil
    self.framework = nil
  }

  init(message: String, at callSite: CallSite, framework: TestFramework?) {
    self.message = message
    self.location = callSite.location
    self.staticFilePath = callSite.filePath
    self.framework = framework
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.message == rhs.message && lhs.location == rhs.location
  }

  public var description: String { "\(location): \(message)" }
}

/// Where a test store sends its failures.
///
/// By default a failure is recorded with the test framework that is running the test that
/// created the store: an `Issue.record` under Swift Testing, an `XCTFail` under XCTest, both at
/// the line of the test that made the failing call (for the end-of-test checks, the line that
/// created the store or sent the action whose effect is still running). Tests of a test store
/// itself can route failures to a closure instead, to check the exact messages; any other test
/// should keep the default, so that what it forgets fails it:
///
/// ```swift
/// let store = TestStore(initialState: Counter.State()) { Counter() }
/// store.failureReporter = .collecting { failure in print(failure.message) }
/// ```
public struct TestFailureReporter: Sendable {
  let record: @Sendable (TestFailure) -> Void

  /// Reports each failure to `record` instead of the test framework.
  public static func collecting(_ record: @escaping @Sendable (TestFailure) -> Void) -> Self {
    Self(record: record)
  }

  /// Records each failure with the framework of the test that created the test store: Swift
  /// Testing if a Swift Testing test was running then, otherwise XCTest.
  public static let testFramework = Self { failure in
    if (failure.framework ?? .current) == .swiftTesting {
      Issue.record(
        Comment(rawValue: failure.message),
        sourceLocation: Testing.SourceLocation(
          fileID: failure.location.fileID,
          filePath: failure.location.filePath,
          line: failure.location.line,
          column: max(failure.location.column, 1)
        )
      )
      return
    }
    #if canImport(XCTest)
      if let file = failure.staticFilePath {
        XCTFail(failure.message, file: file, line: UInt(failure.location.line))
      } else {
        XCTFail("\(failure.location): \(failure.message)")
      }
    #else
      print("Test failure: \(failure)")
    #endif
  }
}

/// The test framework a test runs under.
@usableFromInline
enum TestFramework: Sendable {
  case swiftTesting
  case xcTest

  /// Swift Testing if a Swift Testing test is running in the current task, otherwise XCTest.
  @usableFromInline
  static var current: Self { Test.current != nil ? .swiftTesting : .xcTest }
}

/// The place in a test that called a test store method, captured with default arguments.
@usableFromInline
typealias CallSite = _CallSite
