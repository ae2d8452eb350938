import Foundation

/// A place in source code, captured with `#fileID`, `#filePath`, `#line` and `#column` defaults so
/// that a reported issue points at the call site that caused it. (Not `SourceLocation`: a test
/// file imports Swift Testing too, whose `SourceLocation` the name would clash with.)
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
  public var fileID: String
  public var filePath: String
  public var line: Int
  public var column: Int

  /// Creates a source location; the defaults capture the caller's location.
  public init(
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public var description: String { "\(fileID):\(line)" }
}

/// Receives the issues Loom reports at run time: misuse such as an action sent to a missing
/// `forEach` element, an error thrown by an effect that has no `catch`, or a dependency used in
/// a test without a test value.
///
/// Outside tests the default reporter prints each issue to standard error. `TestStore` installs
/// a reporter that turns every issue into a test failure at the call site.
///
/// ```swift
/// let reporter = IssueReporter { message, location in log.append("\(location): \(message)") }
/// let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.issueReporter = reporter
/// }
/// ```
public struct IssueReporter: Sendable {
  let report: @Sendable (String, CodeLocation) -> Void

  /// Creates a reporter from a closure that receives each issue's message and location.
  public init(_ report: @escaping @Sendable (_ message: String, _ location: CodeLocation) -> Void) {
    self.report = report
  }

  /// Reports an issue through this reporter.
  public func callAsFunction(_ message: String, at location: CodeLocation) {
    report(message, location)
  }

  /// A reporter that ignores every issue.
  public static let silent = IssueReporter { _, _ in }

  /// The default reporter: prints `[Loom] runtime warning: <message>` with its location to
  /// standard error, once per call site (the same misuse repeated in a loop prints once).
  public static let standardError: IssueReporter = {
    let printed = LockedState(Set<CodeLocation>())
    return IssueReporter { message, location in
      guard printed.withLock({ $0.insert(location).inserted }) else { return }
      let text = "[Loom] runtime warning: \(message) (\(location))\n"
      FileHandle.standardError.write(Data(text.utf8))
    }
  }()
}

/// Reports a runtime issue through the reporter of the current dependency context.
///
/// This is the single path through which Loom reports misuse. It never traps: in an app it
/// prints a warning, under a `TestStore` it fails the test.
///
/// ```swift
/// guard let row = state.rows[id: id] else {
///   reportIssue("No row with id \(id)")
///   return .none
/// }
/// ```
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) {
  DependencyValues.current.issueReporter(
    message(),
    at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  )
}

/// A call site as the compiler's literals give it, kept by composition reducers (and by the
/// test store, for its failures).
///
/// A body is rebuilt for every action, so a reducer that kept a ``CodeLocation`` would build
/// two strings per action; these literals cost nothing until an issue is reported.
@usableFromInline
package struct _CallSite: Sendable {
  @usableFromInline package let fileID: StaticString
  @usableFromInline package let filePath: StaticString
  @usableFromInline package let line: UInt
  @usableFromInline package let column: UInt

  @inlinable
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  @usableFromInline
  package var location: CodeLocation {
    CodeLocation(
      fileID: fileID.description, filePath: filePath.description, line: Int(line),
      column: Int(column))
  }
}
