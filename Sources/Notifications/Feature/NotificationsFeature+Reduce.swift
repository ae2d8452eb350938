import Foundation
import Loom

extension NotificationsFeature {
  func reduceCore(into state: inout State, action: Action) -> Effect<Action> {
    let effect = reduceAction(into: &state, action: action)
    // The changes confirmed while a page (or an opened entity's unread notifications) loads are
    // applied to it (it may have been read before the backend applied them); once nothing
    // loads, they are forgotten.
    if !state.isLoading && state.targetFetchesInFlight == 0
      && !state.sync.confirmedWhileLoading.isEmpty
    {
      state.sync.confirmedWhileLoading = []
    }
    return effect
  }

  func reduceAction(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      var effects: [Effect<Action>] = [listenForResponses()]
      if state.hasLoadedOnce {
        effects.append(startUpdates(&state, attempt: 0))
      } else {
        // The live stream opens once the first page says which change it reflects, from
        // there: opened before, it would start from the moment it opened, and a change made
        // between the page and that moment would be missed.
        state.connection = .connecting
        state.isLoading = true
        state.isLoadingPreferences = true
        effects.append(loadSettings())
        effects.append(NotificationSyncEngine().loadOutbox().map(Action.sync))
        // The saved pushes first, so the first page keeps them; then what a cache on the device
        // holds, shown at once; then the backend's first page, which replaces it.
        let first = PageRequest(limit: Self.pageSize)
        effects.append(
          .concatenate(
            loadSavedPushes(), loadCachedPage(first), fetchPage(first, replacing: true)))
      }
      return .merge(effects)

    case .onDisappear:
      state.connection = .offline
      return .merge(.cancel(id: CancelID.updates), .cancel(id: CancelID.reconnect))

    case .refreshRequested:
      state.isLoading = true
      // A page loaded for the feed before the refresh would be stale: it is never applied.
      return .merge(
        .cancel(id: CancelID.loadMore),
        fetchPage(PageRequest(limit: Self.pageSize), replacing: true),
        state.sync.outbox.isEmpty ? .none : .send(.sync(.retryOutbox(attempt: 0))))

    case .loadMoreRequested:
      guard state.hasMore, !state.isLoading else { return .none }
      state.isLoading = true
      // Without a cursor (a cached page had none), the next page starts after the oldest
      // notification the backend listed: a cursor names it.
      let request = PageRequest(
        limit: Self.pageSize, cursor: state.nextCursor ?? Self.oldestListedByBackend(state))
      return fetchPage(request, replacing: false).cancellable(id: CancelID.loadMore)

    case .pageLoaded(let page, let replacing):
      let wasLoaded = state.hasLoadedOnce
      state.isLoading = false
      state.hasLoadedOnce = true
      state.hasMore = page.hasMore
      state.nextCursor = page.nextCursor
      var owed = OwedToBackend()
      var follow = Effect<Action>.none
      if replacing {
        // The list is the page now: the next catch-up starts after the change it reflects.
        if let cursor = page.changeCursor { state.newestCursor = cursor }
        // The launch's first page: the live stream opens from its cursor (see `onAppear`).
        if !wasLoaded, state.connection != .offline { follow = startUpdates(&state, attempt: 0) }
        state.unreadNotLoaded = unreadNotLoaded(besides: page, in: state)
        replaceWithBackendFeed(
          page.items, reflecting: page.changeCursor, in: &state, owed: &owed)
      } else {
        for notification in page.items {
          countLoading(notification, in: &state)
          list(fromBackend: notification, into: &state, owed: &owed)
        }
      }
      return .merge(tellBackend(owed, in: &state), follow)

    case .pageFailed(let error):
      state.isLoading = false
      // The launch's first page failed: the live stream opens from now (a later first page
      // opens it again from its cursor).
      let follow =
        !state.hasLoadedOnce && state.connection == .connecting
        ? startUpdates(&state, attempt: 0) : .none
      return .merge(show(error, in: &state), follow)

    case .cachedPageLoaded(let page):
      // Stale once the backend has answered; until then it is the list, still loading.
      guard !state.hasLoadedOnce else { return .none }
      state.unreadNotLoaded = unreadNotLoaded(besides: page, in: state)
      // Pushes the backend's feed has not listed, or that the person deleted, stay as they are:
      // only the backend's own page settles them (and tells it what the person did to them).
      var owed = OwedToBackend()
      let cached = page.items.filter {
        !state.unlistedPushIDs.contains($0.id) && !state.deletedPushIDs.contains($0.id)
          && !state.deletedIDs.contains($0.id)
      }
      replaceWithBackendFeed(cached, reflecting: page.changeCursor, in: &state, owed: &owed)
      return .none

    case .savedFilterLoaded(let saved):
      if let saved {
        state.filter = saved.filter
        state.unreadOnly = saved.unreadOnly
      }
      return .none

    case .updatesConnected:
      state.connection = .live
      return .none

    case .liveEvent(let event):
      var owed = OwedToBackend()
      apply(event, to: &state, owed: &owed)
      return tellBackend(owed, in: &state)

    case .caughtUp(let events):
      var owed = OwedToBackend()
      for event in Self.notYetApplied(events, in: state) { apply(event, to: &state, owed: &owed) }
      return .merge(
        tellBackend(owed, in: &state),
        state.sync.outbox.isEmpty ? .none : .send(.sync(.retryOutbox(attempt: 0))))

    case .updatesFailed(let error, let attempt):
      // A connection that was live was healthy: its drop starts the backoff again from zero,
      // so only attempts that never connect count towards giving up.
      let attempt = state.connection == .live ? 0 : attempt
      guard attempt < Self.maximumReconnectAttempts, error.isRetryable else {
        state.connection = .offline
        return .none
      }
      state.connection = .reconnecting(attempt: attempt + 1)
      let delay = backoff(attempt: attempt)
      return .run { [clock] send in
        try await clock.sleep(for: delay)
        await send(.reconnect(attempt: attempt + 1))
      }
      .cancellable(id: CancelID.reconnect, cancelInFlight: true)

    case .reconnect(let attempt):
      return startUpdates(&state, attempt: attempt)

    case .filterChanged(let filter):
      state.filter = filter
      return saveFilter(&state)

    case .unreadOnlyChanged(let unreadOnly):
      state.unreadOnly = unreadOnly
      return saveFilter(&state)

    case .filterSaved:
      guard let written = state.filterBeingSaved else { return .none }
      state.filterBeingSaved = nil
      // A choice made while the write was in flight is written now.
      return written == Self.filterChoice(state) ? .none : saveFilter(&state)

    case .markAsRead(let id):
      return setRead(id, true, in: &state)

    case .markAsUnread(let id):
      return setRead(id, false, in: &state)

    case .markAllAsRead:
      let ids = state.notifications.compactMap { $0.isRead ? nil : $0.id }
      return markRead(ids, in: &state)

    case .delete(let id):
      guard let index = state.notifications.index(id: id) else {
        // Not loaded (or unknown): the backend deletes it, or says it does not exist.
        guard state.deletedIDs.insert(id).inserted else { return show(.notFound, in: &state) }
        return perform(.deleteNotLoaded(id: id), sending: .delete(id), in: &state)
      }
      let notification = state.notifications.remove(at: index)
      if notification.isLocal {
        state.localNoticeIDs.remove(id)
        return .none
      }
      // A push the feed has not listed is deleted here; the backend, once its feed lists it.
      if state.unlistedPushIDs.contains(id) {
        deleteUnlistedPush(id, in: &state)
        return .none
      }
      state.deletedIDs.insert(id)
      return perform(.delete(notification, index: index), sending: .delete(id), in: &state)

    case .clearAll:
      // The backend deletes what the person cleared: the listed notifications and the ones not
      // loaded, which are older; not those that arrive afterwards (see `FeedPosition`).
      let removed = state.notifications.elements
      let notLoaded = state.unreadNotLoaded
      guard !removed.isEmpty || (notLoaded ?? 0) > 0 else { return .none }
      state.notifications.removeAll()
      if notLoaded != nil { state.unreadNotLoaded = 0 }
      for notification in removed where !notification.isLocal {
        state.deletedIDs.insert(notification.id)
      }
      let change = PendingChange.clearAll(removed, unreadNotLoaded: notLoaded)
      // Local notices alone are the device's: nothing to delete on the backend.
      if removed.allSatisfy(\.isLocal), (notLoaded ?? 0) == 0 { return .none }
      return perform(change, sending: change.outboxEntry, in: &state)

    case .sync(.delegate(.rollBack(let change, let error))):
      if let change { rollBack(change, in: &state) }
      return show(error, in: &state)

    case .sync:
      return .none

    case .savedPushesRestored(let saved):
      var owed = OwedToBackend()
      restore(saved, in: &state, owed: &owed)
      return tellBackend(owed, in: &state)

    case .pushesSaved:
      guard let written = state.pushesBeingSaved else { return .none }
      state.pushesBeingSaved = nil
      // Pushes changed while the write was in flight are written now.
      return written == Self.savedPushes(state) ? .none : savePushes(&state)

    case .recordLocalNotice(let title, let message):
      // A local notice confirms something the person just did: it is silent, already read (it
      // never adds to the unread count), kept on the device and never sent to the backend.
      let notice = NotificationData(
        id: "local-\(uuid().uuidString.lowercased())", type: .system,
        title: PushPayloadParser.clean(title, limit: 120),
        message: PushPayloadParser.clean(message, limit: 1_000), timestamp: date.now,
        isRead: true, priority: .silent, isLocal: true)
      upsert(notice, into: &state)
      state.localNoticeIDs.insert(notice.id)
      return .none

    case .markTargetRead(let entity):
      return openTarget(entity, in: &state)

    case .targetUnreadLoaded(let entity, let unread, let fetch):
      let marked = markFetchedTargetRead(entity, unread, fetch: fetch, in: &state)
      finishTargetFetch(in: &state)
      return marked

    case .targetUnreadFailed(_, let error):
      finishTargetFetch(in: &state)
      return show(error, in: &state)

    case .notificationTapped(let id):
      return tap(id, in: &state)

    case .loadNotification(let id):
      guard state.notifications[id: id] == nil else { return .none }
      guard !state.deletedIDs.contains(id) else { return show(.notFound, in: &state) }
      return fetchNotification(id, thenTap: false)

    case .notificationLoaded(let notification, let thenTap):
      // A notification of the backend's feed, loaded out of page order: counted and listed as
      // a page's would be.
      var owed = OwedToBackend()
      countLoading(notification, in: &state)
      list(fromBackend: notification, into: &state, owed: &owed)
      let told = tellBackend(owed, in: &state)
      guard thenTap else { return told }
      // Not listed after all (deleted meanwhile): not tapped, and not fetched again.
      guard state.notifications[id: notification.id] != nil else {
        state.lastTap = .notFound(id: notification.id)
        return told
      }
      return .merge(told, tap(notification.id, in: &state))

    case .notificationLoadFailed(let id, let error, let thenTap):
      if thenTap, error == .notFound {
        state.lastTap = .notFound(id: id)
        return .none
      }
      return show(error, in: &state)

    case .notificationResponse(let payload):
      return receivePush(payload, in: &state, tapped: true)

    case .pushReceived(let payload):
      return receivePush(payload, in: &state, tapped: false)

    case .foregroundChanged(let isInForeground):
      state.isInForeground = isInForeground
      return .none

    case .dismissError:
      state.error = nil
      return .none

    case .setPreferencesPresented(let isPresented):
      state.isPreferencesPresented = isPresented
      return isPresented ? .send(.preferences(.onAppear)) : .none

    case .preferences(.mutedLoaded):
      state.isLoadingPreferences = false
      let held = state.heldBanners
      state.heldBanners = []
      guard state.isInForeground else { return .none }
      return .merge(
        held.compactMap { notification in
          bannerOptions(for: notification, in: state).map {
            .send(.delegate(.presentBanner(notification, $0)))
          }
        })

    case .preferences:
      return .none

    case .delegate:
      return .none
    }
  }

  // MARK: Loading

  /// Reads the first page a cache on the device holds, if the client has one.
  func loadCachedPage(_ request: PageRequest) -> Effect<Action> {
    .run { [client] send in
      if let page = try await client.cachedPage(request), !page.items.isEmpty {
        await send(.cachedPageLoaded(page))
      }
    } catch: { _, _ in
      // No cache to show: the backend's page comes next.
    }
  }

  func fetchPage(_ request: PageRequest, replacing: Bool) -> Effect<Action> {
    .run { [client] send in
      await send(.pageLoaded(try await client.fetchPage(request), replacing: replacing))
    } catch: { error, send in
      await send(.pageFailed(UserFacingError(error)))
    }
  }

  /// Opens the live stream: `.updatesConnected` once it is open, then the catch-up since the
  /// newest cursor, then the live changes, until it fails. Starting it supersedes a scheduled
  /// reconnect.
  func startUpdates(_ state: inout State, attempt: Int) -> Effect<Action> {
    state.connection = attempt == 0 ? .connecting : .reconnecting(attempt: attempt)
    let cursor = state.newestCursor
    let updates = Effect<Action>.run { [client] send in
      let stream = try await client.updates(cursor)
      await send(.updatesConnected)
      // The catch-up is sent before any live change, so changes apply in the order they were
      // made. A live change the catch-up already had (the stream replays after `since`, or it
      // happened between opening the stream and the catch-up) has its cursor and is skipped.
      // A failed catch-up does not drop the connection: the stream goes on, and a backend that
      // replays after `since` has delivered what was missed anyway.
      var caughtUp: Set<ChangeCursor> = []
      if let cursor, let missed = try? await client.changesSince(cursor) {
        caughtUp = Set(missed.compactMap(\.cursor))
        await send(.caughtUp(missed))
      }
      for try await event in stream {
        if let cursor = event.cursor, caughtUp.remove(cursor) != nil { continue }
        await send(.liveEvent(event))
      }
      throw UserFacingError.network
    } catch: { error, send in
      await send(.updatesFailed(UserFacingError(error), attempt: attempt))
    }
    .cancellable(id: CancelID.updates, cancelInFlight: true)
    return .merge(.cancel(id: CancelID.reconnect), updates)
  }

  func listenForResponses() -> Effect<Action> {
    .run { [push] send in
      for await response in push.responses() {
        await send(.notificationResponse(response.payload))
      }
    }
    .cancellable(id: CancelID.responses, cancelInFlight: true)
  }

  /// Exponential backoff with jitter: 2^attempt seconds (at most 60), times 0.5 to 1.
  func backoff(attempt: Int) -> Duration {
    NotificationFeature.backoff(attempt: attempt, random: random)
  }

  /// Loads the saved filter, then the muted types, one after the other so that they arrive in
  /// that order.
  func loadSettings() -> Effect<Action> {
    .run { [settings] send in
      let saved = try? await settings.load(SavedFilter.self, forKey: SettingsKey.filter)
      await send(.savedFilterLoaded(saved))
      let muted = await NotificationPreferencesFeature.loadMuted(from: settings)
      await send(.preferences(.mutedLoaded(muted)))
    }
  }

  /// Writes the filter choice, unless a write is in flight: then `filterSaved` writes the latest
  /// choice once it finishes. Writes never overlap, so whatever order they would finish in, the
  /// last one is the last choice (cancelling an earlier write could not promise that: it may
  /// already be inside `settings.save`).
  func saveFilter(_ state: inout State) -> Effect<Action> {
    guard state.filterBeingSaved == nil else { return .none }
    let choice = Self.filterChoice(state)
    state.filterBeingSaved = choice
    return .run { [settings] send in
      try? await settings.save(choice, forKey: SettingsKey.filter)
      await send(.filterSaved)
    }
  }

  /// The changes of a catch-up after the newest cursor's, when it is among them: the catch-up
  /// was asked for from an older cursor, and a first page loaded since reflects the changes up
  /// to its cursor (or the list has applied them). Cursors are opaque, so an older cursor is
  /// one the catch-up lists before the newest.
  ///
  /// - Complexity: O(*n*) for *n* changes.
  static func notYetApplied(
    _ events: [NotificationEvent], in state: State
  ) -> ArraySlice<NotificationEvent> {
    guard let newest = state.newestCursor,
      let applied = events.lastIndex(where: { $0.cursor == newest })
    else { return events[...] }
    return events[(applied + 1)...]
  }

  /// How many listed notifications the backend listed: the offset of the next page. Pushes it
  /// has not listed yet and local notices are not in its feed.
  /// The cursor that names the oldest notification the backend listed (`PageKey`).
  static func oldestListedByBackend(_ state: State) -> String? {
    state.notifications.last {
      !$0.isLocal && !state.unlistedPushIDs.contains($0.id)
    }.map { PageKey(after: $0).cursor }
  }

  static func filterChoice(_ state: State) -> SavedFilter {
    SavedFilter(filter: state.filter, unreadOnly: state.unreadOnly)
  }
}
