/// How ``loomDiff(_:_:format:)`` marks the lines of each side.
///
/// Lines only in the first value start with ``first``, lines only in the second with
/// ``second``, and shared context lines with spaces of the same width.
///
/// ```swift
/// let diff = loomDiff(expected, actual, format: DiffFormat(first: "−", second: "+"))
/// ```
public struct DiffFormat: Sendable, Equatable {
  /// The mark of lines from the first value (the old or expected one).
  public var first: String
  /// The mark of lines from the second value (the new or actual one).
  public var second: String

  /// A format with the given marks.
  ///
  /// ```swift
  /// let format = DiffFormat(first: "old", second: "new")
  /// ```
  ///
  /// - Parameters:
  ///   - first: The mark of lines from the first value.
  ///   - second: The mark of lines from the second value.
  public init(first: String, second: String) {
    self.first = first
    self.second = second
  }

  /// `-` for the old value, `+` for the new one.
  ///
  /// ```swift
  /// let diff = loomDiff(before, after, format: .default)
  /// ```
  public static let `default` = DiffFormat(first: "-", second: "+")

  /// `−` (a minus sign) for the expected value, `+` for the actual one, as the test store
  /// prints them.
  ///
  /// ```swift
  /// let diff = loomDiff(expected, actual, format: .testStore)
  /// ```
  public static let testStore = DiffFormat(first: "−", second: "+")
}
