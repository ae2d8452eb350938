import Foundation

extension PushPayloadParser {
  /// The screen the notification opens.
  ///
  /// An explicit `target` object (``NotificationTarget``'s JSON shape, or that JSON in a
  /// string, as FCM's all-strings data carries it) wins. Otherwise the type decides: a ping
  /// needs `pingId` and `contactId`, an alert `alertId`, a role change, addition, removal or
  /// check-in `contactId`; system and unknown types open nothing. Ids are cleaned like text
  /// (at most ``maximumIDLength`` characters); a target missing one of its ids is `.none`.
  static func target(for type: NotificationType, fields: PushFields) -> NotificationTarget {
    if let explicit = embeddedObject(fields.value("target")) {
      return target(kind: explicit["kind"]?.text) { explicit[$0] }
    }
    let kind: String? =
      switch type {
      case .ping: "ping"
      case .alert: "alert"
      case .role, .added, .removed, .checkIn: "contact"
      case .system, .unknown: nil
      }
    return target(kind: kind, id: fields.value)
  }

  private static func target(kind: String?, id value: (String) -> JSONValue?)
    -> NotificationTarget
  {
    func id(_ key: String) -> String? { cleanText(value(key), limit: maximumIDLength) }
    switch kind?.trimmingCharacters(in: .whitespaces) {
    case "contact":
      return id("contactId").map { .contact(contactID: $0) } ?? .none
    case "alert":
      return id("alertId").map { .alert(alertID: $0) } ?? .none
    case "ping":
      guard let pingID = id("pingId"), let contactID = id("contactId") else { return .none }
      return .ping(pingID: pingID, contactID: contactID)
    default:
      return .none
    }
  }

  /// Typed details, from a `details` object in ``NotificationDetails``'s JSON shape (or that
  /// JSON in a string). Lenient: details that cannot be read are left out, never an error.
  /// The case's fields may sit under `value` or beside `kind`; text is cleaned (names and
  /// short fields to ``maximumTitleLength`` characters, notes to ``maximumMessageLength``).
  static func details(fields: PushFields) -> NotificationDetails? {
    guard let object = embeddedObject(fields.value("details")) else { return nil }
    let values = object["value"]?.objectValue ?? object
    func short(_ key: String) -> String? { cleanText(values[key], limit: maximumTitleLength) }
    switch object["kind"]?.text?.trimmingCharacters(in: .whitespaces) {
    case "contact":
      guard let name = short("name") else { return nil }
      return .contact(.init(name: name, role: short("role"), action: short("action")))
    case "alert":
      return .alert(.init(severity: short("severity"), location: short("location")))
    case "ping":
      return .ping(
        .init(
          contactName: short("contactName"),
          note: cleanText(values["note"], limit: maximumMessageLength)))
    default:
      return nil
    }
  }

  /// An object, or a string holding one as JSON (how FCM's all-strings `data` nests objects);
  /// `nil` for anything else.
  private static func embeddedObject(_ value: JSONValue?) -> [String: JSONValue]? {
    switch value {
    case .object(let object)?:
      return object
    case .string(let text)? where text.utf8.first == UInt8(ascii: "{"):
      return (try? JSONValue.decode(Data(text.utf8)))?.objectValue
    default:
      return nil
    }
  }
}
