import Foundation

/// Turns a raw push payload (an APNs `userInfo`-shaped JSON object, or FCM's all-strings data
/// map) into a ``NotificationData``. Total: it never traps, and every bad payload becomes a
/// ``PushParseError``.
///
/// ```swift
/// let payload = Data(#"{"aps":{"alert":{"title":"Ping","body":"Hi"}},"id":"n1","type":"ping","pingId":"p1","contactId":"c1"}"#.utf8)
/// let notification = try PushPayloadParser.parse(payload, receivedAt: .now)
/// ```
///
/// Rules:
/// - Payloads over 4,096 bytes are rejected.
/// - Custom keys may sit at the top level or inside `data`; `aps.alert` is a string (the body)
///   or `{title, body}`; `body` or `message` give the message.
/// - `id` is required: trimmed, whole numbers accepted, at most 128 characters of
///   `[A-Za-z0-9_:.-]`.
/// - Booleans and numbers may be strings. Unknown types decode to `.unknown`; no type is
///   `.system`.
/// - The type picks the target (ping: ping and contact ids; alert: alert id; role, added,
///   removed, check-in: contact id); a target missing its ids becomes `.none`.
/// - Strings are trimmed, control characters become spaces and are collapsed, and titles
///   (120) and messages (1,000) are truncated by whole characters. A missing title is the
///   type's display name.
/// - Timestamps are ISO-8601 (any offset, fractional seconds optional) or numbers in seconds
///   (< 10^11), milliseconds (< 10^14) or microseconds. Missing: the receive time. Present but
///   unparseable: an error. More than a day ahead of the receive time: clamped to it.
/// - `priority` wins; else `aps.interruption-level` `passive` is silent, `time-sensitive` and
///   `critical` are high, anything else regular.
public enum PushPayloadParser {
  /// The largest payload accepted, in bytes.
  public static let maximumSize = 4_096
  static let maximumIDLength = 128
  static let maximumTitleLength = 120
  static let maximumMessageLength = 1_000

