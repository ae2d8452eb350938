import Foundation
import Loom

extension NotificationsFeature {
  /// Marks a notification read and navigates to its screen, or says in state why it cannot.
  func tap(_ id: String, in state: inout State) -> Effect<Action> {
    guard let notification = state.notifications[id: id] else {
      // Not loaded: fetched by id, then tapped (or not found).
      guard !state.deletedIDs.contains(id) else {
        state.lastTap = .notFound(id: id)
        return .none
      }
      return fetchNotification(id, thenTap: true)
    }
    let markRead = setRead(id, true, in: &state)
    guard let navigation = Self.navigation(for: notification.target) else {
      state.lastTap = .nothingToOpen(id: id)
      return markRead
    }
    state.lastTap = .navigated(id: id)
    return .merge(markRead, .send(.delegate(navigation)))
  }

  /// Fetches a notification the list has not loaded.
  func fetchNotification(_ id: String, thenTap: Bool) -> Effect<Action> {
    .run { [client] send in
      await send(.notificationLoaded(try await client.fetchNotification(id), thenTap: thenTap))
    } catch: { error, send in
      await send(.notificationLoadFailed(id: id, UserFacingError(error), thenTap: thenTap))
    }
  }

  static func navigation(for target: NotificationTarget) -> Action.Delegate? {
    switch target {
    case .none: nil
    case .contact(let contactID): .navigateToContact(contactID: contactID)
    case .alert(let alertID): .navigateToAlert(alertID: alertID)
    case .ping(let pingID, let contactID): .navigateToPing(pingID: pingID, contactID: contactID)
    }
  }

  /// Parses a push payload; lists the notification (see ``listPush(_:in:)``) and, for a tap,
  /// opens it; for a push in the foreground, asks the shell to present a banner.
  func receivePush(_ payload: Data, in state: inout State, tapped: Bool) -> Effect<Action> {
    let notification: NotificationData
    do {
      notification = try PushPayloadParser.parse(payload, receivedAt: date.now)
    } catch {
      state.lastPushParseError = error
      return .send(.delegate(.pushParseFailed(error)))
    }
    state.lastPushParseError = nil
    let isListed = listPush(notification, in: &state)
    if tapped {
      return tap(notification.id, in: &state)
    }
    guard isListed, state.isInForeground else { return .none }
    if state.isLoadingPreferences {
      // Whether its type is muted is not known yet: it is announced, or not, once it is.
      state.heldBanners.append(notification)
      return .none
    }
    guard let options = bannerOptions(for: notification, in: state) else { return .none }
    return .send(.delegate(.presentBanner(notification, options)))
  }

  /// Lists a pushed notification once, and keeps it listed until the person deletes it.
  ///
  /// - A push whose id is listed already (a duplicate delivery, or a notification the feed
  ///   has) changes nothing: not its read state, not its place, not its content.
  /// - A push for a notification the person deleted (or the backend reported deleted), or
  ///   whose deletion is still pending or queued, is not listed again.
  /// - Otherwise it is inserted in order and remembered in `unlistedPushIDs`, so a refresh
  ///   whose page does not hold it yet keeps it.
  ///
  /// - Returns: Whether the notification is listed.
  func listPush(_ notification: NotificationData, in state: inout State) -> Bool {
    if state.notifications.contains(id: notification.id) { return true }
    if state.deletedIDs.contains(notification.id) { return false }
    guard upsert(notification, into: &state) else { return false }
    state.unlistedPushIDs.insert(notification.id)
    return true
  }

  /// Lists a notification of the backend's feed (a page or a live event). When it was a push
  /// the feed had not listed yet, the two become one: the feed's copy replaces the push's,
  /// content and place, but a push the person read stays read, and its id is added to
  /// `owed.read` so the backend is told (it may not have had the notification when the person
  /// read it). A push the person deleted before the feed listed it is not listed, and is added
  /// to `owed.deleted`. A notification deleted in this run (`deletedIDs`) is not listed again,
  /// and a copy older than the one listed (by ``NotificationData/version``) changes nothing.
  func list(
    fromBackend notification: NotificationData, into state: inout State,
    owed: inout OwedToBackend
  ) {
    if isDeletedPush(notification, in: &state, owed: &owed) { return }
    // Deleted in this run (by the person, confirmed or not, or by the backend): a page or event
    // the backend made before the deletion reached it does not list it again.
    if state.deletedIDs.contains(notification.id) { return }
    // An older copy than the one listed (a page or an event the backend made before the change
    // the list shows): the list is newer. A copy without a version counts as older than any.
    if let listed = state.notifications[id: notification.id],
      notification.version ?? .zero < listed.version ?? .zero
    {
      return
    }
    let wasUnlistedPush = state.unlistedPushIDs.remove(notification.id) != nil
    guard wasUnlistedPush, state.notifications[id: notification.id]?.isRead == true,
      let listed = state.sync.applyingPendingChanges(to: notification), !listed.isRead
    else {
      var incoming = notification
      // A push read here that an earlier change of the same batch listed: the backend is about
      // to be told (`owed`), so a later change of the batch does not make it unread again.
      if !incoming.isRead, owed.read.contains(notification.id) { incoming.isRead = true }
      upsert(incoming, into: &state)
      return
    }
    var read = listed
    read.isRead = true
    upsert(read, into: &state)
    owed.read.append(notification.id)
  }

  /// Replaces the list with the backend's feed (the first page of a refresh, or a snapshot)
  /// that reflects the backend's changes up to `cursor`, keeping local notices, the pushes the
  /// feed does not list yet, and what the list learnt of changes after `cursor` (an event or
  /// an answer the backend made after the feed: a version newer than `cursor`).
  func replaceWithBackendFeed(
    _ notifications: [NotificationData], reflecting cursor: ChangeCursor?,
    in state: inout State, owed: inout OwedToBackend
  ) {
    let unlisted = state.unlistedPushIDs
    state.notifications = state.notifications.filter { listed in
      listed.isLocal || unlisted.contains(listed.id)
        || cursor.map { cursor in listed.version ?? .zero > cursor } ?? false
    }
    // A push the person deleted is forgotten once the deletion can no longer be undone.
    state.unlistedPushIDs = unlisted.filter {
      state.notifications.contains(id: $0) || state.sync.isDeletionPending($0)
    }
    for notification in notifications {
      list(fromBackend: notification, into: &state, owed: &owed)
    }
  }

  /// Tells the backend of reads made on pushes before its feed listed them, as one
  /// optimistic mark-all change (rolled back or queued like any other).
  func markReadOnBackend(_ ids: [String], in state: inout State) -> Effect<Action> {
    guard !ids.isEmpty else { return .none }
    return perform(.markAll(ids: ids), sending: .markAllAsRead(ids), in: &state)
  }

  /// Silent notifications are never announced; muted types are not, unless the notification
  /// is high priority and not a system notification.
  func bannerOptions(for notification: NotificationData, in state: State) -> BannerOptions? {
    switch notification.priority {
    case .silent:
      return nil
    case .regular:
      return state.mutedTypes.contains(notification.type) ? nil : [.banner, .sound, .badge]
    case .high:
      if state.mutedTypes.contains(notification.type), notification.type == .system { return nil }
      return [.banner, .sound, .badge]
    }
  }
}
