import Foundation

extension NotificationsFeature {
  /// The state of the live-updates connection.
  public enum ConnectionState: Sendable, Hashable {
    case connecting
    case live
    case reconnecting(attempt: Int)
    case offline
  }

  /// Something notifications are about, which a shell shows as a row.
  public enum Entity: Sendable, Hashable {
    case contact(String)
    case alert(String)
    case ping(String)

    /// Whether `target` is about this entity (a ping is about its contact too).
    public func matches(_ target: NotificationTarget) -> Bool {
      switch (self, target) {
      case (.contact(let id), .contact(let contactID)): id == contactID
      case (.contact(let id), .ping(_, let contactID)): id == contactID
      case (.alert(let id), .alert(let alertID)): id == alertID
      case (.ping(let id), .ping(let pingID, _)): id == pingID
      default: false
      }
    }
  }

  /// A group of the list by day.
  public struct DaySection: Sendable, Hashable {
    public enum Day: Sendable, Hashable { case today, yesterday, earlier }
    public var day: Day
    public var notifications: [NotificationData]
  }

  /// What a tap did.
  public enum TapOutcome: Sendable, Hashable {
    case navigated(id: String)
    /// The notification has no screen to open.
    case nothingToOpen(id: String)
    /// No notification has this id.
    case notFound(id: String)
  }

  /// How a shell's foreground-presentation hook should present a push.
  public struct BannerOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let banner = BannerOptions(rawValue: 1 << 0)
    public static let sound = BannerOptions(rawValue: 1 << 1)
    public static let badge = BannerOptions(rawValue: 1 << 2)
  }

  /// The saved filter choice.
  public struct SavedFilter: Sendable, Hashable, Codable {
    public var filter: NotificationFilter
    public var unreadOnly: Bool

    public init(filter: NotificationFilter, unreadOnly: Bool) {
      self.filter = filter
      self.unreadOnly = unreadOnly
    }
  }

  /// A change applied to the list before the backend confirmed it, with what is needed to
  /// undo exactly that change.
  public enum PendingChange: Sendable, Hashable, Codable {
    case setRead(id: String, isRead: Bool, previous: Bool)
    case markAll(ids: [String])
    case delete(NotificationData, index: Int)
    /// The notifications cleared from the list, and ``State/unreadNotLoaded`` before the clear
    /// (the backend deletes those too).
    case clearAll([NotificationData], unreadNotLoaded: Int? = nil)
    /// A notification deleted by id that the list has not loaded: nothing to put back if the
    /// backend refuses.
    case deleteNotLoaded(id: String)

    /// The notification ids the change touches.
    var ids: [String] {
      switch self {
      case .setRead(let id, _, _): [id]
      case .markAll(let ids): ids
      case .delete(let notification, _): [notification.id]
      case .clearAll(let notifications, _): notifications.map(\.id)
      case .deleteNotLoaded(let id): [id]
      }
    }

    package var outboxEntry: OutboxEntry {
      switch self {
      case .setRead(let id, let isRead, _): isRead ? .markAsRead(id) : .markAsUnread(id)
      case .markAll(let ids): .markAllAsRead(ids)
      case .delete(let notification, _): .delete(notification.id)
      case .clearAll(let notifications, _): .deleteAll(upTo: Self.bound(ofClearing: notifications))
      case .deleteNotLoaded(let id): .delete(id)
      }
    }

    /// What a clear-all of `notifications` (the list at that moment) deletes on the backend:
    /// the newest of them the backend has (local notices are the device's alone) and every
    /// notification after it. `nil`, everything, when the list held none of the backend's.
    static func bound(ofClearing notifications: [NotificationData]) -> FeedPosition? {
      notifications.lazy.filter { !$0.isLocal }
        .min(by: NotificationData.isOrderedBefore)
        .map(FeedPosition.init)
    }
  }

  /// A change waiting to be sent again: what the person asked for (see ``ChangeIntent``).
  public typealias OutboxEntry = ChangeIntent

  /// The outbox as the settings keep it: the queued changes, how to undo each, and how many
  /// times each has failed again, so that a change that fails for good after a relaunch is
  /// rolled back exactly and retries stay bounded across launches. It decodes from an older
  /// version's format too, the entries alone.
  public struct SavedOutbox: Sendable, Hashable, Codable {
    public var entries: [OutboxEntry]
    public var rollbacks: [OutboxEntry: PendingChange]
    public var failures: [OutboxEntry: Int]

    public init(
      entries: [OutboxEntry], rollbacks: [OutboxEntry: PendingChange] = [:],
      failures: [OutboxEntry: Int] = [:]
    ) {
      self.entries = entries
      self.rollbacks = rollbacks
      self.failures = failures
    }

    public init(from decoder: any Decoder) throws {
      guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
        // An older version saved the entries alone.
        self.init(entries: try [OutboxEntry](from: decoder))
        return
      }
      self.init(
        entries: try container.decode([OutboxEntry].self, forKey: .entries),
        rollbacks: try container.decode([OutboxEntry: PendingChange].self, forKey: .rollbacks),
        failures: try container.decode([OutboxEntry: Int].self, forKey: .failures))
    }
  }

  /// The settings keys the feature uses.
  public enum SettingsKey {
    public static let filter = "notifications.filter"
    public static let outbox = "notifications.outbox"
    /// The pushes the backend's feed has not listed, and those deleted before it did.
    public static let pushes = "notifications.pushes"
  }
}

