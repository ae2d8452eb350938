import Foundation

/// Turns a raw push payload into a ``NotificationData``. Total: it never traps, and every
/// payload it cannot use becomes a typed ``PushParseError``.
///
/// ```swift
/// let payload = Data(
///   (#"{"aps":{"alert":{"title":"Ping","body":"Hi"}},"id":"n1","type":"ping","pingId":"p1","#
///     + #""contactId":"c1"}"#).utf8)
/// let notification = try PushPayloadParser.parse(payload, receivedAt: .now)
/// notification.target   // .ping(pingID: "p1", contactID: "c1")
/// ```
///
/// It reads three shapes, and mixtures of them:
/// - APNs: `{"aps":{"alert":{"title":"T","body":"B"},"thread-id":"t",
///   "interruption-level":"passive"},"id":"n1","type":"ping",…}`, where `aps.alert` may also
///   be a plain string (the body) and the custom keys may sit at the top level or in `data`;
/// - FCM: `{"data":{…}}` or a flat map, every value a string (`"isRead":"true"`,
///   `"timestamp":"1700000000"`), with `notification.title`/`notification.body` optional;
/// - ``NotificationData``'s own JSON shape, including its `target` and `details` objects.
///
/// The rules, field by field:
/// - Size: payloads over ``maximumSize`` bytes are ``PushParseError/tooLarge(byteCount:limit:)``.
/// - Nesting: a value more than 64 levels deep (the root object being level 0) is
///   ``PushParseError/nestedTooDeep(limit:)``, checked before the JSON is read, so a payload
///   deeper than Foundation's JSON reader accepts is not mistaken for ``PushParseError/notJSON``.
/// - `id` (or `notificationId`): required. A string is trimmed; a whole number (`42`) becomes
///   its digits. At most 128 characters of `[A-Za-z0-9_:.-]`. Missing, `null` or blank:
///   `missingField("id")`; anything else unusable: `invalidField("id", …)`.
/// - `type`: a string, trimmed; unknown types are `.unknown(raw)`, a missing or blank one is
///   `.system`.
/// - `title`: `title`, else `aps.alert.title`, else `notification.title`; missing or blank, the
///   type's display name. Message: `body`, else `message`, else `aps.alert` (a string) or
///   `aps.alert.body`, else `notification.body`; missing, `""`. Both are cleaned (trimmed;
///   whitespace, newlines included, and control characters become single spaces; stray
///   invisible format characters are dropped) and cut to 120 and 1,000 whole `Character`s, so
///   no emoji is split. Numbers are read as text; a boolean, array or object is an error.
/// - `timestamp`: ISO-8601 with or without fractional seconds and with any offset (`Z`,
///   `+02:00`), or a number (or a numeric string) of seconds (below 10^11), milliseconds
///   (below 10^14) or microseconds since 1970. Missing, `null`, blank or the number zero (`0`,
///   `"0"`: what a sender with an unset timestamp field sends, never a real date): `receivedAt`.
///   Present but unreadable or before 1970: `invalidField("timestamp", …)`. More than 24 hours
///   after `receivedAt` (a sender with a wrong clock): `receivedAt`.
/// - `isRead`: `true`/`false`, `1`/`0`, or those (and `yes`/`no`) as strings in any case;
///   missing is `false`, anything else an error.
/// - Target: an explicit `target` object (``NotificationTarget``'s shape, or that JSON in a
///   string) wins; else the type decides: a ping needs `pingId` and `contactId`, an alert
///   `alertId`; a role change, addition, removal or check-in `contactId`; system and unknown
///   types open nothing. A target missing an id is `.none`, never an error.
/// - `details`: ``NotificationDetails``'s shape (or that JSON in a string), fields under
///   `value` or beside `kind`; unreadable details are left out, never an error.
/// - Thread: `aps.thread-id`, else `threadId`; cleaned, at most 128 characters.
/// - Priority: `priority` (`silent`, `regular`, `high`, any case) wins, and any other value
///   is an error; else `aps.interruption-level` `passive` is silent, `time-sensitive` and
///   `critical` are high, and anything else (or none) is regular.
/// - `isLocal` is always `false`: a push came from the backend.
///
/// - Complexity: O(*n*) in the payload size.
public enum PushPayloadParser {
  /// The largest payload accepted, in bytes (APNs' limit for a regular push).
  ///
  /// ```swift
  /// if data.count > PushPayloadParser.maximumSize { return }
  /// ```
  public static let maximumSize = 4_096
  static let maximumIDLength = 128
  static let maximumTypeLength = 64
  static let maximumTitleLength = 120
  static let maximumMessageLength = 1_000

