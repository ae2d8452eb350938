import Foundation
import Loom

extension NotificationFeature {
  func reduceAction(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      switch state.launch {
      case .notStarted:
        state.launch = .restoring()
        return .merge(restore(), listenForResponses())
      case .restoring:
        return .none
      case .ready:
        // Back on screen: the live stream opens again from the feed's cursor.
        return .merge(
          listenForResponses(),
          state.connection == .offline ? startUpdates(&state, attempt: 0) : .none)
      }

    case .onDisappear:
      state.connection = .offline
      return .merge(.cancel(id: CancelID.updates), .cancel(id: CancelID.reconnect))

    case .restored(let saved):
      guard case .restoring(let arrived) = state.launch else { return .none }
      state.log = saved.log.restoredForLaunch.merging(newer: state.log)
      return restore(saved, arrived: arrived, in: &state)

    case .restoreFailed(let error, let saved):
      // What cannot be read is left as it is (a later launch reads it again); this launch
      // goes on with what it records itself.
      guard case .restoring(let arrived) = state.launch else { return .none }
      state.error = error
      return .merge(
        .send(.delegate(.errorOccurred(error))), restore(saved, arrived: arrived, in: &state))

    case .refreshRequested:
      guard state.launch == .ready else { return .none }
      state.paging.isLoading = true
      return .merge(
        .cancel(id: CancelID.loadMore), fetchPage(PageRequest(limit: Self.pageSize), first: true))

    case .loadMoreRequested:
      guard state.launch == .ready, state.paging.hasMore, !state.paging.isLoading else {
        return .none
      }
      state.paging.isLoading = true
      return fetchPage(PageRequest(limit: Self.pageSize, cursor: state.paging.next), first: false)
        .cancellable(id: CancelID.loadMore)

    case .pageLoaded(let page, let first, let requestedAt):
      state.paging.isLoading = false
      if first {
        let wasListed = state.server.listing != nil
        if state.server.replace(with: page) {
          state.paging.hasMore = page.hasMore
          state.paging.next = page.nextCursor
          if let requestedAt { expireUnlistedPushes(before: requestedAt, in: &state) }
        }
        state.log.serverListed(page.items.lazy.map(\.id))
        forgetSeen(&state)
        state.reshowAll()
        // The live stream opens from the first page's cursor: opened before, a change made
        // between the page and the stream would be missed.
        return wasListed || state.connection != .offline
          ? .none : startUpdates(&state, attempt: 0)
      }
      state.server.append(page)
      state.log.serverListed(page.items.lazy.map(\.id))
      state.paging.hasMore = page.hasMore
      state.paging.next = page.nextCursor
      state.reshow(page.items.map(\.id))
      return .none

    case .cachedPageLoaded(let page):
      // Older than any first page of the server's: shown only until one arrives.
      guard state.server.listing == nil else { return .none }
      if state.server.replace(with: page) {
        state.paging.hasMore = page.hasMore
        state.paging.next = page.nextCursor
      }
      state.log.serverListed(page.items.lazy.map(\.id))
      state.reshowAll()
      return .none

    case .pageFailed(let error):
      state.paging.isLoading = false
      // The launch's first page failed: the live stream opens from what is held (a later
      // first page does not open it again).
      let follow =
        state.connection == .offline && state.server.listing == nil
        ? startUpdates(&state, attempt: 0) : .none
      return .merge(show(error, in: &state), follow)

    case .updatesConnected:
      state.connection = .live
      return .none

    case .liveEvent(let event):
      state.server.apply(event)

      switch event.change {
      case .inserted(let copy), .updated(let copy):
        state.log.serverListed([copy.id])
        forgetSeen(&state)
        state.reshow([copy.id])
      case .deleted(let id):
        state.log.serverRemoved([id])
        forgetSeen(&state)
        state.reshow([id])
      case .snapshot(let copies):
        state.log.serverListed(copies.lazy.map(\.id))
        forgetSeen(&state)
        state.reshowAll()
      }
      return .none

    case .updatesFailed(let error, let attempt):
      // A connection that was live was healthy: its drop starts the backoff again from zero,
      // so only attempts that never connect count towards giving up.
      let attempt = state.connection == .live ? 0 : attempt
      guard attempt < Self.maximumReconnectAttempts, error.isRetryable else {
        state.connection = .offline
        return show(error, in: &state)
      }
      state.connection = .reconnecting(attempt: attempt + 1)
      let delay = NotificationsFeature.backoff(attempt: attempt, random: random)
      return .run { [clock] send in
        try await clock.sleep(for: delay)
        await send(.reconnect(attempt: attempt + 1))
      }
      .cancellable(id: CancelID.reconnect, cancelInFlight: true)

    case .reconnect(let attempt):
      return startUpdates(&state, attempt: attempt)

    case .filterChanged(let filter):
      state.filter = filter
      return pickedFilter(&state)

    case .unreadOnlyChanged(let unreadOnly):
      state.unreadOnly = unreadOnly
      return pickedFilter(&state)

    case .markAsRead(let id):
      return record(.markAsRead(id), in: &state)
    case .markAsUnread(let id):
      return record(.markAsUnread(id), in: &state)
    case .delete(let id):
      return record(.delete(id), in: &state)
    case .markAllAsRead:
      return record(.markAllAsRead(nil), in: &state)
    case .clearAll:
      // Bounded by the newest notification shown: one that arrives later is spared.
      return record(.deleteAll(upTo: state.shown.first.map(FeedPosition.init)), in: &state)

    case .changeAnswered(let id, let cursor):
      guard let record = state.log.acknowledge(id, at: cursor) else { return .none }
      // As of a mark-all or clear-all's cursor, nothing beyond what is held is unread.
      if record.touchesEverything, let cursor { state.server.noneUnreadNotHeld(at: cursor) }
      forgetSeen(&state)
      reshow(record, in: &state)
      return .none

    case .changeFailed(let id, let error):
      guard let record = state.log[id] else { return .none }
      switch state.log.fail(id, with: error, at: date.now) {
      case .willRetry(let failures):
        return .run { [clock] send in
          try await clock.sleep(for: Self.retryDelay(afterFailures: failures))
          await send(.retryDue(id))
        }
      case .removed(_, let error):
        reshow(record, in: &state)
        return show(error, in: &state)
      case .unknown:
        return .none
      }

    case .pushReceived(let payload):
      return receivePush(payload, tapped: false, in: &state)

    case .notificationResponse(let payload):
      return receivePush(payload, tapped: true, in: &state)

    case .recordLocalNotice(let title, let message):
      let notice = NotificationData(
        id: "local-\(uuid().uuidString.lowercased())", type: .system,
        title: PushPayloadParser.clean(title, limit: 120),
        message: PushPayloadParser.clean(message, limit: 1_000), timestamp: date.now,
        priority: .silent)
      state.log.recordNotice(notice)
      state.reshow([notice.id])
      return .none

    case .retryDue(let id):
      // Pending again: sent by `sendReady`, with its id, once its turn comes.
      state.log.retry(id)
      return .none

    case .saveFailed(let error):
      return show(error, in: &state)

    case .markTargetRead(let entity):
      return openTarget(entity, in: &state)

    case .targetUnreadLoaded(let entity, let unread, let cursor, let after):
      return markFetchedTargetRead(entity, unread, cursor: cursor, after: after, in: &state)

    case .targetUnreadFailed(_, let error):
      return show(error, in: &state)

    case .notificationTapped(let id):
      return tap(id, in: &state)

    case .loadNotification(let id):
      guard state.shown[id: id] == nil else { return .none }
      return fetchNotification(id, thenTap: false)

    case .notificationLoaded(let copy, let thenTap):
      if state.server.fetched(copy) {
        state.log.serverListed([copy.id])
        state.reshow([copy.id])
      }
      guard thenTap else { return .none }
      // Not shown after all (deleted meanwhile, by the server or the person): not opened.
      guard state.shown[id: copy.id] != nil else {
        state.lastTap = .notFound(id: copy.id)
        return .none
      }
      return tap(copy.id, in: &state)

    case .notificationLoadFailed(let id, let error, let thenTap):
      if thenTap, error == .notFound {
        state.lastTap = .notFound(id: id)
        return .none
      }
      return show(error, in: &state)

    case .foregroundChanged(let isInForeground):
      state.isInForeground = isInForeground
      return .none

    case .dismissError:
      state.error = nil
      return .none

    case .setPreferencesPresented(let isPresented):
      state.isPreferencesPresented = isPresented
      return isPresented ? .send(.preferences(.onAppear)) : .none

    case .preferences, .delegate:
      return .none
    }
  }

  /// Reads what was saved, in one step: the log, the filter, the muted types and the OS
  /// authorization. Only the log's failure fails the launch; a filter or preferences that
  /// cannot be read are the defaults.
  private func restore() -> Effect<Action> {
    .run { [changeLogStore, settings, push] send in
      let filter = try? await settings.load(SavedFilter.self, forKey: SettingsKey.filter)
      let muted = await NotificationPreferencesFeature.loadMuted(from: settings)
      let authorization = await push.authorizationStatus()
      var saved = Saved(
        log: ChangeLog(), filter: filter, muted: muted, authorization: authorization)
      do {
        saved.log = try await changeLogStore.load()
        await send(.restored(saved))
      } catch {
        await send(.restoreFailed(UserFacingError(error), saved))
      }
    }
  }

  /// Applies what was saved under what arrived while it was read, and starts listing.
  private func restore(_ saved: Saved, arrived: Arrived, in state: inout State) -> Effect<Action> {
    if let filter = saved.filter, !arrived.pickedFilter {
      state.filter = filter.filter
      state.unreadOnly = filter.unreadOnly
    }
    // The preferences take the saved muted types unless the person changed them meanwhile.
    _ = NotificationPreferencesFeature().reduce(
      into: &state.preferences, action: .mutedLoaded(saved.muted))
    state.preferences.authorization = saved.authorization
    let banners = arrived.banners.compactMap { push in
      bannerOptions(for: push, in: state).map {
        Effect<Action>.send(.delegate(.presentBanner(push, $0)))
      }
    }
    return .merge(startListing(&state), state.isInForeground ? .merge(banners) : .none)
  }

  /// Saves the filter the person picked. Settings calls are applied in the order made, so the
  /// last pick is the one saved; picked while the launch reads the saved one, it stays.
  private func pickedFilter(_ state: inout State) -> Effect<Action> {
    if case .restoring(var arrived) = state.launch {
      arrived.pickedFilter = true
      state.launch = .restoring(arrived)
    }
    let choice = SavedFilter(filter: state.filter, unreadOnly: state.unreadOnly)
    return .run { [settings] _ in
      try await settings.save(choice, forKey: SettingsKey.filter)
    } catch: { error, send in
      await send(.saveFailed(UserFacingError(error)))
    }
  }

  /// Shows an error, and tells the parent.
  func show(_ error: UserFacingError, in state: inout State) -> Effect<Action> {
    state.error = error
    return .send(.delegate(.errorOccurred(error)))
  }

  /// The launch has read the saved log (or could not): the first page is asked for, and the
  /// records whose turn has come are sent.
  private func startListing(_ state: inout State) -> Effect<Action> {
    state.launch = .ready
    state.paging.isLoading = true
    state.reshowAll()
    let first = PageRequest(limit: Self.pageSize)
    return .concatenate(loadCachedPage(first), fetchPage(first, first: true))
  }

  /// Reads the first page a cache on the device holds, if the client has one.
  private func loadCachedPage(_ request: PageRequest) -> Effect<Action> {
    .run { [client] send in
      if let page = try await client.cachedPage(request), !page.items.isEmpty {
        await send(.cachedPageLoaded(page))
      }
    } catch: { _, _ in
      // No cache to show: the server's page comes next.
    }
  }

  /// The pushes received before a first page was asked for, that it would list and does not,
  /// leave: the server deleted them (it has a notification before it sends its push). Only
  /// device times are compared (when each was received, when the page was asked for), and the
  /// page's reach with the pushes' own server times.
  private func expireUnlistedPushes(before requestedAt: Date, in state: inout State) {
    guard let listing = state.server.listing else { return }
    let gone = state.log.unlisted.compactMap { push -> String? in
      guard !push.isLocal, let received = state.log.received[push.id], received < requestedAt,
        listing.reaches(push), !state.server.notifications.contains(id: push.id)
      else { return nil }
      return push.id
    }
    guard !gone.isEmpty else { return }
    state.log.serverRemoved(gone)
  }

  /// Records a change of the person's: shown at once, saved, and sent when its turn comes.
  func record(_ intent: ChangeIntent, in state: inout State) -> Effect<Action> {
    let id = uuid()
    state.log.record(intent, id: id)
    if let record = state.log[id] { reshow(record, in: &state) } else { state.reshowAll() }
    return .none
  }

  /// Recomputes what is shown of the notifications a record touches.
  func reshow(_ record: ChangeRecord, in state: inout State) {
    if record.intent.ids.isEmpty { state.reshowAll() } else { state.reshow(record.intent.ids) }
  }

  /// Rule 6 of the log: acknowledged records the feed has seen leave.
  private func forgetSeen(_ state: inout State) {
    if let cursor = state.server.cursor { state.log.forget(upTo: cursor) }
  }

  /// Sends the records whose turn has come, once the launch has read the saved log (an older
  /// saved record of the same notification goes first).
  func sendReady(_ state: inout State) -> Effect<Action> {
    guard state.launch == .ready else { return .none }
    let ready = state.log.recordsReadyToSend
    guard !ready.isEmpty else { return .none }
    var effects: [Effect<Action>] = []
    for id in ready {
      guard let request = state.log[id]?.request else { continue }
      state.log.markSending(id)
      effects.append(
        .run { [client] send in
          await send(.changeAnswered(id, try await client.apply(request)))
        } catch: { error, send in
          await send(.changeFailed(id, UserFacingError(error)))
        })
    }
    return .merge(effects)
  }

  /// Writes the rows of the log that changed since `checkpoint` (or since `restored`, the log
  /// the store holds after a restore): one transaction, in the order of the actions.
  func save(
    from restored: ChangeLog?, since checkpoint: ChangeLog.Checkpoint, in state: State
  ) -> Effect<Action> {
    guard let writes = restored.map(state.log.writes(from:)) ?? state.log.writes(since: checkpoint)
    else {
      reportIssue("The change log was replaced during an action: its changes were not saved.")
      return .none
    }
    guard !writes.isEmpty else { return .none }
    return .run { [changeLogStore] _ in
      try await changeLogStore.write(writes)
    } catch: { error, send in
      await send(.saveFailed(UserFacingError(error)))
    }
  }

  private func fetchPage(_ request: PageRequest, first: Bool) -> Effect<Action> {
    let requestedAt = first ? date.now : nil
    return .run { [client] send in
      let page = try await client.fetchPage(request)
      await send(.pageLoaded(page, first: first, requestedAt: requestedAt))
    } catch: { error, send in
      await send(.pageFailed(UserFacingError(error)))
    }
  }

  /// Opens the live stream from the feed's cursor: the catch-up since it, then the live
  /// changes. A change both send is applied twice, which changes nothing (``ServerFeed``).
  private func startUpdates(_ state: inout State, attempt: Int) -> Effect<Action> {
    state.connection = attempt == 0 ? .connecting : .reconnecting(attempt: attempt)
    let cursor = state.server.cursor
    let updates = Effect<Action>.run { [client] send in
      let stream = try await client.updates(cursor)
      await send(.updatesConnected)
      if let cursor {
        for event in try await client.changesSince(cursor) { await send(.liveEvent(event)) }
      }
      for try await event in stream { await send(.liveEvent(event)) }
      throw UserFacingError.network
    } catch: { error, send in
      await send(.updatesFailed(UserFacingError(error), attempt: attempt))
    }
    .cancellable(id: CancelID.updates, cancelInFlight: true)
    return .merge(.cancel(id: CancelID.reconnect), updates)
  }

  /// Taps of pushes the system delivers (a cold start from one too).
  private func listenForResponses() -> Effect<Action> {
    .run { [push] send in
      for await response in push.responses() {
        await send(.notificationResponse(response.payload))
      }
    }
    .cancellable(id: CancelID.responses, cancelInFlight: true)
  }

  /// How long a change that failed for now waits before it is sent again: 2^failures seconds,
  /// at most five minutes; a second while offline (no failure counted).
  static func retryDelay(afterFailures failures: Int) -> Duration {
    .seconds(min(300, 1 << min(failures, 9)))
  }
}
