/// Why a string cannot be the id of a notification (or of the contact, alert or ping one is
/// about).
///
/// An id from outside (a command-line argument, an HTTP path segment, a push payload) is checked
/// once, where it comes in, with ``NotificationData/checkID(_:)``. The rule keeps an id usable as
/// exactly one segment of a URL path and as one line of output: an empty id, `.` or `..` would
/// name the collection itself (`DELETE /api/notifications/` once deleted every notification), a
/// control character would break a header or a line, and a very long one is a mistake.
///
/// ```swift
/// do {
///   try NotificationData.checkID(argument)
/// } catch {
///   print("Not a notification id: \(error)")   // "an id is not empty"
/// }
/// ```
public enum InvalidNotificationID: Error, Sendable, Hashable, CustomStringConvertible {
  /// The id is empty.
  case empty
  /// The id is `.` or `..`, which a URL path resolves away.
  case dotSegment
  /// The id holds a control character (a newline, a tab, a NUL, DEL…).
  case controlCharacter
  /// The id is longer than ``NotificationData/maximumIDLength`` bytes of UTF-8.
  case tooLong(bytes: Int)

  public var description: String {
    switch self {
    case .empty:
      "an id is not empty"
    case .dotSegment:
      "an id is not '.' or '..'"
    case .controlCharacter:
      "an id has no control characters"
    case .tooLong(let bytes):
      "an id has at most \(NotificationData.maximumIDLength) bytes, not \(bytes)"
    }
  }
}

extension NotificationData {
  /// The longest id accepted, in bytes of UTF-8.
  public static let maximumIDLength = 200

  /// Checks that `id` can be a notification's id (or an entity's): not empty, not `.` or `..`,
  /// no control characters, at most ``maximumIDLength`` bytes.
  ///
  /// ```swift
  /// try NotificationData.checkID("n1")   // fine
  /// let empty = Result { () throws(InvalidNotificationID) in try NotificationData.checkID("") }
  /// // .failure(.empty)
  /// ```
  ///
  /// - Complexity: O(*n*) for an id of *n* bytes.
  public static func checkID(_ id: String) throws(InvalidNotificationID) {
    if id.isEmpty { throw .empty }
    if id == "." || id == ".." { throw .dotSegment }
    if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .controlCharacter
    }
    let bytes = id.utf8.count
    if bytes > maximumIDLength { throw .tooLong(bytes: bytes) }
  }
}
