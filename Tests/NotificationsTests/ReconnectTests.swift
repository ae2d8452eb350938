import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The live stream over a whole lifetime, against the in-memory backend: it is live as soon as
/// it opens, catches up from the newest cursor on every connect, reconnects with backoff that
/// starts again from zero after every healthy connection, and gives up only when it cannot
/// connect.
@MainActor
struct ReconnectTests {
  /// Every cursor the feature opened the stream after, and caught up from.
  final class Calls: Sendable {
    let opened = LockedState<[ChangeCursor?]>([])
    let caughtUp = LockedState<[ChangeCursor]>([])
  }

  /// The backend's client, recording the cursors the feature passes.
  func recording(_ backend: InMemoryNotificationBackend, into calls: Calls) -> NotificationClient {
    var client = backend.client
    let updates = client.updates
    let changesSince = client.changesSince
    client.updates = { since in
      calls.opened.withLock { $0.append(since) }
      return try await updates(since)
    }
    client.changesSince = { cursor in
      calls.caughtUp.withLock { $0.append(cursor) }
      return try await changesSince(cursor)
    }
    return client
  }

  /// A store that has loaded once (so appearing only opens the streams), on a test clock.
  func makeReconnectingStore(
    _ client: NotificationClient, clock: TestClock
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    var state = NotificationsFeature.State()
    state.hasLoadedOnce = true
    return makeStore(state: state) {
      $0.notificationClient = client
      $0.continuousClock = clock
      $0.pushClient.responses = { AsyncStream { $0.finish() } }
    }
  }

  /// A notification newer than every one before it.
  func newer(_ index: Int) -> NotificationData {
    Fixtures.notification("n\(index)", minutesAgo: -Double(index))
  }

  @Test func aQuietStreamIsLiveAsSoonAsItOpens() async {
    let backend = InMemoryNotificationBackend()
    let store = makeReconnectingStore(backend.client, clock: TestClock())
    await store.send(.onAppear) { $0.connection = .connecting }
    // No event has arrived, and none needs to.
    await store.receive(.updatesConnected) { $0.connection = .live }
    #expect(backend.openUpdateStreams == 1)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func everyDropAfterAHealthyConnectionReconnectsWithBackoffFromZero() async {
    let backend = InMemoryNotificationBackend()
    let calls = Calls()
    let clock = TestClock()
    let store = makeReconnectingStore(recording(backend, into: calls), clock: clock)
    var backoff = Backoff()
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }

    // The attempt the current connection was opened by: 0 from appearing, 1 from a reconnect.
    var attempt = 0
    var cursor = 0
    var index = 0
    var newestAtEachReconnect: [ChangeCursor] = []
    for drop in 1...8 {
      // A healthy connection: some hear a change, some stay quiet. (The first hears one: with
      // no cursor yet there is nothing to catch up from.)
      if !drop.isMultiple(of: 2) {
        index += 1
        var heard = newer(index)
        backend.insert(heard)
        cursor += 1
        heard.version = ChangeCursor(UInt64(cursor))
        await store.receive(.liveEvent(NotificationEvent(.inserted(heard), cursor: ChangeCursor(UInt64(cursor))))) {
          $0.newestCursor = ChangeCursor(UInt64(cursor))
          $0.notifications.insert(heard, at: 0)
        }
        await store.receive(.delegate(.unreadCountChanged(index)))
      }

      backend.dropUpdates()
      // However many drops came before, the first retry waits the shortest backoff.
      await store.receive(.updatesFailed(.network, attempt: attempt)) {
        $0.connection = .reconnecting(attempt: 1)
      }
      // A change made while the stream is down.
      index += 1
      var missed = newer(index)
      backend.insert(missed)
      cursor += 1
      missed.version = ChangeCursor(UInt64(cursor))
      newestAtEachReconnect.append(ChangeCursor(UInt64(cursor - 1)))
      let delay = backoff.next(attempt: 0)
      #expect(delay >= .milliseconds(500) && delay < .seconds(1), "drop \(drop)")
      await clock.advance(by: delay)
      await store.receive(.reconnect(attempt: 1))
      await store.receive(.updatesConnected) { $0.connection = .live }
      // Caught up from the newest cursor before anything live; the stream's replay of the same
      // change is not applied twice.
      await store.receive(.caughtUp([NotificationEvent(.inserted(missed), cursor: ChangeCursor(UInt64(cursor)))])) {
        $0.newestCursor = ChangeCursor(UInt64(cursor))
        $0.notifications.insert(missed, at: 0)
      }
      await store.receive(.delegate(.unreadCountChanged(index)))
      attempt = 1
    }

