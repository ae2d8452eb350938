/// How strictly a ``TestStore`` checks a test.
///
/// ```swift
/// store.exhaustivity = .off(showSkippedAssertions: true)
/// ```
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, received action and in-flight effect must be asserted. The default.
  case on
  /// State changes and received actions the test does not assert are tolerated; what it does
  /// assert is still checked. With `showSkippedAssertions`, what was skipped is printed.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without printing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)

  @usableFromInline
  var isExhaustive: Bool { self == .on }

  @usableFromInline
  var showsSkippedAssertions: Bool {
    if case .off(true) = self { return true }
    return false
  }
}
