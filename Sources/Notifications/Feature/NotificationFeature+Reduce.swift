import Foundation
import Loom

extension NotificationFeature {
  func reduceAction(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      switch state.launch {
      case .notStarted(let arrived):
        state.launch = .restoring(arrived)
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
      // What the server said while the log was read holds for what was restored too: a push
      // an earlier launch kept, which the server has since listed or deleted, is not kept.
      state.log.serverListed(state.server.notifications.ids)
      state.log.serverRemoved(state.server.deletions.keys)
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
        .cancel(id: CancelID.loadMore), .cancel(id: CancelID.firstPage),
        fetchPage(PageRequest(limit: Self.pageSize), first: true))

    case .loadMoreRequested:
      guard state.launch == .ready, state.paging.hasMore, !state.paging.isLoading else {
        return .none
      }
      state.paging.isLoading = true
      return fetchPage(PageRequest(limit: Self.pageSize, cursor: state.paging.next), first: false)
        .cancellable(id: CancelID.loadMore)

    case .pageLoaded(let page, let first):
      state.paging.isLoading = false
      if first {
        let wasListed = state.server.listing != nil
        if state.server.replace(with: page) {
          state.paging.hasMore = page.hasMore
          state.paging.next = page.nextCursor
        }
        state.log.serverListed(page.items.lazy.map(\.id))
        forgetSeen(&state, reflectedIn: page.items.lazy.map(\.id))
        state.reshowAll()
        // The pushes the server does not list are looked up: changes may wait for one the
        // server has on a page not loaded, and the server may have deleted one (a push
        // delivered again after a relaunch that forgot the deletion, or kept by an earlier
        // launch).
        let lookUp = lookUpPushes(state.log.unlisted.ids, in: state)
        // The live stream opens from the first page's cursor: opened before, a change made
        // between the page and the stream would be missed. One opened (or opening) with no
        // first page, from now, is opened again from the page's cursor: it says nothing of
        // what changed between the page and its opening. (A page with no cursor, from a
        // backend that does not order what it says, lists nothing to resume from.)
        guard !wasListed, state.connection == .offline || page.changeCursor != nil else {
          return lookUp
        }
        return .merge(lookUp, startUpdates(&state, attempt: 0))
      }
      state.server.append(page)
      state.log.serverListed(page.items.lazy.map(\.id))
      forgetSeen(&state, reflectedIn: page.items.lazy.map(\.id))
      state.paging.hasMore = page.hasMore
      state.paging.next = page.nextCursor
      state.reshow(page.items.map(\.id))
      return .none

    case .cachedPageLoaded(let page):
      // Older than any first page of the server's: shown only until one arrives.
      guard state.server.listing == nil else { return .none }
      state.server.replace(withCached: page)
      state.paging.hasMore = page.hasMore
      state.paging.next = page.nextCursor
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
      // Nothing listed yet: the first page is asked for again after a while, for as long as
      // it fails for now (a refresh asks at once).
      let retry: Effect<Action> =
        state.server.listing == nil && error.isRetryable
        ? .run { [clock, delay = NotificationFeature.backoff(attempt: 3, random: random)] send in
          try await clock.sleep(for: delay)
          await send(.refreshRequested)
        }
        .cancellable(id: CancelID.firstPage, cancelInFlight: true) : .none
      return .merge(show(error, in: &state), follow, retry)

    case .updatesConnected:
      state.connection = .live
      // Connected, with nothing listed (the launch's first page failed): the server can be
      // reached again, so the first page is asked for again.
      guard state.server.listing == nil, !state.paging.isLoading, state.launch == .ready else {
        return .none
      }
      state.paging.isLoading = true
      return fetchPage(PageRequest(limit: Self.pageSize), first: true)

    case .liveEvent(let event):
      apply(event, in: &state)
      return .none

    case .feedStartedAgain(let snapshot):
      // What is held is the old log's, and its cursors do not compare with the new log's: the
      // snapshot is the feed. The records the old log acknowledged leave (what they did is in
      // the snapshot, or went with the old log); those not sent yet go to the new one.
      state.server = ServerFeed()
      state.log.forget(upTo: ChangeCursor(.max))
      apply(snapshot, in: &state)
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
      let delay = NotificationFeature.backoff(attempt: attempt, random: random)
      return .run { [clock] send in
        try await clock.sleep(for: delay)
        await send(.reconnect(attempt: attempt + 1))
      }
      .cancellable(id: CancelID.reconnect, cancelInFlight: true)

    case .reconnect(let attempt):
      return startUpdates(&state, attempt: attempt)

    case .filterChanged(let filter):
      state.filter = filter
      // Picked before the saved choice is read: kept over it, and saved with it.
      guard state.launch.arrived == nil else {
        state.launch.arrived?.filter = filter
        return .none
      }
      return saveFilter(state)

    case .unreadOnlyChanged(let unreadOnly):
      state.unreadOnly = unreadOnly
      guard state.launch.arrived == nil else {
        state.launch.arrived?.unreadOnly = unreadOnly
        return .none
      }
      return saveFilter(state)

    case .markAsRead(let id):
      return record(.markAsRead(id), in: &state)
    case .markAsUnread(let id):
      return record(.markAsUnread(id), in: &state)
    case .delete(let id):
      return record(.delete(id), in: &state)
    case .markAllAsRead:
      return record(.markAllAsRead(nil), in: &state)
    case .clearAll:
      return record(.deleteAll(upTo: Self.clearAllBound(in: state)), in: &state)

    case .changeAnswered(let id, let cursor):
      // The effect that sent the record saved it acknowledged (`sendChange`).
      guard let record = state.log.acknowledge(id, at: cursor, isSaved: true) else {
        return .none
      }
      // The answer is the server's word at its cursor: a deletion there holds against a page
      // or an event made before it (rule 2), though nothing held shows it yet.
      if case .delete(let deleted) = record.intent, let cursor {
        state.server.remove(deleted, at: cursor)
      }
      // As of a mark-all or clear-all's cursor, nothing beyond what is held is unread.
      if record.touchesEverything, let cursor { state.server.noneUnreadNotHeld(at: cursor) }
      // A server that does not say where it applied the change: the record has left, and what
      // it holds of the server is taken to be changed.
      if cursor == nil { state.server.assume(record.intent) }
      forgetSeen(&state, reflectedIn: record.intent.namedIDs)
      if !Self.isReplayedAsBefore(record, answeredAt: cursor, in: state) {
        reshow(record, in: &state)
      }
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

    case .pushLookedUp(_, let copy):
      guard let copy, state.server.fetched(copy) else { return .none }
      state.log.serverListed([copy.id])
      state.reshow([copy.id])
      return .none

    case .deletedOnServer(let id, let cursor):
      // A push of a notification the server deleted (delivered late, or again after a relaunch
      // that forgot the deletion): ordered by the deletion's cursor, as an event would be.
      state.server.remove(id, at: cursor)
      state.log.serverRemoved([id])
      state.reshow([id])
      return .none

    case .foregroundChanged(let isInForeground):
      state.isInForeground = isInForeground
      return .none

    case .dismissError:
      state.error = nil
      return .none

    case .preferences(let action):
      return preferences(action, in: &state)

    case .delegate:
      return .none
    }
  }

  /// The preferences sheet: which types are announced, and the OS authorization. The muted
  /// types are saved as a whole at each change (settings calls are applied in the order made, so
  /// the last change is the one saved); changed before the launch has read the saved ones, the
  /// change is kept in the launch state and applied on top of them.
  private func preferences(
    _ action: NotificationPreferencesFeature.Action, in state: inout State
  ) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { [push] send in
        await send(.preferences(.authorizationChanged(await push.authorizationStatus())))
      }

    case .typeToggled(let type, let isOn):
      guard NotificationPreferencesFeature.State.canTurnOff(type) || isOn else {
        state.preferences.error = .operationFailed(
          message: "\(type.displayName) notifications cannot be turned off.")
        return .none
      }
      state.preferences.error = nil
      if isOn { state.preferences.muted.remove(type) } else { state.preferences.muted.insert(type) }
      guard state.launch.arrived == nil else {
        state.launch.arrived?.bannersToggled[type] = isOn
        return .none
      }
      return saveMuted(state)

    case .requestAuthorizationTapped:
      return .run { [push] send in
        await send(.preferences(.authorizationChanged(try await push.requestAuthorization())))
      } catch: { _, send in
        await send(.preferences(.authorizationChanged(.denied)))
      }

    case .authorizationChanged(let status), .loaded(_, let status):
      state.preferences.authorization = status
      // Not older than what the launch reads meanwhile (before the launch starts, its read is
      // the newer one).
      if case .restoring = state.launch { state.launch.arrived?.authorization = status }
      return .none

    case .mutedLoaded, .saveFinished:
      // The launch reads the muted types (`restored`); saves are not tracked one by one.
      return .none
    }
  }

  private func saveMuted(_ state: State) -> Effect<Action> {
    let muted = state.preferences.muted.map(\.rawValue).sorted().map(
      NotificationType.init(rawValue:))
    return .run { [settings] _ in
      try await settings.save(muted, forKey: NotificationPreferencesFeature.settingsKey)
    } catch: { error, send in
      await send(.saveFailed(UserFacingError(error)))
    }
  }

  /// Reads what was saved, in one step: the log (with what an earlier version saved moved into
  /// it, ``loadLog(from:migrating:receivedAt:)``), the filter, the muted types and the OS
  /// authorization. Only the log's failure fails the launch; a filter or preferences that
  /// cannot be read are the defaults.
  private func restore() -> Effect<Action> {
    .run { [changeLogStore, settings, push, now = date.now] send in
      let filter = try? await settings.load(SavedFilter.self, forKey: SettingsKey.filter)
      let muted = await NotificationPreferencesFeature.loadMuted(from: settings)
      let authorization = await push.authorizationStatus()
      var saved = Saved(
        log: ChangeLog(), filter: filter, muted: muted, authorization: authorization)
      do {
        saved.log = try await Self.loadLog(
          from: changeLogStore, migrating: settings, receivedAt: now)
        await send(.restored(saved))
      } catch {
        await send(.restoreFailed(UserFacingError(error), saved))
      }
    }
  }

  /// Applies what was saved under what arrived while it was read, and starts listing.
  private func restore(_ saved: Saved, arrived: Arrived, in state: inout State) -> Effect<Action> {
    // What the person picked meanwhile is newer than what was saved: kept, and saved.
    state.filter = arrived.filter ?? saved.filter?.filter ?? state.filter
    state.unreadOnly = arrived.unreadOnly ?? saved.filter?.unreadOnly ?? state.unreadOnly
    let picked = arrived.filter != nil || arrived.unreadOnly != nil
    // The muted types saved, with what the person turned on or off meanwhile.
    var muted = (saved.muted ?? []).filter(NotificationPreferencesFeature.State.canTurnOff)
    for (type, isOn) in arrived.bannersToggled {
      if isOn { muted.remove(type) } else { muted.insert(type) }
    }
    state.preferences.muted = muted
    // An answer the person gave meanwhile is newer than the launch's read.
    state.preferences.authorization = arrived.authorization ?? saved.authorization
    // A push delivered meanwhile is announced if it adds to the list: not one the saved log
    // kept already (an earlier launch announced it), nor one the person deleted.
    let banners = arrived.banners.compactMap { push -> Effect<Action>? in
      guard !saved.log.unlisted.contains(id: push.id), state.log.replaying(on: push) != nil
      else { return nil }
      return bannerOptions(for: push, in: state).map {
        Effect<Action>.send(.delegate(.presentBanner(push, $0)))
      }
    }
    // The entities opened meanwhile: what the server has about them is asked for now, on top
    // of what was saved (opened before any page, at no cursor). The saved records are older
    // than the opening: one opened before this launch recorded anything comes after them.
    let lastSaved = saved.log.records.last?.id
    let opened = arrived.targetsOpened.map {
      fetchUnread($0.entity, cursor: nil, after: $0.after ?? lastSaved)
    }
    return .merge(
      startListing(&state), state.isInForeground ? .merge(banners) : .none,
      picked ? saveFilter(state) : .none, arrived.bannersToggled.isEmpty ? .none : saveMuted(state),
      .merge(opened))
  }

  /// Saves the filter the person picked. Settings calls are applied in the order made, so the
  /// last pick is the one saved.
  private func saveFilter(_ state: State) -> Effect<Action> {
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
    // A cached page that comes after the server's is not shown: the two may race. The first
    // page looks up the pushes the server has not listed.
    return .merge(loadCachedPage(first), fetchPage(first, first: true))
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

  /// The bound of a clear-all: the newest notification the person has had listed, so that one
  /// that arrives later is spared. That is the newest shown or, when the log's changes hide
  /// every one (a clear-all or deletes not answered yet), the newest they hide: a second
  /// clear-all on the list the first one emptied covers what the first did, no more. With
  /// nothing listed at all, `nil`: every notification.
  ///
  /// - Complexity: O(1) when a notification is shown; O(*n* + *u*) for the *n* notifications
  ///   held of the server and *u* unlisted ones otherwise.
  static func clearAllBound(in state: State) -> FeedPosition? {
    if let newest = state.shown.first { return FeedPosition(newest) }
    let newest = [
      state.server.notifications.min(by: NotificationData.isOrderedBefore),
      state.log.unlisted.min(by: NotificationData.isOrderedBefore),
    ]
    return newest.compactMap(\.self).min(by: NotificationData.isOrderedBefore)
      .map(FeedPosition.init)
  }

  /// Records a change of the person's: shown at once, saved, and sent when its turn comes.
  func record(_ intent: ChangeIntent, in state: inout State) -> Effect<Action> {
    state.log.record(intent, id: uuid())
    let ids = intent.namedIDs
    if ids.isEmpty { state.reshowAll() } else { state.reshow(ids) }
    return lookUpPushes(ids, in: state)
  }

  /// Asks the server for the pushes it has not listed among `ids`: a change to one waits until
  /// the server lists it, and the server may have it already, on a page not loaded (a cold
  /// start from the push of an older notification). A look-up that fails for now is made again
  /// after 2^failures seconds (at most five minutes), until it is answered; one a newer look-up
  /// of the same push replaces is cancelled.
  func lookUpPushes(_ ids: some Sequence<String>, in state: State) -> Effect<Action> {
    let pushes = ids.filter { state.log.unlisted[id: $0].map { !$0.isLocal } ?? false }
    guard !pushes.isEmpty else { return .none }
    return .merge(
      pushes.map { id in
        .run { [client, clock] send in
          var failures = 0
          while true {
            do {
              await send(.pushLookedUp(id: id, try await client.fetchNotification(id)))
              return
            } catch UserFacingError.notFound {
              await send(.pushLookedUp(id: id, nil))
              return
            } catch let deleted as DeletedNotificationError {
              await send(.deletedOnServer(id: id, at: deleted.cursor))
              return
            } catch let error where UserFacingError(error).isRetryable {
              failures += 1
              try await clock.sleep(for: Self.retryDelay(afterFailures: failures))
            }
          }
        } catch: { _, _ in
          // Refused: looked up again at the next change or first page; a page or an event
          // lists it anyway.
        }
        .cancellable(id: CancelID.lookUp(id), cancelInFlight: true)
      })
  }

  /// Applies an event of the server's feed: the feed takes it (``ServerFeed/apply(_:)``), the
  /// log learns what the server now lists or removed, and what is shown is recomputed.
  private func apply(_ event: NotificationEvent, in state: inout State) {
    state.server.apply(event)
    switch event.change {
    case .inserted(let copy), .updated(let copy):
      state.log.serverListed([copy.id])
      forgetSeen(&state, reflectedIn: [copy.id])
      state.reshow([copy.id])
    case .deleted(let id):
      state.log.serverRemoved([id])
      forgetSeen(&state, reflectedIn: [id])
      state.reshow([id])
    case .snapshot(let copies):
      state.log.serverListed(copies.lazy.map(\.id))
      forgetSeen(&state)
      state.reshowAll()
    }
  }

  /// Whether what is shown stays as it is when `record` is acknowledged at `cursor`: a record
  /// acknowledged at a cursor is replayed on the copies older than it, as an unanswered one is
  /// on every copy (``ChangeLog/replaying(on:)``), so only a copy as new as the answer shows
  /// it otherwise. A delete (a deletion at the cursor), a change to every notification (none
  /// unread beyond what is held) and an answer without a cursor change the server's truth
  /// itself.
  ///
  /// - Complexity: O(*k*) for the *k* notifications the record names.
  static func isReplayedAsBefore(
    _ record: ChangeRecord, answeredAt cursor: ChangeCursor?, in state: State
  ) -> Bool {
    guard let cursor, !record.touchesEverything else { return false }
    if case .delete = record.intent { return false }
    return record.intent.namedIDs.allSatisfy { id in
      guard let copy = state.server.notifications[id: id] ?? state.log.unlisted[id: id] else {
        return false
      }
      return copy.version.map { $0 < cursor } ?? true
    }
  }

  /// Recomputes what is shown of the notifications a record touches.
  func reshow(_ record: ChangeRecord, in state: inout State) {
    let ids = record.intent.namedIDs
    if ids.isEmpty { state.reshowAll() } else { state.reshow(ids) }
  }

  /// Rule 6 of the log: acknowledged records the feed has seen leave, and those the copies of
  /// `ids` now held reflect.
  private func forgetSeen(_ state: inout State, reflectedIn ids: some Sequence<String> = []) {
    if let current = state.server.current { state.log.forget(upTo: current) }
    // The copies the server listed are read in place while the log is read, and the records
    // removed afterwards: copying the listed notifications out cost ~1,200 instructions per
    // action, and the whole feed more.
    let leaving = state.log.records(reflectedIn: ids) { state.server.notifications[id: $0] }
    if !leaving.isEmpty { state.log.removeRecords(leaving) }
  }

  /// Marks sending the records whose turn has come, once the launch has read the saved log (an
  /// older saved record of the same notification goes first), and returns them.
  func sendReady(_ state: inout State) -> [ChangeRecord] {
    guard state.launch == .ready else { return [] }
    let ready = state.log.recordsReadyToSend
    guard !ready.isEmpty else { return [] }
    var records: [ChangeRecord] = []
    records.reserveCapacity(ready.count)
    for id in ready {
      if let record = state.log.markSending(id) { records.append(record) }
    }
    return records
  }

  /// Writes an action's rows of the log, in one transaction, and sends the records whose turn
  /// has come. The rows are written before the one record they usually come with is sent, in
  /// one effect: an action of the person costs one task, not two. A write that fails is
  /// reported (`saveFailed`) and the record sent all the same; several records are sent each in
  /// a task of its own, beside the write.
  func save(_ writes: [ChangeLog.Write], thenSend records: [ChangeRecord]) -> Effect<Action> {
    guard !writes.isEmpty, records.count == 1, let record = records.first else {
      let sends = records.map { record in
        Effect<Action>.run { [client, changeLogStore] send in
          await Self.sendChange(record, to: client, savingIn: changeLogStore, send)
        }
      }
      return .merge((writes.isEmpty ? [] : [save(writes)]) + sends)
    }
    return .run { [client, changeLogStore] send in
      do {
        try await changeLogStore.write(writes)
      } catch {
        await send(.saveFailed(UserFacingError(error)))
      }
      await Self.sendChange(record, to: client, savingIn: changeLogStore, send)
    }
  }

  /// Sends one record to the server, saves the server's answer to it (the record acknowledged
  /// at the answer's cursor) and sends the answer to the store. The answer's row is written
  /// here, by the task that has it, rather than by an effect of its own: an answer costs no
  /// task. Its write is called after the record's own row (written before the record is sent)
  /// and only replaces a row the store still holds (``ChangeLog/Write/replaceRecord(_:)``), so
  /// it never brings back a record the log let go of meanwhile. A write that fails is reported
  /// (`saveFailed`); the store then holds the record unanswered (or not at all, when its own
  /// row's write failed too), and a relaunch sends what it holds again with its id, which the
  /// server applies once.
  @MainActor private static func sendChange(
    _ record: ChangeRecord, to client: NotificationClient, savingIn store: ChangeLogStore,
    _ send: Send<Action>
  ) async {
    let cursor: ChangeCursor?
    do {
      cursor = try await client.apply(record.request)
    } catch let deleted as DeletedNotificationError {
      // The server deleted the notification first (another device did): that holds, at its
      // cursor, and a delete of it did what the person asked.
      await send(.deletedOnServer(id: deleted.id, at: deleted.cursor))
      guard case .delete = record.intent else {
        await send(.changeFailed(record.id, .notFound))
        return
      }
      cursor = deleted.cursor
    } catch {
      await send(.changeFailed(record.id, UserFacingError(error)))
      return
    }
    if let cursor {
      var answered = record
      answered.status = .acknowledged(cursor)
      do {
        try await store.write([.replaceRecord(answered)])
      } catch {
        await send(.saveFailed(UserFacingError(error)))
      }
    }
    await send(.changeAnswered(record.id, cursor))
  }

  /// The rows of the log that changed since `checkpoint`, or since `restored`, the log the
  /// launch read (the store holds it, and nothing of this launch's yet), in the order of the
  /// actions.
  func writes(
    from restored: ChangeLog?, since checkpoint: ChangeLog.Checkpoint, in state: State
  ) -> [ChangeLog.Write] {
    guard let writes = restored.map(state.log.writes(from:)) ?? state.log.writes(since: checkpoint)
    else {
      reportIssue("The change log was replaced during an action: its changes were not saved.")
      return []
    }
    return writes
  }

  /// Writes rows of the log in one transaction.
  private func save(_ writes: [ChangeLog.Write]) -> Effect<Action> {
    .run { [changeLogStore] _ in
      try await changeLogStore.write(writes)
    } catch: { error, send in
      await send(.saveFailed(UserFacingError(error)))
    }
  }

  /// Asks the server for a page. A first page replaces the one asked for before it, and the
  /// wait to ask again: a page read before a newer one and answered after it would show,
  /// beyond the newer page's reach, copies older than what the feature has seen, after the log
  /// let go of the records acknowledged in between (``ServerFeed/current``, rule 5).
  private func fetchPage(_ request: PageRequest, first: Bool) -> Effect<Action> {
    let fetch = Effect<Action>.run { [client] send in
      await send(.pageLoaded(try await client.fetchPage(request), first: first))
    } catch: { error, send in
      await send(.pageFailed(UserFacingError(error)))
    }
    return first ? fetch.cancellable(id: CancelID.firstPage, cancelInFlight: true) : fetch
  }

  /// Opens the live stream from the feed's cursor: the catch-up since it, then the live
  /// changes. A change both send is applied twice, which changes nothing (``ServerFeed``).
  private func startUpdates(_ state: inout State, attempt: Int) -> Effect<Action> {
    state.connection = attempt == 0 ? .connecting : .reconnecting(attempt: attempt)
    let cursor = state.server.resumeCursor
    let updates = Effect<Action>.run { [client] send in
      let stream = try await client.updates(cursor)
      await send(.updatesConnected)
      if let cursor {
        for event in try await client.changesSince(cursor) {
          // Cursors only increase: a snapshot older than the cursor asked from is a new log's.
          if case .snapshot = event.change, let at = event.cursor, at < cursor {
            await send(.feedStartedAgain(event))
          } else {
            await send(.liveEvent(event))
          }
        }
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
