import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// A clear-all is bounded by the newest notification the person has had listed: one that
/// arrives later is spared, also when the list is empty because the person's own changes,
/// not answered yet, emptied it.
@MainActor
struct NotificationFeatureClearAllTests {
  /// Offline, the person clears all, then taps Clear all again on the list the first one
  /// emptied. Another device adds n3 meanwhile. Back online both clear-alls are sent: n3 stays.
  @Test func aSecondClearAllOnTheListTheFirstEmptiedSparesWhatArrivedAfter() async {
    let backend = InMemoryNotificationBackend(seed: [Self.n1, Self.n2])
    let (store, clock) = await Self.launchOffline(backend)
    await store.send(.clearAll)
    await store.receive(where: { if case .changeFailed = $0 { true } else { false } })
    #expect(store.state.shown.isEmpty)
    await store.send(.clearAll)
    let bounds = store.state.log.records.map(\.intent)
    #expect(bounds == Array(repeating: .deleteAll(upTo: FeedPosition(Self.n1)), count: 2))

    backend.insert(Ported.notification("n3", version: nil, minutesAgo: 1))
    await Self.reconnect(backend, store, clock, answers: 2)
    #expect(backend.notifications.map(\.id) == ["n3"])
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// The same when the person emptied the list one delete at a time: the clear-all is bounded
  /// by the newest notification deleted, not unbounded.
  @Test func aClearAllOnAListDeletesEmptiedSparesWhatArrivedAfter() async {
    let backend = InMemoryNotificationBackend(seed: [Self.n1, Self.n2])
    let (store, clock) = await Self.launchOffline(backend)
    await store.send(.delete("n2"))
    await store.send(.delete("n1"))
    #expect(store.state.shown.isEmpty)
    await store.send(.clearAll)
    #expect(
      store.state.log.records.last?.intent == .deleteAll(upTo: FeedPosition(Self.n1)))

    backend.insert(Ported.notification("n3", version: nil, minutesAgo: 1))
    await Self.reconnect(backend, store, clock, answers: 3)
    #expect(backend.notifications.map(\.id) == ["n3"])
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// With nothing listed at all (nothing loaded, nothing hidden), a clear-all covers every
  /// notification, as documented.
  @Test func aClearAllWithNothingListedCoversEverything() async {
    // Offline from the start: the server's notifications are never listed.
    let backend = InMemoryNotificationBackend(seed: [Self.n1, Self.n2])
    backend.updateFaults { $0.failureRate = 1 }
    let clock = TestClock()
    let store = Ported.makeStore(
      backend: Ported.Backend(pages: []), clock: clock, client: backend.client)
    store.exhaustivity = .off
    await store.send(.onAppear)
    #expect(store.state.shown.isEmpty)
    await store.send(.clearAll)
    #expect(store.state.log.records.map(\.intent) == [.deleteAll(upTo: nil)])
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// Launched, listing the backend, then cut off: every call fails and the stream drops.
  private static func launchOffline(
    _ backend: InMemoryNotificationBackend
  ) async -> (Ported.Store, TestClock) {
    let clock = TestClock()
    let store = Ported.makeStore(
      backend: Ported.Backend(pages: []), clock: clock, client: backend.client)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(.updatesConnected)
    #expect(store.state.shown.ids == backend.notifications.map(\.id))
    backend.updateFaults { $0.failureRate = 1 }
    backend.dropUpdates()
    return (store, clock)
  }

  /// Back online: the queued changes are sent, and `answers` are received.
  private static func reconnect(
    _ backend: InMemoryNotificationBackend, _ store: Ported.Store, _ clock: TestClock,
    answers: Int
  ) async {
    backend.updateFaults { $0.failureRate = 0 }
    await clock.advance(by: .seconds(2))
    for _ in 0..<answers {
      await store.receive(where: { if case .changeAnswered = $0 { true } else { false } })
    }
  }

  /// The seeds' newest, the bound of a clear-all of the list they make.
  private static let n1 = Ported.notification("n1", version: nil, minutesAgo: 2)
  private static let n2 = Ported.notification("n2", version: nil, minutesAgo: 3)
}
