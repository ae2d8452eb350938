import Foundation

/// A change to the feed reported by the live stream or a catch-up fetch.
public enum NotificationChange: Sendable, Hashable, Codable {
  case inserted(NotificationData)
  case updated(NotificationData)
  case deleted(id: String)
  /// The whole feed, replacing what the client had.
  case snapshot([NotificationData])
}

/// A change with the cursor after it, so a reconnecting client can catch up from there.
public struct NotificationEvent: Sendable, Hashable, Codable {
  public var change: NotificationChange
  /// Where the change is in the backend's log: the change's own cursor. Cursors only ever
  /// increase, so a change at or before the newest cursor a client has (a first page's
  /// ``NotificationPage/changeCursor``, or the last change it applied) is one it has already,
  /// and is skipped, unless it is a snapshot. A backend whose log starts again (a new database)
  /// answers a catch-up from a cursor newer than its newest change with a snapshot, as every
  /// backend in NotificationClients does. `nil` when the backend does not say.
  public var cursor: ChangeCursor?

  public init(_ change: NotificationChange, cursor: ChangeCursor? = nil) {
    self.change = change
    self.cursor = cursor
  }

  /// Whether this is a change one already has who has applied the changes up to `newest`: its
  /// cursor is not after it. A snapshot never is: it is the whole feed, and a backend whose
  /// cursors started again (a new database) answers a catch-up from a cursor newer than its own
  /// with one (see ``cursor``).
  package func isReplay(upTo newest: ChangeCursor?) -> Bool {
    if case .snapshot = change { return false }
    guard let cursor, let newest else { return false }
    return cursor <= newest
  }
}
