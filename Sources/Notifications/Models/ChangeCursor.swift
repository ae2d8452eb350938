/// A place in a backend's log of changes: every change the backend makes gets the next one, so
/// cursors order everything the backend says. A page reflects the changes up to its cursor
/// (``NotificationPage/changeCursor``), an event and the answer to a change carry the cursor of
/// the change they report (``NotificationEvent/cursor``), and a notification carries the cursor
/// of its last change (``NotificationData/version``): of two things the backend said about one
/// notification, the one with the later cursor is newer.
///
/// ```swift
/// let page = try await client.fetchPage(PageRequest(limit: 50))
/// let missed = try await client.changesSince(page.changeCursor ?? .zero)
/// let isNewer = event.cursor.map { $0 > page.changeCursor ?? .zero } ?? false
/// ```
///
/// On the wire it is a string of decimal digits (`"42"`), as the HTTP API and the inbox's
/// change log have always written cursors; it decodes from such a string or a number.
public struct ChangeCursor: Hashable, Comparable, Sendable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  /// The change's place in the log: 1 for the first change, 0 before any.
  public var position: UInt64

  /// The cursor at `position`.
  public init(_ position: UInt64) {
    self.position = position
  }

  /// The cursor a string of decimal digits writes (`"42"`); `nil` for any other string.
  ///
  /// ```swift
  /// ChangeCursor("42")   // 42
  /// ChangeCursor("-1")   // nil
  /// ```
  public init?(_ text: String) {
    guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (48...57).contains($0) }),
      let position = UInt64(text)
    else { return nil }
    self.position = position
  }

  public init(integerLiteral position: UInt64) {
    self.position = position
  }

  /// Before any change.
  public static let zero = ChangeCursor(0)

  /// The position, in decimal digits.
  public var description: String { String(position) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.position < rhs.position }
}

extension ChangeCursor: Codable {
  /// Decodes a string of decimal digits or a whole number.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      guard let cursor = ChangeCursor(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "\"\(text.prefix(40))\" is not a change cursor")
      }
      self = cursor
    } else {
      self.position = try container.decode(UInt64.self)
    }
  }

  /// Encodes the position as a string of decimal digits.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
