import Foundation
import Loom

extension NotificationsFeature {
  func setRead(_ id: String, _ isRead: Bool, in state: inout State) -> Effect<Action> {
    if !isRead, state.targetFetchesInFlight > 0 {
      state.markedUnreadWhileOpening[id] = state.targetFetchesStarted
    }
    guard let notification = state.notifications[id: id] else {
      // Not loaded (or unknown): the backend changes it, or says it does not exist.
      guard !state.deletedIDs.contains(id) else { return show(.notFound, in: &state) }
      return perform(
        .setRead(id: id, isRead: isRead, previous: !isRead),
        sending: isRead ? .markAsRead(id) : .markAsUnread(id), in: &state)
    }
    guard notification.isRead != isRead else { return .none }
    state.notifications[id: id]?.isRead = isRead
    // A push the feed has not listed is changed here (and saved); the backend is told once its
    // feed lists it (see `list(fromBackend:into:owed:)`).
    if notification.isLocal || state.unlistedPushIDs.contains(id) { return .none }
    return perform(
      .setRead(id: id, isRead: isRead, previous: notification.isRead),
      sending: isRead ? .markAsRead(id) : .markAsUnread(id), in: &state)
  }

  /// Marks the listed notifications `ids` read at once, and the backend's with one mark-all.
  /// Local notices and pushes the feed has not listed are changed here only (and saved): the
  /// backend is told about such a push once its feed lists it, so a mark-all still pending
  /// must not change it when that happens (the person may have marked it unread since).
  func markRead(_ ids: [String], in state: inout State) -> Effect<Action> {
    guard !ids.isEmpty else { return .none }
    for id in ids { state.notifications[id: id]?.isRead = true }
    let remoteIDs = ids.filter {
      state.notifications[id: $0]?.isLocal == false && !state.unlistedPushIDs.contains($0)
    }
    guard !remoteIDs.isEmpty else { return .none }
    return perform(.markAll(ids: remoteIDs), sending: .markAllAsRead(remoteIDs), in: &state)
  }

  /// Marks read the unread notifications about `entity` the list has loaded, at once, and
  /// fetches those on pages it has not loaded, unless the backend's unread total says there
  /// are none.
  func openTarget(_ entity: Entity, in state: inout State) -> Effect<Action> {
    let ids = state.notifications.compactMap { notification in
      !notification.isRead && entity.matches(notification.target) ? notification.id : nil
    }
    let marked = markRead(ids, in: &state)
    let everyPageLoaded = state.hasLoadedOnce && !state.hasMore
    guard !everyPageLoaded, state.unreadNotLoaded != 0 else { return marked }
    state.targetFetchesInFlight += 1
    state.targetFetchesStarted += 1
    let number = state.targetFetchesStarted
    let fetch = Effect<Action>.run { [client] send in
      await send(.targetUnreadLoaded(entity, try await client.fetchUnread(entity), fetch: number))
    } catch: { error, send in
      await send(.targetUnreadFailed(entity, UserFacingError(error)))
    }
    return .merge(marked, fetch)
  }

  /// Lists the unread notifications about `entity` the backend sent that the list does not
  /// have (as a page's would be, counted out of the unread ones not loaded), and marks read
  /// those still unread, except the ones the person marked unread since fetch number `fetch`
  /// started, when the entity was opened.
  ///
  /// A notification the list has is not listed again: the backend's copy may predate a
  /// change made here since.
  func markFetchedTargetRead(
    _ entity: Entity, _ unread: [NotificationData], fetch: Int, in state: inout State
  ) -> Effect<Action> {
    var owed = OwedToBackend()
    for notification in unread where !state.notifications.contains(id: notification.id) {
      countLoading(notification, in: &state)
      list(fromBackend: notification, into: &state, owed: &owed)
    }
    let ids = unread.compactMap { fetched in
      state.notifications[id: fetched.id].flatMap { listed in
        !listed.isRead && entity.matches(listed.target)
          && state.markedUnreadWhileOpening[listed.id].map { $0 < fetch } ?? true
          ? listed.id : nil
      }
    }
    let told = tellBackend(owed, in: &state)
    return .merge(told, markRead(ids, in: &state))
  }

  func finishTargetFetch(in state: inout State) {
    state.targetFetchesInFlight = max(0, state.targetFetchesInFlight - 1)
    if state.targetFetchesInFlight == 0 { state.markedUnreadWhileOpening = [:] }
  }

  /// Hands an optimistic change, already applied to the list, to the sync engine, which runs
  /// `request` to confirm it (see ``NotificationSyncEngine``).
  func perform(
    _ change: PendingChange, sending request: OutboxEntry, in state: inout State
  ) -> Effect<Action> {
    NotificationSyncEngine().perform(change, sending: request, in: &state.sync).map(Action.sync)
  }

