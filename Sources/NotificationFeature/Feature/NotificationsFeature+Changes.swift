import Foundation
import Loom

extension NotificationsFeature {
  func setRead(_ id: String, _ isRead: Bool, in state: inout State) -> Effect<Action> {
    guard let notification = state.notifications[id: id] else {
      return show(.notFound, in: &state)
    }
    guard notification.isRead != isRead else { return .none }
    state.notifications[id: id]?.isRead = isRead
    if notification.isLocal { return .none }
    return perform(
      .setRead(id: id, isRead: isRead, previous: notification.isRead), in: &state
    ) { [client] in
      if isRead { try await client.markAsRead(id) } else { try await client.markAsUnread(id) }
    }
  }

  /// Remembers an optimistic change and runs the call that confirms it.
  func perform(
    _ change: PendingChange, in state: inout State,
    _ call: @escaping @Sendable () async throws -> Void
  ) -> Effect<Action> {
    let changeID = uuid()
    state.pendingChanges[changeID] = change
    // A newer change to the same notifications replaces what is still queued for them. A
    // queued clear-all is replaced only by another: a change to one notification does not
    // undo it.
    let touched = Set(change.ids)
    let replaced = state.outbox.filter { entry in
      if case .clearAll = change { return true }
      return !touched.isDisjoint(with: entry.ids)
    }
    if !replaced.isEmpty {
      state.outbox.removeAll { replaced.contains($0) }
      state.superseded[changeID] = replaced
      // A queued mark-all is replaced only for the notifications the newer change touches:
      // the others are still owed to the backend, and undone alone if they fail for good.
      for case .markAllAsRead(let ids) in replaced where change.outboxEntry != .deleteAll {
        let rest = ids.filter { !touched.contains($0) }
        guard !rest.isEmpty else { continue }
        state.outbox.enqueue(.markAllAsRead(rest))
        state.outboxRollbacks[.markAllAsRead(rest)] = .markAll(ids: rest)
      }
    }
    return .run { send in
      do {
        try await call()
        await send(.changeSucceeded(changeID))
      } catch {
        await send(.changeFailed(changeID, UserFacingError(error)))
      }
    }
  }

  /// Undoes exactly `change`, leaving alone anything changed again since.
  func rollBack(_ change: PendingChange, in state: inout State) {
    let touchedLater = Set(state.pendingChanges.values.flatMap(\.ids))
    switch change {
    case .setRead(let id, let isRead, let previous):
      guard !touchedLater.contains(id), state.notifications[id: id]?.isRead == isRead else {
        return
      }
      state.notifications[id: id]?.isRead = previous
    case .markAll(let ids):
      for id in ids where !touchedLater.contains(id) && state.notifications[id: id]?.isRead == true {
        state.notifications[id: id]?.isRead = false
      }
    case .delete(let notification, _):
      guard !state.notifications.contains(id: notification.id) else { return }
      // Back in its place by time: the index it had may have shifted since (a newer
      // notification listed meanwhile), and newest-first order is the list's invariant.
      let index =
        state.notifications.firstIndex { NotificationData.isOrderedBefore(notification, $0) }
        ?? state.notifications.count
      state.notifications.insert(notification, at: index)
    case .clearAll(let notifications, let unreadNotLoaded):
      for notification in notifications where !state.notifications.contains(id: notification.id) {
        upsert(notification, into: &state)
      }
      if let unreadNotLoaded { state.unreadNotLoaded = unreadNotLoaded }
    }
  }

  /// Inserts or replaces a notification, keeping newest-first order and ids unique, and
  /// keeping any change still pending for it.
  ///
  /// - Returns: Whether the notification is listed: `false` when a pending or queued change
  ///   deletes it.
  @discardableResult
  func upsert(_ incoming: NotificationData, into state: inout State) -> Bool {
    guard let notification = withPendingChanges(incoming, in: state) else { return false }
    if let existing = state.notifications[id: notification.id] {
      if existing.timestamp == notification.timestamp {
        state.notifications[id: notification.id] = notification
        return true
      }
      state.notifications.remove(id: notification.id)
    }
    let index =
      state.notifications.firstIndex { NotificationData.isOrderedBefore(notification, $0) }
      ?? state.notifications.count
    state.notifications.insert(notification, at: index)
    return true
  }

  /// The notification with the changes still pending or queued for it applied, or `nil` when
  /// one of them deletes it.
  func withPendingChanges(_ incoming: NotificationData, in state: State) -> NotificationData? {
    var notification = incoming
    for change in state.pendingChanges.values {
      switch change {
      case .setRead(let id, let isRead, _) where id == notification.id:
        notification.isRead = isRead
      case .markAll(let ids) where ids.contains(notification.id):
        notification.isRead = true
      case .delete(let deleted, _) where deleted.id == notification.id:
        return nil
      case .clearAll(let cleared, _) where cleared.contains(where: { $0.id == notification.id }):
        return nil
      default:
        break
      }
    }
    for entry in state.outbox {
      switch entry {
      case .markAsRead(let id) where id == notification.id: notification.isRead = true
      case .markAsUnread(let id) where id == notification.id: notification.isRead = false
      case .markAllAsRead(let ids) where ids.contains(notification.id): notification.isRead = true
      case .delete(let id) where id == notification.id: return nil
      case .deleteAll: return nil
      default: break
      }
    }
    return notification
  }

