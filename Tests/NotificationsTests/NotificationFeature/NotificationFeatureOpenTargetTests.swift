import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Opening an entity's screen (`markTargetRead`) marks read every unread notification about
/// it: those shown at once, and those the server has beyond what is held once fetched. Ported
/// from `OpenTargetTests`; the other two rules are
/// `NotificationFeatureAppTests.openingAnEntityMarksReadWhatItFetchesUnlessChangedSinceTheOpening`.
@MainActor
struct NotificationFeatureOpenTargetTests {
  typealias Feature = NotificationFeature

  init() {}

  static let contact = NotificationTarget.contact(contactID: "c1")
  /// n1 is about contact c1, n2 about alert a1; n3 is read.
  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1, target: contact)
  static let n2 = Ported.notification(
    "n2", version: 2, minutesAgo: 2, target: .alert(alertID: "a1"))
  static let n3 = Ported.notification("n3", isRead: true, version: 2, minutesAgo: 3)
  /// On pages not loaded: x1 and x2 about c1.
  static let x1 = Ported.notification("x1", version: 1, minutesAgo: 100, target: contact)
  static let x2 = Ported.notification(
    "x2", version: 1, minutesAgo: 200, target: .ping(pingID: "p9", contactID: "c1"))

  /// The first page: n1 and n2 unread, and `unreadTotal` unread on the server.
  static func page(unreadTotal: Int, allRead: Bool = false) -> NotificationPage {
    let items = allRead ? [Ported.read(n1), Ported.read(n2), n3] : [n1, n2, n3]
    return NotificationPage(
      items: items, nextCursor: "p2", hasMore: true, unreadTotal: unreadTotal, changeCursor: 5)
  }

  /// A store launched over `backend`, whose first page is `page`.
  func launched(_ page: NotificationPage, backend: Ported.Backend) async -> Ported.Store {
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: page)
    return store
  }

  /// Opened before the launch has read what was saved: what the server has about the entity
  /// is asked for once it has, so a notification a saved clear-all deletes is neither shown
  /// nor marked read (lifetime seed 13695547595122874237: it was shown, and a mark-all of it
  /// queued, until the restore).
  @Test func openedBeforeTheSavedLogIsReadAsksTheServerOnceItIs() async {
    let loaded = TestContinuation<ChangeLog>()
    let saved = ChangeLogStore(load: { try await loaded.value }, write: { _ in })
    var queued = ChangeLog()
    queued.record(.deleteAll(upTo: nil), id: UUID(100))
    let first = TestContinuation<NotificationPage>()
    let answer = TestContinuation<ChangeCursor?>()
    let backend = Ported.Backend(
      pages: [.held(first)], answers: [.held(answer)], unread: [Self.x1])
    let store = Ported.makeStore(backend: backend, saved: saved)
    await store.send(.onAppear) { $0.launch = .restoring() }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.launch.arrived?.targetsOpened = [Feature.TargetOpening(.contact("c1"), after: nil)]
    }
    for _ in 0..<20 { await Task.yield() }
    #expect(backend.unreadAsked.withLock { $0 }.isEmpty)
    loaded.resume(returning: queued)
    store.exhaustivity = .off
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [Self.x1], cursor: nil, after: UUID(100)))
    #expect(backend.unreadAsked.withLock { $0 } == [.contact("c1")])
    #expect(store.state.shown.isEmpty)
    #expect(store.state.log.records.map(\.intent) == [.deleteAll(upTo: nil)])
    #expect(backend.sentIntents == [.deleteAll(upTo: nil)])
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// The saved changes are older than an opening made while they are read: an earlier
  /// launch's "unread" of x1 does not keep x1 unread once the server's copy is fetched.
  @Test func savedChangesAreOlderThanAnOpeningMadeWhileTheyAreRead() async {
    let loaded = TestContinuation<ChangeLog>()
    let saved = ChangeLogStore(load: { try await loaded.value }, write: { _ in })
    var queued = ChangeLog()
    queued.record(.markAsUnread("x1"), id: UUID(100))
    let backend = Ported.Backend(
      pages: [.held(TestContinuation<NotificationPage>())], answers: [.at(6), .at(7)],
      unread: [Self.x1])
    let store = Ported.makeStore(backend: backend, saved: saved)
    await store.send(.onAppear) { $0.launch = .restoring() }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.launch.arrived?.targetsOpened = [Feature.TargetOpening(.contact("c1"), after: nil)]
    }
    loaded.resume(returning: queued)
    store.exhaustivity = .off
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [Self.x1], cursor: nil, after: UUID(100)))
    #expect(store.state.shown[id: "x1"]?.isRead == true)
    #expect(store.state.log.records.contains { $0.intent == .markAllAsRead(["x1"]) })
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// The server's total counts no unread notification beyond those shown: nothing is fetched.
  @Test func noFetchWhenTheServerHasNoUnreadNotificationNotHeld() async {
    let page = Self.page(unreadTotal: 2)
    let backend = Ported.Backend(pages: [page], answers: [.at(7)])
    let store = await launched(page, backend: backend)
    await store.send(.markTargetRead(.alert("a1"))) {
      $0.log.record(.markAllAsRead(["n2"]), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n2"]?.isRead = true
    }
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(backend.unreadAsked.withLock { $0 }.isEmpty)
    #expect(backend.sentIntents == [.markAllAsRead(["n2"])])
    await Ported.leave(store)
  }

  /// Opened while the first page is on its way: nothing is held, so every unread notification
  /// about it is fetched, held, and marked read; the first page, made before, leaves it read.
  @Test func beforeTheFirstPageEveryUnreadNotificationAboutItIsFetched() async {
    let first = TestContinuation<NotificationPage>()
    let page = Self.page(unreadTotal: 5)
    let backend = Ported.Backend(
      pages: [.held(first)], answers: [.at(7)], unreadAnswers: [.unread([Self.x1])])
    let store = Ported.makeStore(backend: backend)
    await Ported.appearWithNothingSaved(store)
    await store.send(.markTargetRead(.contact("c1")))
    await store.receive(.targetUnreadLoaded(.contact("c1"), [Self.x1], cursor: nil, after: nil)) {
      $0.server.fetched(Self.x1)
      $0.log.serverListed(["x1"])
      $0.log.record(.markAllAsRead(["x1"]), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [Ported.read(Self.x1)]
    }
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    first.resume(returning: page)
    await Ported.receiveFirstPage(page, in: store)
    await store.receive(.updatesConnected) { $0.connection = .live }
    // n1 and n2, and two more the server has beyond the first page: x1 is read.
    await store.receive(.delegate(.unreadCountChanged(4)))
    #expect(store.state.shown.ids == ["n1", "n2", "n3", "x1"])
    #expect(store.state.shown[id: "x1"]?.isRead == true)
    #expect(backend.unreadAsked.withLock { $0 } == [.contact("c1")])
    #expect(backend.sentIntents == [.markAllAsRead(["x1"])])
    await Ported.leave(store)
  }

  /// The fetch fails: those shown stay read, and the error is shown.
  @Test func aFailedFetchLeavesTheShownOnesReadAndShowsTheError() async {
    let unread = TestContinuation<[NotificationData]>()
    let page = Self.page(unreadTotal: 5)
    let backend = Ported.Backend(
      pages: [.page(page)], answers: [.at(7)], unreadAnswers: [.held(unread)])
    let store = await launched(page, backend: backend)
    await store.send(.markTargetRead(.alert("a1"))) {
      $0.log.record(.markAllAsRead(["n2"]), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n2"]?.isRead = true
    }
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    await store.receive(.delegate(.unreadCountChanged(4)))
    unread.resume(throwing: UserFacingError.server(status: 500))
    await store.receive(.targetUnreadFailed(.alert("a1"), .server(status: 500))) {
      $0.error = .server(status: 500)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 500))))
    #expect(store.state.shown[id: "n2"]?.isRead == true)
    await Ported.leave(store)
  }

  /// Found in review of the old feature: a clear-all answered while the fetch was on its way
  /// holds for its answer, which the server made before it: the cleared notifications do not
  /// come back.
  @Test func aClearAllAnsweredWhileTheFetchIsOnItsWayHoldsForItsAnswer() async {
    let unread = TestContinuation<[NotificationData]>()
    let page = Self.page(unreadTotal: 2, allRead: true)
    let backend = Ported.Backend(
      pages: [.page(page)], answers: [.at(7)], unreadAnswers: [.held(unread)])
    let store = await launched(page, backend: backend)
    await store.send(.markTargetRead(.contact("c1")))
    await store.send(.clearAll) {
      $0.log.record(.deleteAll(upTo: FeedPosition(Self.n1)), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = []
    }
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7)
      $0.server.noneUnreadNotHeld(at: 7)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // Made before the clear-all reached the server.
    unread.resume(returning: [Self.x1, Self.x2])
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [Self.x1, Self.x2], cursor: 5, after: nil)
    ) {
      $0.server.fetched(Self.x1)
      $0.server.fetched(Self.x2)
      $0.log.serverListed(["x1", "x2"])
    }
    #expect(store.state.shown.isEmpty)
    #expect(store.state.unreadCount == 0)
    #expect(backend.sentIntents == [.deleteAll(upTo: FeedPosition(Self.n1))])
    await Ported.leave(store)
  }

  /// Two entities opened one after the other, the first's fetch slow: a notification the person
  /// marked unread between the two opens is marked read by the second, opened after.
  @Test func aNotificationMarkedUnreadBeforeASecondOpenIsMarkedReadByIt() async {
    let alert = TestContinuation<[NotificationData]>()
    let page = Self.page(unreadTotal: 2, allRead: true)
    // x1 is read on the server; the person's unread reaches it at 6.
    let unreadX1 = Ported.notification("x1", version: 6, minutesAgo: 100, target: Self.contact)
    let backend = Ported.Backend(
      pages: [.page(page)], answers: [.at(6), .at(8)],
      unreadAnswers: [.held(alert), .unread([unreadX1])])
    let store = await launched(page, backend: backend)
    await store.send(.markTargetRead(.alert("a9")))
    // x1 (not held) marked unread while the alert's fetch is on its way, before c1 is opened.
    await store.send(.markAsUnread("x1")) {
      $0.log.record(.markAsUnread("x1"), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    await store.send(.markTargetRead(.contact("c1")))
    // The feed's cursor is still 5 (the live stream has not delivered x1's change at 6), but
    // the answer at 6 came before the opening: the server was at 6 then, and the copy at 6 was
    // not changed since.
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [unreadX1], cursor: 6, after: UUID(0))
    ) {
      $0.server.fetched(unreadX1)
      $0.log.serverListed(["x1"])
      $0.log.record(.markAllAsRead(["x1"]), id: UUID(1))
      $0.log.markSending(UUID(1))
      $0.shown.append(Ported.read(unreadX1, version: 6))
    }
    // The copy held reflects the unread answered at 6, which leaves.
    await store.receive(.changeAnswered(UUID(1), 8)) {
      $0.log.acknowledge(UUID(1), at: 8)
      Ported.forgetSeen(&$0, reflectedIn: ["x1"])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(store.state.shown[id: "x1"]?.isRead == true)
    #expect(backend.sentIntents == [.markAsUnread("x1"), .markAllAsRead(["x1"])])
    alert.resume(returning: [])
    await store.receive(.targetUnreadLoaded(.alert("a9"), [], cursor: 5, after: nil))
    await Ported.leave(store)
  }
}