  /// Parses JSON bytes.
  public static func parse(_ data: Data, receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    guard data.count <= maximumSize else {
      throw .tooLarge(byteCount: data.count, limit: maximumSize)
    }
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw .notJSON
    }
    return try parse(value, receivedAt: receivedAt)
  }

  /// Parses an Apple `userInfo` dictionary.
  public static func parse(userInfo: [AnyHashable: Any], receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    guard let value = JSONValue(any: userInfo) else { throw .notJSON }
    if let data = try? JSONSerialization.data(withJSONObject: jsonObject(value)),
      data.count > maximumSize
    {
      throw .tooLarge(byteCount: data.count, limit: maximumSize)
    }
    return try parse(value, receivedAt: receivedAt)
  }

  static func parse(_ root: JSONValue, receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    guard case .object = root else { throw .notAnObject }
    let fields = Fields(root: root)

    let id = try parseID(fields.value("id") ?? fields.value("notificationId"))
    let type = fields.string("type").map { NotificationType(rawValue: $0) } ?? .system
    let alert = root["aps"]?["alert"]
    var title = fields.string("title")
    var message = fields.string("body") ?? fields.string("message")
    if case .string(let body)? = alert { message = message ?? body }
    if case .object? = alert {
      title = title ?? alert?["title"].flatMap(Fields.text)
      message = message ?? alert?["body"].flatMap(Fields.text)
    }
    let cleanTitle = clean(title ?? "", limit: maximumTitleLength)
    let timestamp = try parseTimestamp(fields.value("timestamp"), receivedAt: receivedAt)
    let isRead = try fields.bool("isRead") ?? false

    return NotificationData(
      id: id,
      type: type,
      title: cleanTitle.isEmpty ? type.displayName : cleanTitle,
      message: clean(message ?? "", limit: maximumMessageLength),
      timestamp: timestamp,
      isRead: isRead,
      target: target(for: type, fields: fields),
      threadID: (root["aps"]?["thread-id"].flatMap(Fields.text) ?? fields.string("threadId"))
        .map { clean($0, limit: maximumIDLength) },
      priority: try priority(fields: fields, root: root)
    )
  }

  static func parseID(_ value: JSONValue?) throws(PushParseError) -> String {
    let raw: String
    switch value {
    case .string(let text)?: raw = text.trimmingCharacters(in: .whitespacesAndNewlines)
    case .number(let number)?:
      guard number.rounded() == number, abs(number) < 1e15 else {
        throw .invalidField("id", reason: "a number id must be a whole number")
      }
      raw = String(Int64(number))
    case nil, .null?: throw .missingField("id")
    default: throw .invalidField("id", reason: "it must be a string or a whole number")
    }
    guard !raw.isEmpty else { throw .missingField("id") }
    guard raw.count <= maximumIDLength else {
      throw .invalidField("id", reason: "it is longer than \(maximumIDLength) characters")
    }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:.-")
    guard raw.allSatisfy(allowed.contains) else {
      throw .invalidField("id", reason: "only letters, digits and _ : . - are allowed")
    }
    return raw
  }

  static func parseTimestamp(_ value: JSONValue?, receivedAt: Date) throws(PushParseError) -> Date {
    let date: Date
    switch value {
    case nil, .null?:
      return receivedAt
    case .number(let number)?:
      date = dateFromNumber(number)
    case .string(let text)?:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if let number = Double(trimmed) {
        date = dateFromNumber(number)
      } else if let parsed = ISO8601.date(from: trimmed) {
        date = parsed
      } else {
        throw .invalidField("timestamp", reason: "\"\(trimmed.prefix(40))\" is not a date")
      }
    default:
      throw .invalidField("timestamp", reason: "it must be a string or a number")
    }
    return date > receivedAt.addingTimeInterval(24 * 60 * 60) ? receivedAt : date
  }

  /// Seconds below 10^11, milliseconds below 10^14, microseconds above.
  static func dateFromNumber(_ number: Double) -> Date {
    let magnitude = abs(number)
    let seconds = magnitude < 1e11 ? number : magnitude < 1e14 ? number / 1e3 : number / 1e6
    return Date(timeIntervalSince1970: seconds)
  }

  static func target(for type: NotificationType, fields: Fields) -> NotificationTarget {
    let contact = fields.string("contactId").map { $0.trimmingCharacters(in: .whitespaces) }
      .flatMap { $0.isEmpty ? nil : $0 }
    switch type {
    case .ping:
      guard let ping = fields.string("pingId"), !ping.isEmpty, let contact else { return .none }
      return .ping(pingID: ping, contactID: contact)
    case .alert:
      guard let alert = fields.string("alertId"), !alert.isEmpty else { return .none }
      return .alert(alertID: alert)
    case .role, .added, .removed, .checkIn:
      return contact.map { .contact(contactID: $0) } ?? .none
    case .system, .unknown:
      return .none
    }
  }

  static func priority(fields: Fields, root: JSONValue) throws(PushParseError)
    -> NotificationPriority
  {
    if let explicit = fields.string("priority") {
      guard let priority = NotificationPriority(rawValue: explicit.lowercased()) else {
        throw .invalidField("priority", reason: "use silent, regular or high")
      }
      return priority
    }
    switch root["aps"]?["interruption-level"].flatMap(Fields.text) {
    case "passive": return .silent
    case "time-sensitive", "critical": return .high
    default: return .regular
    }
  }

  /// Trims, turns control characters into spaces, collapses runs of spaces and truncates to
  /// `limit` whole characters.
  package static func clean(_ text: String, limit: Int) -> String {
    var result = ""
    var lastWasSpace = false
    for character in text {
      let isControl = character.unicodeScalars.allSatisfy {
        CharacterSet.controlCharacters.contains($0)
      }
      if isControl || character == " " {
        if !lastWasSpace, !result.isEmpty { result.append(" ") }
        lastWasSpace = true
      } else {
        result.append(character)
        lastWasSpace = false
      }
    }
    let trimmed = result.trimmingCharacters(in: .whitespaces)
    return trimmed.count > limit ? String(trimmed.prefix(limit)) : trimmed
  }

  private static func jsonObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: NSNull()
    case .bool(let bool): bool
    case .number(let number): number
    case .string(let string): string
    case .array(let array): array.map(jsonObject)
    case .object(let object): object.mapValues(jsonObject)
    }
  }
}

/// The custom keys of a payload, at the top level or inside `data`.
struct Fields {
  let root: JSONValue

  func value(_ key: String) -> JSONValue? {
    root[key] ?? root["data"]?[key]
  }

  func string(_ key: String) -> String? {
    value(key).flatMap(Self.text)
  }

  func bool(_ key: String) throws(PushParseError) -> Bool? {
    switch value(key) {
    case nil, .null?: return nil
    case .bool(let bool)?: return bool
    case .number(let number)? where number == 0 || number == 1: return number == 1
    case .string(let text)?:
      switch text.trimmingCharacters(in: .whitespaces).lowercased() {
      case "true", "1", "yes": return true
      case "false", "0", "no": return false
      default: throw .invalidField(key, reason: "\"\(text.prefix(20))\" is not a boolean")
      }
    default: throw .invalidField(key, reason: "it is not a boolean")
    }
  }

  /// A string, or a number written as one.
  static func text(_ value: JSONValue) -> String? {
    switch value {
    case .string(let text): text
    case .number(let number) where number.rounded() == number && abs(number) < 1e15:
      String(Int64(number))
    case .number(let number): String(number)
    case .bool(let bool): bool ? "true" : "false"
    default: nil
    }
  }
}
