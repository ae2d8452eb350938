import Foundation

/// The JSON shape of a notification, shared by the HTTP API and the inbox file. Every key but
/// `version` is always written (`details` and `threadId` as `null` when absent); `version`, the
/// cursor of the backend's last change to it as a string of digits, only when it is known:
///
/// ```json
/// {"id":"n1","type":"ping","title":"Ping","message":"Hi","timestamp":"2023-11-14T22:13:20.000Z",
///  "isRead":false,"target":{"kind":"ping","pingId":"p1","contactId":"c1"},"details":null,
///  "threadId":null,"priority":"regular","isLocal":false,"version":"42"}
/// ```
///
/// Decoding needs `id` and `timestamp` (ISO-8601, fractional seconds optional, any offset);
/// every other key may be missing or `null` and then takes its default: `type` system, `title`
/// and `message` empty, `isRead` false, `target` none, no details or thread, `priority`
/// regular, `isLocal` false, `version` unknown.
extension NotificationData: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, type, title, message, timestamp, isRead, target, details, threadId, priority, isLocal
    case version
  }

  /// Decodes the JSON shape above.
  ///
  /// ```swift
  /// let notification = try JSONDecoder().decode(NotificationData.self, from: data)
  /// ```
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let timestampText = try container.decode(String.self, forKey: .timestamp)
    guard let timestamp = ISO8601.date(from: timestampText) else {
      throw DecodingError.dataCorruptedError(
        forKey: .timestamp, in: container,
        debugDescription: "Not an ISO-8601 date: \"\(timestampText.prefix(40))\"")
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
      isLocal: try container.decodeIfPresent(Bool.self, forKey: .isLocal) ?? false,
      version: try container.decodeIfPresent(ChangeCursor.self, forKey: .version)
    )
  }

  /// Encodes the JSON shape above, the timestamp in UTC with milliseconds.
  ///
  /// ```swift
  /// let data = try JSONEncoder().encode(notification)
  /// ```
  ///
  /// - Throws: `EncodingError.invalidValue` for a timestamp outside the years 0000 to 9999
  ///   (or not finite), which ISO-8601 cannot write.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(type, forKey: .type)
    try container.encode(title, forKey: .title)
    try container.encode(message, forKey: .message)
    guard let timestampText = ISO8601.string(from: timestamp) else {
      // The value is the number of seconds, not the `Date`: describing a non-finite `Date`
      // traps in Foundation, and errors get described.
      throw EncodingError.invalidValue(
        timestamp.timeIntervalSince1970,
        .init(
          codingPath: container.codingPath + [CodingKeys.timestamp],
          debugDescription: "The timestamp has no four-digit year, so ISO-8601 cannot write it"))
    }
    try container.encode(timestampText, forKey: .timestamp)
    try container.encode(isRead, forKey: .isRead)
    try container.encode(target, forKey: .target)
    try container.encode(details, forKey: .details)
    try container.encode(threadID, forKey: .threadId)
    try container.encode(priority, forKey: .priority)
    try container.encode(isLocal, forKey: .isLocal)
    try container.encodeIfPresent(version, forKey: .version)
  }
}
