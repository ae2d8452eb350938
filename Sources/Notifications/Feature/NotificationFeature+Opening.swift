import Foundation
import Loom

/// Pushes, taps and opened entities: what the person opens, and what is announced.
extension NotificationFeature {
  /// Parses a push payload and keeps it as a push the server has not listed, unless the server
  /// lists it already; a tap opens it, and a push in the foreground is announced (once the
  /// launch knows the muted types).
  func receivePush(_ payload: Data, tapped: Bool, in state: inout State) -> Effect<Action> {
    let push: NotificationData
    do {
      push = try PushPayloadParser.parse(payload, receivedAt: date.now)
    } catch {
      state.lastPushParseError = error
      return .send(.delegate(.pushParseFailed(error)))
    }
    state.lastPushParseError = nil
    let wasShown = state.shown.contains(id: push.id)
    // The server lists it already (a duplicate delivery, or a late one): its copy is newer. Or
    // the server deleted it (delivered again after the deletion): the deletion holds.
    var lookUp = Effect<Action>.none
    if !state.server.notifications.contains(id: push.id), state.server.deletions[push.id] == nil,
      state.log.receive(push, at: date.now)
    {
      state.reshow([push.id])
      // The server is asked for it: it may list it already, or have deleted it (a push
      // delivered again after a relaunch that forgot the person's deletion), and then the
      // deletion holds. Before the launch is ready, its first page looks pushes up; a tap's
      // change looks it up.
      if state.launch == .ready, !tapped { lookUp = lookUpPushes([push.id], in: state) }
    }
    if tapped { return tap(push.id, in: &state) }
    // Announced once: not when it was shown already (a duplicate delivery, or a notification
    // the server listed first), nor when it is not shown (the person deleted it).
    guard !wasShown, let shown = state.shown[id: push.id], state.isInForeground else {
      return lookUp
    }
    if state.launch.arrived != nil {
      state.launch.arrived?.banners.append(shown)
      return lookUp
    }
    guard let options = bannerOptions(for: shown, in: state) else { return lookUp }
    return .merge(.send(.delegate(.presentBanner(shown, options))), lookUp)
  }

  /// Silent notifications are never announced; muted types are not, unless the notification
  /// is high priority and not a system notification.
  func bannerOptions(for notification: NotificationData, in state: State) -> BannerOptions? {
    let isMuted = state.preferences.muted.contains(notification.type)
    switch notification.priority {
    case .silent: return nil
    case .regular: return isMuted ? nil : [.banner, .sound, .badge]
    case .high: return isMuted && notification.type == .system ? nil : [.banner, .sound, .badge]
    }
  }

  /// Marks a notification read and navigates to its screen, or says in state why it cannot. One
  /// that is not shown is fetched, then tapped.
  func tap(_ id: String, in state: inout State) -> Effect<Action> {
    guard let notification = state.shown[id: id] else {
      return fetchNotification(id, thenTap: true)
    }
    let markRead = notification.isRead ? .none : record(.markAsRead(id), in: &state)
    guard let navigation = Self.navigation(for: notification.target) else {
      state.lastTap = .nothingToOpen(id: id)
      return markRead
    }
    state.lastTap = .navigated(id: id)
    return .merge(markRead, .send(.delegate(navigation)))
  }

  static func navigation(for target: NotificationTarget) -> Action.Delegate? {
    switch target {
    case .none: nil
    case .contact(let contactID): .navigateToContact(contactID: contactID)
    case .alert(let alertID): .navigateToAlert(alertID: alertID)
    case .ping(let pingID, let contactID): .navigateToPing(pingID: pingID, contactID: contactID)
    }
  }

  /// Fetches a notification that is not shown.
  func fetchNotification(_ id: String, thenTap: Bool) -> Effect<Action> {
    .run { [client] send in
      await send(.notificationLoaded(try await client.fetchNotification(id), thenTap: thenTap))
    } catch: { error, send in
      await send(.notificationLoadFailed(id: id, UserFacingError(error), thenTap: thenTap))
    }
  }

  /// Marks read the unread notifications about `entity` that are shown, at once, and fetches
  /// those the server has beyond what is held, unless it says there are none.
  func openTarget(_ entity: Entity, in state: inout State) -> Effect<Action> {
    let ids = state.shown.compactMap { notification in
      !notification.isRead && entity.matches(notification.target) ? notification.id : nil
    }
    // Where the server was at the opening: the feed's cursor, or an answer's when newer (a
    // change of the person's answered before its event arrived was made before the opening).
    let cursor = [state.server.cursor, state.log.newestAcknowledgement].compactMap { $0 }.max()
    let marked = ids.isEmpty ? .none : record(.markAllAsRead(ids), in: &state)
    let everythingHeld =
      state.server.listing != nil && !state.paging.hasMore && !state.paging.isLoading
    guard !everythingHeld, state.server.unreadNotHeld?.count != 0 else { return marked }
    let after = state.log.records.last?.id
    // Before what was saved is read, the server's copies would be shown without the saved
    // changes on them: they are asked for once it is.
    guard state.launch.arrived == nil else {
      state.launch.arrived?.targetsOpened.append(TargetOpening(entity, after: after))
      return marked
    }
    return .merge(marked, fetchUnread(entity, cursor: cursor, after: after))
  }

  /// Asks the server for the unread notifications about `entity`, opened at `cursor` after the
  /// record `after`.
  func fetchUnread(_ entity: Entity, cursor: ChangeCursor?, after: UUID?) -> Effect<Action> {
    .run { [client] send in
      let unread = try await client.fetchUnread(entity)
      await send(.targetUnreadLoaded(entity, unread, cursor: cursor, after: after))
    } catch: { error, send in
      await send(.targetUnreadFailed(entity, UserFacingError(error)))
    }
  }

  /// Holds the unread notifications about `entity` the server sent, and marks read those
  /// still unread, except those changed since the entity was opened: a copy newer than the
  /// server's `cursor` then (the feed's, or the newest answer's: another device changed it
  /// since, or the person's change reached the server since), or one a change of the person's
  /// newer than the record `after` touches (they marked it unread since, say). When `after` has
  /// left the log, every change is taken as newer: a notification left unread is better than
  /// the person's choice undone.
  func markFetchedTargetRead(
    _ entity: Entity, _ unread: [NotificationData], cursor: ChangeCursor?, after: UUID?,
    in state: inout State
  ) -> Effect<Action> {
    var held: [String] = []
    for copy in unread where state.server.fetched(copy) { held.append(copy.id) }
    state.log.serverListed(held)
    state.reshow(held)
    let records = state.log.records
    let newer = after.flatMap { records.index(id: $0) }.map { records[($0 + 1)...] } ?? records[...]
    let ids = unread.compactMap { fetched -> String? in
      guard let shown = state.shown[id: fetched.id], !shown.isRead, entity.matches(shown.target)
      else { return nil }
      if let cursor, let version = state.server.notifications[id: fetched.id]?.version,
        version > cursor
      {
        return nil
      }
      if newer.contains(where: { !$0.touchesEverything && $0.touches(fetched.id) }) { return nil }
      return fetched.id
    }
    return ids.isEmpty ? .none : record(.markAllAsRead(ids), in: &state)
  }
}
