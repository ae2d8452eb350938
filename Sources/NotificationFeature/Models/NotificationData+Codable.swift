import Foundation

/// The JSON shape of a notification, shared by the HTTP API and the inbox file:
///
/// ```json
/// {"id":"n1","type":"ping","title":"Ping","message":"Hi","timestamp":"2023-11-14T22:13:20.000Z",
///  "isRead":false,"target":{"kind":"ping","pingId":"p1","contactId":"c1"},"details":null,
///  "threadId":null,"priority":"regular","isLocal":false}
/// ```
///
/// Decoding accepts ISO-8601 timestamps with or without fractional seconds; missing optional
/// keys take their defaults.
extension NotificationData: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, type, title, message, timestamp, isRead, target, details, threadId, priority, isLocal
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let timestampText = try container.decode(String.self, forKey: .timestamp)
    guard let timestamp = ISO8601.date(from: timestampText) else {
      throw DecodingError.dataCorruptedError(
        forKey: .timestamp, in: container,
        debugDescription: "Not an ISO-8601 date: \"\(timestampText)\"")
    }
    self.init(
      id: try container.decode(String.self, forKey: .id),
      type: try container.decodeIfPresent(NotificationType.self, forKey: .type) ?? .system,
      title: try container.decodeIfPresent(String.self, forKey: .title) ?? "",
      message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
      timestamp: timestamp,
      isRead: try container.decodeIfPresent(Bool.self, forKey: .isRead) ?? false,
      target: try container.decodeIfPresent(NotificationTarget.self, forKey: .target) ?? .none,
      details: try container.decodeIfPresent(NotificationDetails.self, forKey: .details),
      threadID: try container.decodeIfPresent(String.self, forKey: .threadId),
      priority: try container.decodeIfPresent(NotificationPriority.self, forKey: .priority)
        ?? .regular,
      isLocal: try container.decodeIfPresent(Bool.self, forKey: .isLocal) ?? false
    )
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(type, forKey: .type)
    try container.encode(title, forKey: .title)
    try container.encode(message, forKey: .message)
    try container.encode(ISO8601.string(from: timestamp), forKey: .timestamp)
    try container.encode(isRead, forKey: .isRead)
    try container.encode(target, forKey: .target)
    try container.encode(details, forKey: .details)
    try container.encode(threadID, forKey: .threadId)
    try container.encode(priority, forKey: .priority)
    try container.encode(isLocal, forKey: .isLocal)
  }
}

/// ISO-8601 dates as the API writes and reads them.
package enum ISO8601 {
  /// Parses `2023-11-14T22:13:20Z`, `2023-11-14T22:13:20.123Z` or any `±hh:mm` offset.
  package static func date(from text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }

  /// Formats with milliseconds in UTC.
  package static func string(from date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}
