import Foundation
import Loom

extension NotificationFeature {
  func reduceAction(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      guard state.launch == .notStarted else { return .none }
      state.launch = .restoring
      return .run { [changeLogStore] send in
        await send(.restored(try await changeLogStore.load()))
      } catch: { error, send in
        await send(.restoreFailed(UserFacingError(error)))
      }

    case .restored(let saved):
      guard state.launch == .restoring else { return .none }
      state.log = saved.restoredForLaunch.merging(newer: state.log)
      return startListing(&state)

    case .restoreFailed(let error):
      // What cannot be read is left as it is (a later launch reads it again); this launch
      // goes on with what it records itself.
      guard state.launch == .restoring else { return .none }
      state.error = error
      return startListing(&state)

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

    case .pageLoaded(let page, let first):
      state.paging.isLoading = false
      if first {
        let wasListed = state.server.listing != nil
        if state.server.replace(with: page) {
          state.paging.hasMore = page.hasMore
          state.paging.next = page.nextCursor
        }
        state.log.serverListed(page.items.lazy.map(\.id))
        forgetSeen(&state)
        state.reshowAll()
        // The live stream opens from the first page's cursor: opened before, a change made
        // between the page and the stream would be missed.
        return wasListed || state.connection != .offline ? .none : startUpdates(&state)
      }
      state.server.append(page)
      state.log.serverListed(page.items.lazy.map(\.id))
      state.paging.hasMore = page.hasMore
      state.paging.next = page.nextCursor
      state.reshow(page.items.map(\.id))
      return .none

    case .pageFailed(let error):
      state.paging.isLoading = false
      state.error = error
      return state.connection == .offline && state.server.listing == nil
        ? startUpdates(&state) : .none

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

    case .updatesFailed(let error):
      state.connection = .offline
      state.error = error
      return .none

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
        state.error = error
        reshow(record, in: &state)
        return .none
      case .unknown:
        return .none
      }

    case .pushReceived(let payload):
      let push: NotificationData
      do {
        push = try PushPayloadParser.parse(payload, receivedAt: date.now)
      } catch {
        state.error = .invalidData(reason: error.description)
        return .none
      }
      // The server lists it already (a duplicate delivery, or a late one): its copy is newer.
      guard !state.server.notifications.contains(id: push.id) else { return .none }
      if state.log.receive(push, at: date.now) { state.reshow([push.id]) }
      return .none

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
      state.error = error
      return .none

    case .dismissError:
      state.error = nil
      return .none
    }
  }

  /// The launch has read the saved log (or could not): the first page is asked for, and the
  /// records whose turn has come are sent.
  private func startListing(_ state: inout State) -> Effect<Action> {
    state.launch = .ready
    state.paging.isLoading = true
    state.reshowAll()
    return fetchPage(PageRequest(limit: Self.pageSize), first: true)
  }

  /// Records a change of the person's: shown at once, saved, and sent when its turn comes.
  private func record(_ intent: ChangeIntent, in state: inout State) -> Effect<Action> {
    let id = uuid()
    state.log.record(intent, id: id)
    if let record = state.log[id] { reshow(record, in: &state) } else { state.reshowAll() }
    return .none
  }

  /// Recomputes what is shown of the notifications a record touches.
  private func reshow(_ record: ChangeRecord, in state: inout State) {
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

  /// Writes the rows of the log that changed since `before`: one transaction, in the order of
  /// the actions.
  func save(from before: ChangeLog, in state: State) -> Effect<Action> {
    let writes = state.log.writes(from: before)
    guard !writes.isEmpty else { return .none }
    return .run { [changeLogStore] _ in
      try await changeLogStore.write(writes)
    } catch: { error, send in
      await send(.saveFailed(UserFacingError(error)))
    }
  }

  private func fetchPage(_ request: PageRequest, first: Bool) -> Effect<Action> {
    .run { [client] send in
      await send(.pageLoaded(try await client.fetchPage(request), first: first))
    } catch: { error, send in
      await send(.pageFailed(UserFacingError(error)))
    }
  }

  /// Opens the live stream from the feed's cursor: the catch-up since it, then the live
  /// changes. A change both send is applied twice, which changes nothing (``ServerFeed``).
  private func startUpdates(_ state: inout State) -> Effect<Action> {
    state.connection = .connecting
    let cursor = state.server.cursor
    return .run { [client] send in
      let stream = try await client.updates(cursor)
      await send(.updatesConnected)
      if let cursor {
        for event in try await client.changesSince(cursor) { await send(.liveEvent(event)) }
      }
      for try await event in stream { await send(.liveEvent(event)) }
      throw UserFacingError.network
    } catch: { error, send in
      await send(.updatesFailed(UserFacingError(error)))
    }
    .cancellable(id: CancelID.updates, cancelInFlight: true)
  }

  /// How long a change that failed for now waits before it is sent again: 2^failures seconds,
  /// at most five minutes; a second while offline (no failure counted).
  static func retryDelay(afterFailures failures: Int) -> Duration {
    .seconds(min(300, 1 << min(failures, 9)))
  }
}
