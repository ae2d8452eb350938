import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What the server says is ordered by its cursors; a backend whose cursors started again (its
/// database made anew) is followed from the snapshot it answers a catch-up with. Ported from
/// `CatchUpReplayTests` (the other order rules are covered: see
/// Docs/Porting-the-old-engine-tests.md).
@MainActor
struct NotificationFeatureServerOrderTests {
  typealias Event = NotificationEvent

  init() {}

  /// The server's database was made anew: its cursors started again, and the catch-up from
  /// the list's cursor (120) answers with a snapshot at 3. The list becomes the snapshot, the
  /// records the old log acknowledged leave, and the changes after it apply.
  @Test func aServerWhoseCursorsStartedAgainIsFollowedFromItsSnapshot() async {
    let old = Ported.notification("old", version: 100, minutesAgo: 5)
    let page = NotificationPage(items: [old], changeCursor: 120)
    let fresh = Ported.notification("f1", version: 3, minutesAgo: 1)
    let snapshot = Event(.snapshot([fresh]), cursor: 3)
    // The read is answered at 125, beyond the feed's cursor: kept until the feed sees 125.
    let backend = Ported.Backend(pages: [.page(page)], answers: [.at(125)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: page)
    await store.send(.markAsRead("old")) {
      $0.log.record(.markAsRead("old"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "old"]?.isRead = true
    }
    await store.receive(.changeAnswered(UUID(0), 125)) { $0.log.acknowledge(UUID(0), at: 125) }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // The stream drops; the catch-up from 120 finds the new log.
    backend.catchUp.withLock { $0 = [snapshot] }
    await store.send(.reconnect(attempt: 1)) { $0.connection = .reconnecting(attempt: 1) }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.feedStartedAgain(snapshot)) {
      $0.server = ServerFeed()
      $0.server.apply(snapshot)
      $0.log.forget(upTo: ChangeCursor(.max))
      $0.shown = [fresh]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(backend.opened.withLock { $0 } == [120, 120])
    let next = Ported.notification("f2", version: 4, minutesAgo: 0.5)
    await store.send(.liveEvent(Event(.inserted(next), cursor: 4))) {
      $0.server.apply(Event(.inserted(next), cursor: 4))
      $0.shown = [next, fresh]
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.shown.ids == ["f2", "f1"])
    await Ported.leave(store)
  }
}