  /// Undoes exactly `change`, leaving alone anything changed again since.
  func rollBack(_ change: PendingChange, in state: inout State) {
    let touchedLater = state.sync.idsTouchedByPendingChanges
    switch change {
    case .setRead(let id, let isRead, let previous):
      guard !touchedLater.contains(id), state.notifications[id: id]?.isRead == isRead else {
        return
      }
      state.notifications[id: id]?.isRead = previous
    case .markAll(let ids):
      for id in ids where !touchedLater.contains(id) && state.notifications[id: id]?.isRead == true
      {
        state.notifications[id: id]?.isRead = false
      }
    case .delete(let notification, _):
      // Not deleted after all: pages list it again.
      state.deletedIDs.remove(notification.id)
      guard !state.notifications.contains(id: notification.id) else { return }
      // Back in its place by time: the index it had may have shifted since (a newer
      // notification listed meanwhile), and newest-first order is the list's invariant.
      let index = state.notifications.insertionIndex(for: notification)
      state.notifications.insert(notification, at: index)
    case .deleteNotLoaded(let id):
      state.deletedIDs.remove(id)
    case .clearAll(let notifications, let unreadNotLoaded):
      for notification in notifications { state.deletedIDs.remove(notification.id) }
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
    guard let notification = state.sync.applyingPendingChanges(to: incoming) else { return false }
    if let existing = state.notifications[id: notification.id] {
      if existing.timestamp == notification.timestamp {
        state.notifications[id: notification.id] = notification
        return true
      }
      state.notifications.remove(id: notification.id)
    }
    let index = state.notifications.insertionIndex(for: notification)
    state.notifications.insert(notification, at: index)
    return true
  }

  /// Gives the notifications a confirmed change names the version the backend answered it with
  /// (see `NotificationClient.apply`), unless one has a newer version already: a page or an
  /// event the backend made before the change, arriving after its answer, is older than what
  /// is listed, and does not undo it.
  ///
  /// A notification listed with a newer version than the answer was changed on the backend
  /// after the person's change (another device's change, heard while the person's was on its
  /// way): what is listed is that newer copy with the person's older choice applied over it,
  /// so it is fetched again, and the backend's copy listed.
  func recordAnswer(to action: Action, in state: inout State) -> Effect<Action> {
    let intent: ChangeIntent?
    let cursor: ChangeCursor
    switch action {
    case .sync(.changeSucceeded(let changeID, let answer?)):
      intent = state.sync.pendingChanges[changeID]?.outboxEntry
      cursor = answer
    case .sync(.outboxEntrySent(let entry, let answer?)):
      intent = entry
      cursor = answer
    default:
      return .none
    }
    var changedSince: [String] = []
    for id in intent?.ids ?? [] {
      guard let listed = state.notifications[id: id] else { continue }
      if listed.version ?? .zero < cursor {
        state.notifications[id: id]?.version = cursor
      } else if listed.version ?? .zero > cursor {
        changedSince.append(id)
      }
    }
    guard !changedSince.isEmpty else { return .none }
    return .run { [client] send in
      for id in changedSince {
        // Gone meanwhile: its deletion is on its way too.
        guard let notification = try? await client.fetchNotification(id) else { continue }
        await send(.notificationLoaded(notification, thenTap: false))
      }
    }
  }

  /// Applies a change the backend reports, adding to `owed` what the person did to pushes
  /// before the backend listed them (see ``list(fromBackend:into:owed:)``).
  func apply(_ event: NotificationEvent, to state: inout State, owed: inout OwedToBackend) {
    if let cursor = event.cursor {
      // A replayed change the list has already (a first page read after it, or applied before):
      // applying it again would undo what came after it.
      if event.isReplay(upTo: state.newestCursor) { return }
      state.newestCursor = cursor
    }
    switch event.change {
    case .inserted(let notification):
      list(fromBackend: notification, into: &state, owed: &owed)
    case .updated(let notification):
      countUpdateOfNotLoaded(notification, in: &state)
      list(fromBackend: notification, into: &state, owed: &owed)
    case .deleted(let id):
      state.notifications.remove(id: id)
      state.unlistedPushIDs.remove(id)
      state.deletedIDs.insert(id)
    case .snapshot(let notifications):
      // The whole feed: nothing is left unloaded.
      if state.unreadNotLoaded != nil { state.unreadNotLoaded = 0 }
      replaceWithBackendFeed(
        notifications, reflecting: event.cursor, in: &state, owed: &owed)
    }
  }

  func show(_ error: UserFacingError, in state: inout State) -> Effect<Action> {
    state.error = error
    return .send(.delegate(.errorOccurred(error)))
  }
}
