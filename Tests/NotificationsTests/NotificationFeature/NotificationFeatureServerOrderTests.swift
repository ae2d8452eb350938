import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What the server says is ordered by its cursors: a page or an event made before a change
/// (the person's, answered, or another device's, heard live) and arriving after it does not
/// undo it, each answer held back until the change is in; and a backend whose cursors started
/// again (its database made anew) is followed from the snapshot it answers a catch-up with.
/// Ported from `ServerOrderTests` (three of its tests; the others are covered) and
/// `CatchUpReplayTests` (one; the others are covered): see
/// Docs/Porting-the-old-engine-tests.md.
@MainActor
struct NotificationFeatureServerOrderTests {
  typealias Event = NotificationEvent

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let n3 = Ported.notification("n3", isRead: true, version: 2, minutesAgo: 3)
  /// n1 and n2 unread, n3 read, the whole feed at 5.
  static let page = NotificationPage(items: [n1, n2, n3], changeCursor: 5)
  /// Made on the server at 6, newer than every notification of ``page``.
  static let n0 = Ported.notification("n0", version: 6, minutesAgo: 0.5)

  /// The whole feed at 6, n0 new and n1 unread as ``page`` lists it: read by the server before
  /// a change made after 6.
  static let pageAt6 = NotificationPage(items: [n0, n1, n2, n3], changeCursor: 6)

  /// A store launched over ``page`` whose next first page is held by `late` and whose answers
  /// to changes are `answers`.
  func launched(
    refreshHeldBy late: TestContinuation<NotificationPage>, answers: [Ported.Backend.Answer] = []
  ) async -> (Ported.Store, Ported.Backend) {
    let backend = Ported.Backend(pages: [.page(Self.page), .held(late)], answers: answers)
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    return (store, backend)
  }

  /// Answers the held refresh with the page the server read at 6: it replaces the listing, and
  /// n0, new in it, is shown (the unread count goes to 2).
  func answerRefresh(
    _ late: TestContinuation<NotificationPage>, of store: Ported.Store,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    late.resume(returning: Self.pageAt6)
    await store.receive(
      .pageLoaded(Self.pageAt6, first: true),
      assert: {
        $0.paging.isLoading = false
        $0.server.replace(with: Self.pageAt6)
        $0.shown.insert(Self.n0, at: 0)
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await store.receive(
      .delegate(.unreadCountChanged(2)), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// A refresh asked for before the person's read, read by the server at 6 and answered after
  /// the read's answer at 7, lists n1 unread: n1 stays read (the record, acknowledged at 7, is
  /// replayed on the page's older copy, and stays until the feed sees 7), and the rest of the
  /// page is shown.
  @Test func aPageReadBeforeAConfirmedReadAndAnsweredAfterItLeavesItRead() async {
    let late = TestContinuation<NotificationPage>()
    let answer = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched(refreshHeldBy: late, answers: [.held(answer)])
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    answer.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    await answerRefresh(late, of: store)
    #expect(store.state.shown.map(\.isRead) == [false, true, false, true])
    #expect(backend.sentIntents == [.markAsRead("n1")])
    await Ported.leave(store)
  }

  /// A refresh asked for before another device read and retitled n1 at 8, heard live, is
  /// answered with the page the server read at 6, which lists n1 as it was: n1 keeps the live
  /// change, in what is shown and in the server's copy the log is replayed on (so nothing
  /// later undoes it), and the rest of the page is shown.
  @Test func aPageReadBeforeAnotherDevicesChangeAndAnsweredAfterItKeepsTheChange() async {
    let late = TestContinuation<NotificationPage>()
    let (store, _) = await launched(refreshHeldBy: late)
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    var changed = Ported.read(Self.n1, version: 8)
    changed.title = "Edited"
    let event = Event(.updated(changed), cursor: 8)
    await store.send(.liveEvent(event)) {
      $0.server.apply(event)
      $0.shown[id: "n1"] = changed
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await answerRefresh(late, of: store)
    #expect(store.state.shown[id: "n1"] == changed)
    #expect(store.state.server.notifications[id: "n1"] == changed)
    #expect(store.state.server.current == 8)
    await Ported.leave(store)
  }

  /// The person marks everything read (answered at 8: n1 read at 7, n2 at 8); the stream drops,
  /// and the catch-up from the feed's cursor (5) replays another device's edit of n1 at 6, which
  /// still says unread, then the mark-all's own changes. n1 stays read throughout, and the badge
  /// stays at 0: the 3 unread notifications the first page's total counted beyond what it
  /// listed were read by the mark-all, and are not counted again once the record leaves.
  @Test func aReplayedUnreadOlderThanAConfirmedMarkAllLeavesItRead() async {
    let first = NotificationPage(
      items: [Self.n1, Self.n2, Self.n3], nextCursor: "n3", hasMore: true, unreadTotal: 5,
      changeCursor: 5)
    let markAll = TestContinuation<ChangeCursor?>()
    let backend = Ported.Backend(pages: [first], answers: [.held(markAll)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: first)
    await store.send(.markAllAsRead) {
      $0.log.record(.markAllAsRead(nil), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
      $0.shown[id: "n2"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    markAll.resume(returning: 8)
    await store.receive(.changeAnswered(UUID(0), 8)) {
      $0.log.acknowledge(UUID(0), at: 8)
      $0.server.noneUnreadNotHeld(at: 8)
    }
    var edited = Ported.unread(Self.n1, version: 6)
    edited.title = "Edited"
    let unreadAt6 = Event(.updated(edited), cursor: 6)
    let readAt7 = Event(.updated(Ported.read(edited, version: 7)), cursor: 7)
    let n2ReadAt8 = Event(.updated(Ported.read(Self.n2, version: 8)), cursor: 8)
    backend.catchUp.withLock { $0 = [unreadAt6, readAt7, n2ReadAt8] }
    await store.send(.reconnect(attempt: 1)) { $0.connection = .reconnecting(attempt: 1) }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.liveEvent(unreadAt6)) {
      $0.server.apply(unreadAt6)
      $0.shown[id: "n1"] = Ported.read(edited)
    }
    await store.receive(.liveEvent(readAt7)) {
      $0.server.apply(readAt7)
      $0.shown[id: "n1"] = Ported.read(edited, version: 7)
    }
    // The feed has seen 8: the mark-all leaves, and every copy is the server's.
    await store.receive(.liveEvent(n2ReadAt8)) {
      $0.server.apply(n2ReadAt8)
      Ported.forgetSeen(&$0, reflectedIn: ["n2"])
      $0.shown[id: "n2"] = Ported.read(Self.n2, version: 8)
    }
    #expect(store.state.log.isEmpty)
    #expect(store.state.unreadCount == 0)
    #expect(backend.opened.withLock { $0 } == [5, 5])
    await Ported.leave(store)
  }

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