  /// Applies a change the backend reports, adding to `readHere` the pushes the person read
  /// before the backend listed them (see ``list(fromBackend:into:readHere:)``).
  func apply(_ event: NotificationEvent, to state: inout State, readHere: inout [String]) {
    if let cursor = event.cursor { state.newestCursor = cursor }
    switch event.change {
    case .inserted(let notification):
      list(fromBackend: notification, into: &state, readHere: &readHere)
    case .updated(let notification):
      countUpdateOfNotLoaded(notification, in: &state)
      list(fromBackend: notification, into: &state, readHere: &readHere)
    case .deleted(let id):
      state.notifications.remove(id: id)
      state.unlistedPushIDs.remove(id)
      state.deletedIDs.insert(id)
    case .snapshot(let notifications):
      // The whole feed: nothing is left unloaded.
      if state.unreadNotLoaded != nil { state.unreadNotLoaded = 0 }
      replaceWithBackendFeed(notifications, in: &state, readHere: &readHere)
    }
  }

  func show(_ error: UserFacingError, in state: inout State) -> Effect<Action> {
    state.error = error
    return .send(.delegate(.errorOccurred(error)))
  }

  // MARK: Outbox

  func scheduleOutboxRetry(attempt: Int) -> Effect<Action> {
    let delay = backoff(attempt: attempt)
    return .run { [clock] send in
      try await clock.sleep(for: delay)
      await send(.retryOutbox(attempt: attempt))
    }
    .cancellable(id: CancelID.outbox, cancelInFlight: true)
  }

  /// Forgets what is kept about a queued entry: how to undo it and how often it failed.
  func forget(_ entry: OutboxEntry, in state: inout State) {
    state.outboxRollbacks.removeValue(forKey: entry)
    state.outboxFailures.removeValue(forKey: entry)
  }

  /// Writes the outbox with its rollbacks and failure counts, unless a write is in flight: then
  /// `outboxSaved` writes the latest outbox once it finishes, so the last write is the latest.
  func saveOutbox(_ state: inout State) -> Effect<Action> {
    guard state.outboxBeingSaved == nil else { return .none }
    let saved = Self.savedOutbox(state)
    state.outboxBeingSaved = saved
    return .run { [settings] send in
      try? await settings.save(saved, forKey: SettingsKey.outbox)
      await send(.outboxSaved)
    }
  }

  static func savedOutbox(_ state: State) -> SavedOutbox {
    let queued = Set(state.outbox)
    return SavedOutbox(
      entries: state.outbox,
      rollbacks: state.outboxRollbacks.filter { queued.contains($0.key) },
      failures: state.outboxFailures.filter { queued.contains($0.key) })
  }

  /// Loads the outbox a previous launch saved (or, from an older version, its entries alone).
  func loadOutbox() -> Effect<Action> {
    .run { [settings] send in
      guard let data = try await settings.loadData(SettingsKey.outbox) else { return }
      let decoder = JSONDecoder()
      let saved =
        (try? decoder.decode(SavedOutbox.self, from: data))
        ?? (try? decoder.decode([OutboxEntry].self, from: data)).map { SavedOutbox(entries: $0) }
      if let saved, !saved.entries.isEmpty { await send(.outboxRestored(saved)) }
    } catch: { _, _ in }
  }

  static func send(_ entry: OutboxEntry, with client: NotificationClient) async throws {
    switch entry {
    case .markAsRead(let id): try await client.markAsRead(id)
    case .markAsUnread(let id): try await client.markAsUnread(id)
    case .markAllAsRead(let ids): try await client.markAllAsRead(ids)
    case .delete(let id): try await client.delete(id)
    case .deleteAll: try await client.deleteAll()
    }
  }
}

extension UserFacingError {
/// Maps any error to a user-facing one: user-facing errors as they are, cancellation and
  /// everything else as a failed operation.
  public init(_ error: any Error) {
    if let error = error as? UserFacingError {
      self = error
    } else {
      self = .operationFailed(message: "Something went wrong: \(error)")
    }
  }
}

extension UserFacingError {
  /// A queued change that kept failing and was given up: it has been undone.
  public static let outboxGaveUp = UserFacingError.operationFailed(
    message: "A change could not be sent after several tries and was undone.")
}

extension NotificationsFeature.OutboxEntry {
  /// The notification ids the entry touches (none for delete-all, which touches everything).
  var ids: [String] {
    switch self {
    case .markAsRead(let id), .markAsUnread(let id), .delete(let id): [id]
    case .markAllAsRead(let ids): ids
    case .deleteAll: []
    }
  }
}

