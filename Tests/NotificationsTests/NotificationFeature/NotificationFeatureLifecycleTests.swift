import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// The screen's lifecycle and its live stream: a stream refused for good goes offline until the
/// screen appears again, a dropped one reconnects from where it was and catches up, appearing
/// again loads no page, and the preferences sheet reads the OS authorization again. Ported from
/// `ReconnectTests`, `LifecycleTests` and `PreferencesTests`.
@MainActor
struct NotificationFeatureLifecycleTests {
  typealias Feature = NotificationFeature
  typealias Event = NotificationEvent

  init() {}

  /// Read, so that the launch changes no count.
  static let n1 = Ported.notification("n1", isRead: true, version: 2, minutesAgo: 1)
  static let page = NotificationPage(items: [n1], changeCursor: 5)

  /// A live stream the test drives: each opening is refused with the next error scripted
  /// (`nil`: it opens), and each open stream can be sent events and dropped.
  final class Streams: Sendable {
    typealias Continuation = AsyncThrowingStream<Event, any Error>.Continuation

    let refusals: LockedState<[UserFacingError?]>
    let open = LockedState<[Continuation]>([])

    init(refusals: [UserFacingError?] = []) {
      self.refusals = LockedState(refusals)
    }

    /// `backend`'s client, with the live stream this drives.
    func client(over backend: Ported.Backend) -> NotificationClient {
      var client = backend.client
      let scripted = backend.client.updates
      client.updates = { cursor in
        _ = try await scripted(cursor)
        let refusal = self.refusals.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let refusal { throw refusal }
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        self.open.withLock { $0.append(continuation) }
        return stream
      }
      return client
    }

    /// The newest stream opened.
    var newest: Continuation? { open.withLock { $0.last } }
  }

  /// A store over `backend` and `streams`, launched up to its first page.
  func launching(
    _ backend: Ported.Backend, _ streams: Streams, clock: any Clock<Duration> = ImmediateClock()
  ) async -> Ported.Store {
    let store = Ported.makeStore(
      backend: backend, clock: clock, client: streams.client(over: backend))
    await Ported.appearWithNothingSaved(store)
    await Ported.receiveFirstPage(Self.page, in: store)
    return store
  }

  /// A stream the server refuses for good (the person signed out elsewhere) is not retried: the
  /// feature goes offline with the error, and opens it again when the screen appears again.
  @Test func aStreamRefusedForGoodGoesOfflineUntilTheScreenAppearsAgain() async {
    let backend = Ported.Backend(pages: [Self.page])
    let streams = Streams(refusals: [.unauthorized])
    let clock = TestClock()
    let store = await launching(backend, streams, clock: clock)
    await store.receive(.updatesFailed(.unauthorized, attempt: 0)) {
      $0.connection = .offline
      $0.error = .unauthorized
    }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await clock.run()
    #expect(backend.opened.withLock { $0 } == [5])
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    #expect(backend.opened.withLock { $0 } == [5, 5])
    await Ported.leave(store)
  }

  /// A live stream the server ends for good goes offline at once, though it was healthy: no
  /// reconnection is scheduled.
  @Test func aLiveStreamEndedForGoodGoesOfflineAtOnce() async {
    let backend = Ported.Backend(pages: [Self.page])
    let streams = Streams()
    let clock = TestClock()
    let store = await launching(backend, streams, clock: clock)
    await store.receive(.updatesConnected) { $0.connection = .live }
    streams.newest?.finish(throwing: UserFacingError.unauthorized)
    await store.receive(.updatesFailed(.unauthorized, attempt: 0)) {
      $0.connection = .offline
      $0.error = .unauthorized
    }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await clock.run()
    #expect(backend.opened.withLock { $0 }.count == 1)
  }

  /// Leaving the screen while a reconnection waits cancels it; appearing again opens the stream
  /// at once, and the reconnection that was waiting never opens a second one.
  @Test func appearingAgainOpensTheStreamOnceAndTheWaitingReconnectionNever() async {
    let backend = Ported.Backend(pages: [Self.page])
    let streams = Streams(refusals: [.network])
    let clock = TestClock()
    let store = await launching(backend, streams, clock: clock)
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
    await Ported.leave(store)
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await clock.run()
    #expect(store.state.connection == .live)
    #expect(backend.opened.withLock { $0 }.count == 2)
    #expect(streams.open.withLock { $0 }.count == 1)
    await Ported.leave(store)
  }

