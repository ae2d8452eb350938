import Foundation

extension NotificationsFeature {
  public typealias ConnectionState = NotificationFeature.ConnectionState
  public typealias Entity = NotificationFeature.Entity
  public typealias DaySection = NotificationFeature.DaySection
  public typealias TapOutcome = NotificationFeature.TapOutcome
  public typealias BannerOptions = NotificationFeature.BannerOptions
  public typealias SavedFilter = NotificationFeature.SavedFilter
  public typealias SettingsKey = NotificationFeature.SettingsKey

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