  /// Parses the JSON bytes of a push payload.
  ///
  /// ```swift
  /// let notification = try PushPayloadParser.parse(payloadData, receivedAt: date.now)
  /// ```
  ///
  /// - Parameters:
  ///   - data: The payload, at most ``maximumSize`` bytes of UTF-8 JSON.
  ///   - receivedAt: When the push arrived: the timestamp when the payload has none, and the
  ///     clock its timestamp is checked against.
  /// - Throws: A ``PushParseError`` naming what is wrong.
  /// - Complexity: O(*n*) in the size of `data`.
  public static func parse(_ data: Data, receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    guard data.count <= maximumSize else {
      throw .tooLarge(byteCount: data.count, limit: maximumSize)
    }
    return try parse(JSONValue.decode(data), receivedAt: receivedAt)
  }

  /// Parses an Apple `userInfo` dictionary.
  ///
  /// ```swift
  /// let notification = try PushPayloadParser.parse(
  ///   userInfo: response.notification.request.content.userInfo, receivedAt: .now)
  /// ```
  ///
  /// The dictionary is walked, never force-cast: a value that is not JSON (a `Date`, `Data`, a
  /// non-finite number, a non-string key) is an ``PushParseError/invalidField(_:reason:)``
  /// naming its path, and nesting deeper than 64 levels is
  /// ``PushParseError/nestedTooDeep(limit:)``. Its size is that of its compact JSON encoding.
  ///
  /// - Parameters:
  ///   - userInfo: The payload as Apple delivers it.
  ///   - receivedAt: As for ``parse(_:receivedAt:)``.
  /// - Throws: A ``PushParseError`` naming what is wrong.
  /// - Complexity: O(*n*) in the number of values.
  public static func parse(userInfo: [AnyHashable: Any], receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    let root = try JSONValue(any: userInfo)
    guard let byteCount = root.encodedByteCount else { throw .notJSON }
    guard byteCount <= maximumSize else {
      throw .tooLarge(byteCount: byteCount, limit: maximumSize)
    }
    return try parse(root, receivedAt: receivedAt)
  }

  /// Builds the notification from a decoded payload.
  static func parse(_ root: JSONValue, receivedAt: Date) throws(PushParseError)
    -> NotificationData
  {
    guard let object = root.objectValue else { throw .notAnObject }
    let fields = PushFields(object)
    let id = try parseID(fields.value(anyOf: ["id", "notificationId"]))
    let type = try parseType(fields)
    let title = clean(try title(fields) ?? "", limit: maximumTitleLength)
    return NotificationData(
      id: id,
      type: type,
      title: title.isEmpty ? type.displayName : title,
      message: clean(try message(fields) ?? "", limit: maximumMessageLength),
      timestamp: try parseTimestamp(fields.value("timestamp"), receivedAt: receivedAt),
      isRead: try fields.bool("isRead") ?? false,
      target: target(for: type, fields: fields),
      details: details(fields: fields),
      threadID: cleanText(fields.aps?["thread-id"], limit: maximumIDLength)
        ?? cleanText(fields.value("threadId"), limit: maximumIDLength),
      priority: try priority(fields),
      isLocal: false
    )
  }

  private static func parseType(_ fields: PushFields) throws(PushParseError) -> NotificationType {
    guard let raw = try fields.requiredText("type") else { return .system }
    let cleaned = clean(raw, limit: maximumTypeLength)
    return cleaned.isEmpty ? .system : NotificationType(rawValue: cleaned)
  }

  private static func title(_ fields: PushFields) throws(PushParseError) -> String? {
    if let title = try fields.requiredText("title") { return title }
    if let title = fields.aps?["alert"]?["title"]?.text { return title }
    return fields.notification?["title"]?.text
  }

  private static func message(_ fields: PushFields) throws(PushParseError) -> String? {
    if let body = try fields.requiredText("body") { return body }
    if let message = try fields.requiredText("message") { return message }
    switch fields.aps?["alert"] {
    case .string(let body)?: return body
    case .object(let alert)?: if let body = alert["body"]?.text { return body }
    default: break
    }
    return fields.notification?["body"]?.text
  }

  private static func priority(_ fields: PushFields) throws(PushParseError)
    -> NotificationPriority
  {
    if let explicit = fields.value("priority") {
      let raw = explicit.text?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
      guard let priority = NotificationPriority(rawValue: raw) else {
        throw .invalidField("priority", reason: "use silent, regular or high")
      }
      return priority
    }
    switch fields.aps?["interruption-level"]?.text?.trimmingCharacters(in: .whitespaces) {
    case "passive": return .silent
    case "time-sensitive", "critical": return .high
    default: return .regular
    }
  }
}