extension Array where Element == NotificationsFeature.OutboxEntry {
  /// Adds an entry, merging it with what is already waiting: marking read then unread (or the
  /// reverse) cancels out, a delete supersedes read changes to the same notification, and two
  /// delete-alls make one that covers what either does, in the first one's place.
  ///
  /// A delete-all leaves the other entries alone. What was queued before the clear-all was
  /// made, the clear-all replaced then (see `NotificationSyncEngine.perform`); what is queued
  /// now comes from changes made since, which may be about notifications it spares (newer
  /// than its bound), so dropping them would lose the person's later choices.
  package mutating func enqueue(_ entry: Element) {
    switch entry {
    case .markAsRead(let id):
      if let index = firstIndex(of: .markAsUnread(id)) { remove(at: index); return }
      if !contains(entry) { append(entry) }
    case .markAsUnread(let id):
      if let index = firstIndex(of: .markAsRead(id)) { remove(at: index); return }
      if !contains(entry) { append(entry) }
    case .delete(let id):
      removeAll { $0 == .markAsRead(id) || $0 == .markAsUnread(id) }
      if !contains(entry) { append(entry) }
    case .deleteAll(let bound):
      var merged = entry
      for case .deleteAll(let queued) in self {
        // The wider bound: nil (everything), or the newer position.
        guard let queued, let bound else {
          merged = .deleteAll(upTo: nil)
          break
        }
        if queued.covers(timestamp: bound.timestamp, id: bound.id) {
          merged = .deleteAll(upTo: queued)
        }
      }
      let place = firstIndex { if case .deleteAll = $0 { true } else { false } } ?? endIndex
      let before = self[..<place]
      let after = self[place...].filter { if case .deleteAll = $0 { false } else { true } }
      self = Array(before) + [merged] + after
    case .markAllAsRead:
      append(entry)
    }
  }
}

extension ChangeIntent {
  /// `notification` as the backend has it once the change is applied, or `nil` when the change
  /// deletes it.
  func applied(to notification: NotificationData) -> NotificationData? {
    var notification = notification
    switch self {
    case .markAsRead(let id) where id == notification.id: notification.isRead = true
    case .markAsUnread(let id) where id == notification.id: notification.isRead = false
    case .markAllAsRead(let ids) where ids?.contains(notification.id) ?? true:
      notification.isRead = true
    case .delete, .deleteAll: if deletes(notification) { return nil }
    default: break
    }
    return notification
  }

  /// Whether the change deletes `notification` on the backend. Local notices are never on it.
  func deletes(_ notification: NotificationData) -> Bool {
    switch self {
    case .delete(let id): id == notification.id
    case .deleteAll(let bound): !notification.isLocal && (bound?.covers(notification) ?? true)
    case .markAsRead, .markAsUnread, .markAllAsRead: false
    }
  }
}
