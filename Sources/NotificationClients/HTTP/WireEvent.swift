import Foundation
import Notifications

/// A change as the HTTP API's `/changes` endpoint sends it (documented in `Docs/HTTP-API.md`):
///
///     {"cursor": "5", "kind": "inserted", "notification": {…}}
///     {"cursor": "6", "kind": "updated", "notification": {…}}
///     {"cursor": "7", "kind": "deleted", "id": "n1"}
///     {"cursor": "8", "kind": "snapshot", "notifications": [{…}, …]}
///
/// `cursor` is left out when the change has none. The server encodes with it and the client
/// decodes with it, so the two cannot drift apart. Package-visible: the development server in
/// `Examples/` uses it too.
package struct WireEvent: Codable, Equatable, Sendable {
  package var event: NotificationEvent

  package init(_ event: NotificationEvent) {
    self.event = event
  }

  enum CodingKeys: String, CodingKey {
    case cursor, kind, notification, id, notifications
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // A cursor that is not digits is no cursor (an older or foreign server's): left out.
    let cursor = try container.decodeIfPresent(String.self, forKey: .cursor).flatMap(ChangeCursor.init)
    let kind = try container.decode(String.self, forKey: .kind)
    let change: NotificationChange
    switch kind {
    case "inserted": change = .inserted(try container.decode(NotificationData.self, forKey: .notification))
    case "updated": change = .updated(try container.decode(NotificationData.self, forKey: .notification))
    case "deleted": change = .deleted(id: try container.decode(String.self, forKey: .id))
    case "snapshot":
      change = .snapshot(try container.decode([NotificationData].self, forKey: .notifications))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "\"\(kind.prefix(40))\" is not a kind of change (inserted, updated, deleted, snapshot)")
    }
    event = NotificationEvent(change, cursor: cursor)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(event.cursor, forKey: .cursor)
    switch event.change {
    case .inserted(let notification):
      try container.encode("inserted", forKey: .kind)
      try container.encode(notification, forKey: .notification)
    case .updated(let notification):
      try container.encode("updated", forKey: .kind)
      try container.encode(notification, forKey: .notification)
    case .deleted(let id):
      try container.encode("deleted", forKey: .kind)
      try container.encode(id, forKey: .id)
    case .snapshot(let notifications):
      try container.encode("snapshot", forKey: .kind)
      try container.encode(notifications, forKey: .notifications)
    }
  }
}