  /// A stream that drops reconnects after a backoff, from the cursor of the last change it
  /// heard: the catch-up shows what changed meanwhile, then the live changes follow.
  @Test func aDroppedStreamReconnectsFromWhereItWasAndCatchesUp() async {
    let n2 = Ported.notification("n2", version: 6, minutesAgo: 0.5)
    let n3 = Ported.notification("n3", version: 7, minutesAgo: 0.2)
    let missed = Event(.inserted(n3), cursor: 7)
    let backend = Ported.Backend(pages: [.page(Self.page)], catchUp: [missed])
    let streams = Streams()
    let clock = TestClock()
    let store = await launching(backend, streams, clock: clock)
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.liveEvent(missed)) {
      $0.server.apply(missed)
      $0.shown = [n3, Self.n1]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let heard = Event(.inserted(n2), cursor: 8)
    streams.newest?.yield(heard)
    await store.receive(.liveEvent(heard)) {
      $0.server.apply(heard)
      $0.shown = [n3, n2, Self.n1]
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    let deleted = Event(.deleted(id: "n3"), cursor: 9)
    backend.catchUp.withLock { $0 = [deleted] }
    streams.newest?.finish(throwing: UserFacingError.network)
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.reconnect(attempt: 1))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.liveEvent(deleted)) {
      $0.server.apply(deleted)
      $0.shown = [n2, Self.n1]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(backend.opened.withLock { $0 } == [5, 8])
    await Ported.leave(store)
  }

  /// Appearing again after leaving opens the live stream from where it was; the page is not
  /// loaded again.
  @Test func appearingAgainOpensTheStreamAndLoadsNoPage() async {
    let (store, backend) = await Ported.launched(listing: Self.page)
    await Ported.leave(store)
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    #expect(backend.pageRequests.withLock { $0 }.count == 1)
    #expect(backend.opened.withLock { $0 } == [5, 5])
    await Ported.leave(store)
  }

  /// The muted types are read at launch; the preferences' `onAppear` (a shell sends it when it
  /// presents them) reads the OS authorization again (the person may have allowed
  /// notifications in the system's settings meanwhile).
  @Test func thePreferencesAppearingReadsTheAuthorizationAgain() async throws {
    let settings = SettingsClient.inMemory()
    let muted: [NotificationType] = [.role]
    try await settings.save(muted, forKey: NotificationPreferencesFeature.settingsKey)
    let authorization = LockedState(PushClient.AuthorizationStatus.denied)
    var push = PushClient.unavailable
    push.authorizationStatus = { authorization.withLock { $0 } }
    let backend = Ported.Backend(pages: [Self.page])
    let store = Ported.makeStore(backend: backend, settings: settings, push: push)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(.updatesConnected)
    #expect(store.state.preferences.muted == [.role])
    store.exhaustivity = .on
    authorization.withLock { $0 = .authorized }
    await store.send(.preferences(.onAppear))
    await store.receive(.preferences(.authorizationChanged(.authorized))) {
      $0.preferences.authorization = .authorized
    }
    await Ported.leave(store)
  }

  /// The list is grouped by day (today, yesterday, earlier) and by thread, in the order of each
  /// thread's newest notification.
  @Test func theListIsGroupedByDayAndByThread() {
    var old = Ported.notification("old", minutesAgo: 60 * 24 * 3)
    old.threadID = "t"
    var older = Ported.notification("older", minutesAgo: 60 * 24 * 4)
    older.threadID = "t"
    let recent = [
      Ported.notification("n1", minutesAgo: 1), Ported.notification("n2", minutesAgo: 2),
    ]
    var state = Feature.State()
    state.shown = NotificationFeed(uniqueElements: recent + [old, older])
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let sections = state.daySections(now: Ported.start, calendar: calendar)
    #expect(sections.map(\.day) == [.today, .earlier])
    #expect(sections.first?.notifications.map(\.id) == ["n1", "n2"])
    let groups: [[String]] = state.threadGroups.map { $0.map(\.id) }
    #expect(groups == [["n1"], ["n2"], ["old", "older"]])
  }
}