    // Each reconnect opened the stream after, and caught up from, the newest cursor it had.
    #expect(newestAtEachReconnect == [1, 2, 4, 5, 7, 8, 10, 11])
    #expect(calls.opened.withLock { $0 } == [nil] + newestAtEachReconnect)
    #expect(calls.caughtUp.withLock { $0 } == newestAtEachReconnect)
    #expect(store.state.notifications.count == 12)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func aNonRetryableFailureGivesUpUntilTheFeatureAppearsAgain() async {
    let backend = InMemoryNotificationBackend()
    backend.failNext(1, with: .unauthorized)
    let store = makeReconnectingStore(backend.client, clock: TestClock())
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesFailed(.unauthorized, attempt: 0)) { $0.connection = .offline }
    #expect(backend.openUpdateStreams == 0)

    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func aLiveConnectionRefusedForGoodGoesOfflineAtOnce() async {
    let backend = InMemoryNotificationBackend()
    let clock = TestClock()
    let store = makeReconnectingStore(backend.client, clock: clock)
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    // Even right after a healthy connection, a permanent failure is not retried.
    backend.dropUpdates(with: .unauthorized)
    await store.receive(.updatesFailed(.unauthorized, attempt: 0)) { $0.connection = .offline }
    await clock.run()
  }

  @Test func attemptsThatNeverConnectGiveUpAfterTheLastRetry() async {
    let backend = InMemoryNotificationBackend()
    let maximum = NotificationsFeature.maximumReconnectAttempts
    // The first try and every retry fail to open.
    backend.failNext(maximum + 1, with: .network)
    let clock = TestClock()
    let store = makeReconnectingStore(backend.client, clock: clock)
    var backoff = Backoff()
    await store.send(.onAppear) { $0.connection = .connecting }
    for attempt in 0..<maximum {
      await store.receive(.updatesFailed(.network, attempt: attempt)) {
        $0.connection = .reconnecting(attempt: attempt + 1)
      }
      // Never healthy, so the backoff grows: 1, 2, 4, 8, 16 seconds, times 0.5 to 1.
      let delay = backoff.next(attempt: attempt)
      #expect(delay >= .seconds(1 << attempt) / 2 && delay < .seconds(1 << attempt))
      await clock.advance(by: delay)
      await store.receive(.reconnect(attempt: attempt + 1))
    }
    await store.receive(.updatesFailed(.network, attempt: maximum)) { $0.connection = .offline }
    await clock.run()

    // Appearing again starts over, and the stream catches on.
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func appearingAgainSupersedesAScheduledReconnect() async {
    let backend = InMemoryNotificationBackend()
    backend.failNext(1, with: .network)
    let clock = TestClock()
    let store = makeReconnectingStore(backend.client, clock: clock)
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    // The retry that was waiting never fires to tear down the live stream.
    await clock.run()
    #expect(store.state.connection == .live)
    #expect(backend.openUpdateStreams == 1)
    await store.send(.onDisappear) { $0.connection = .offline }
  }
}

/// The delays the feature's backoff draws, in order: the same formula on the generator the test
/// store's `randomNumberGenerator` uses (seed 1, see `useFeatureDefaults`).
struct Backoff {
  var generator = SeededRandomNumberGenerator(seed: 1)

  mutating func next(attempt: Int) -> Duration {
    let base = min(60.0, pow(2.0, Double(attempt)))
    let jitter = Double.random(in: 0.5..<1.0, using: &generator)
    return .milliseconds(Int((base * jitter * 1_000).rounded()))
  }
}
