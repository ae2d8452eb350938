import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// The person's changes as they are shown: at once, kept over what the server says until it
/// reflects them, and, when the server refuses one, the server's copy shown again with the
/// error (and the person's newer changes kept). Ported from `OptimisticChangeTests`.
@MainActor
struct NotificationFeatureChangeTests {
  typealias Feature = NotificationFeature

  init() {}

  nonisolated static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let n3 = Ported.notification("n3", isRead: true, version: 2, minutesAgo: 3)
  /// n1 and n2 unread, n3 read, the whole feed at 5.
  static let page = NotificationPage(items: [n1, n2, n3], changeCursor: 5)

  /// A store launched over ``page`` whose answers to changes are `answers`.
  func launched(_ answers: [Ported.Backend.Answer], clock: any Clock<Duration> = ImmediateClock())
    async -> (Ported.Store, Ported.Backend)
  {
    await Ported.launched(listing: Self.page, answers: answers, clock: clock)
  }

  @Test func aReadIsShownAtOnceAndSentWithItsID() async {
    let answer = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched([.held(answer)])
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    #expect(backend.sent == [ChangeRequest(id: UUID(0), .markAsRead("n1"))])
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    await Ported.leave(store)
  }

  /// A change is written before it is sent: while its row's write waits, the server has been
  /// asked nothing.
  @Test func aChangeIsSentOnlyOnceItsRowIsWritten() async {
    let written = TestContinuation<Void>()
    let saved = ChangeLogStore(load: { ChangeLog() }, write: { _ in try await written.value })
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.at(6)], saved: saved)
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    for _ in 0..<20 { await Task.yield() }
    #expect(backend.sent.isEmpty)
    written.resume(returning: ())
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    #expect(backend.sent == [ChangeRequest(id: UUID(0), .markAsRead("n1"))])
    await Ported.leave(store)
  }

  /// The server's answer is saved by the task that sent the change, before the answer reaches
  /// the store, as a replacement of the record's row: the answer itself starts no write (no
  /// task of its own), and a row the store no longer holds is not brought back.
  @Test func theAnswerIsSavedByTheTaskThatSentTheChange() async {
    let calls = LockedState<[[ChangeLog.Write]]>([])
    let saved = ChangeLogStore(
      load: { ChangeLog() }, write: { writes in calls.withLock { $0.append(writes) } })
    let (store, _) = await Ported.launched(listing: Self.page, answers: [.at(6)], saved: saved)
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.changeAnswered(UUID(0), 6)) {
      $0.log.acknowledge(UUID(0), at: 6, isSaved: true)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await Ported.leave(store)
    var answered = ChangeRecord(id: UUID(0), intent: .markAsRead("n1"))
    answered.status = .acknowledged(6)
    #expect(
      calls.withLock { $0 } == [
        [.saveRecord(ChangeRecord(id: UUID(0), intent: .markAsRead("n1")))],
        [.replaceRecord(answered)],
      ])
  }

  /// A newer copy from the server (another field changed) while the read is on its way is
  /// shown with the read kept on it.
  @Test func aLiveUpdateWhileAChangeIsOnItsWayDoesNotUndoIt() async {
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await launched([.held(answer)])
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    var edited = Ported.unread(Self.n1, version: 6)
    edited.title = "Edited"
    let event = NotificationEvent(.updated(edited), cursor: 6)
    await store.send(.liveEvent(event)) {
      $0.server.apply(event)
      $0.shown[id: "n1"] = Ported.read(edited)
    }
    answer.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    #expect(store.state.shown[id: "n1"] == Ported.read(edited))
    await Ported.leave(store)
  }

  /// Another device's change newer than the person's, heard while the person's was on its way,
  /// is shown once the person's is answered at an older cursor: the record is not replayed on
  /// the newer copy any more.
  @Test func anAnswerOlderThanTheCopyHeldShowsTheCopy() async {
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await launched([.held(answer)])
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The server applied the read at 7; another device marked it unread again at 8.
    let unreadAgain = Ported.unread(Self.n1, version: 8)
    let event = NotificationEvent(.updated(unreadAgain), cursor: 8)
    await store.send(.liveEvent(event)) {
      $0.server.apply(event)
      $0.shown[id: "n1"] = Ported.read(unreadAgain)
    }
    answer.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7, isSaved: true)
      $0.log.forget(reflectedIn: ["n1"]) { _ in unreadAgain }
      $0.shown[id: "n1"] = unreadAgain
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.shown[id: "n1"]?.isRead == false)
    await Ported.leave(store)
  }

  nonisolated static func intent(of action: Feature.Action) -> ChangeIntent? {
    switch action {
    case .markAsRead(let id): .markAsRead(id)
    case .markAsUnread(let id): .markAsUnread(id)
    case .delete(let id): .delete(id)
    case .markAllAsRead: .markAllAsRead(nil)
    case .clearAll: .deleteAll(upTo: FeedPosition(n1))
    default: nil
    }
  }

  nonisolated static let changes: [Feature.Action] = [
    .markAsRead("n1"), .markAsUnread("n3"), .markAllAsRead, .delete("n2"), .clearAll,
  ]

  /// Each kind of change the server refuses for good leaves: the notifications it changed are
  /// shown as the server has them, in their places (n3, read before a mark-all, stays read),
  /// and the error is shown and told to the parent.
  @Test(arguments: changes)
  func aRefusedChangeShowsTheServersCopyAgainWithTheError(_ action: Feature.Action) async throws {
    let intent = try #require(Self.intent(of: action))
    let answer = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched([.held(answer)])
    let before = store.state.unreadCount
    await store.send(action) {
      $0.log.record(intent, id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.reshowAll()
    }
    let during = store.state.unreadCount
    #expect(during != before)
    await store.receive(.delegate(.unreadCountChanged(during)))
    answer.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.changeFailed(UUID(0), .server(status: 400))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 400), at: Ported.start)
      $0.error = .server(status: 400)
      $0.reshowAll()
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(before)))
    #expect(store.state.shown == NotificationFeed(uniqueElements: Self.page.items))
    #expect(store.state.log.isEmpty)
    #expect(backend.sentIntents == [intent])
    await store.send(.dismissError) { $0.error = nil }
    await Ported.leave(store)
  }

  /// Lifetime seed 9 of the old feature: a deletion refused after a newer notification was
  /// listed shows the notification again in its place by time, not at its old index.
  @Test func aRefusedDeletionShowsTheNotificationInItsPlaceAfterTheListChanged() async {
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await launched([.held(answer)])
    await store.send(.delete("n2")) {
      $0.log.record(.delete("n2"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown.remove(id: "n2")
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let newer = Ported.notification("n0", version: 6, minutesAgo: 0.5)
    let inserted = NotificationEvent(.inserted(newer), cursor: 6)
    await store.send(.liveEvent(inserted)) {
      $0.server.apply(inserted)
      $0.shown.insert(newer, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    answer.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.changeFailed(UUID(0), .server(status: 400))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 400), at: Ported.start)
      $0.error = .server(status: 400)
      $0.shown.insert(Self.n2, at: 2)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(3)))
    #expect(store.state.shown.ids == ["n0", "n1", "n2", "n3"])
    await Ported.leave(store)
  }

  /// Lifetime seed 47 of the old feature: a page the server made before it applied a deletion,
  /// answered after the deletion's answer, does not list the deleted notification again.
  @Test func aPageMadeBeforeAnAnsweredDeletionDoesNotListItAgain() async {
    let late = TestContinuation<NotificationPage>()
    let answer = TestContinuation<ChangeCursor?>()
    let backend = Ported.Backend(
      pages: [.page(Self.page), .held(late)], answers: [.held(answer)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.send(.delete("n2")) {
      $0.log.record(.delete("n2"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown.remove(id: "n2")
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) {
      $0.log.acknowledge(UUID(0), at: 6)
      $0.server.remove("n2", at: 6)
      Ported.forgetSeen(&$0, reflectedIn: ["n2"])
    }
    // Made at 5, before the deletion reached the server.
    late.resume(returning: Self.page)
    await store.receive(.pageLoaded(Self.page, first: true)) { $0.paging.isLoading = false }
    #expect(store.state.shown.ids == ["n1", "n3"])
    await Ported.leave(store)
  }

  /// The other side: a deletion refused for good is undone, and a later page lists the
  /// notification as usual.
  @Test func aNotificationWhoseDeletionWasRefusedIsListedByLaterPages() async {
    let answer = TestContinuation<ChangeCursor?>()
    let later = NotificationPage(items: [Self.n1, Self.n2, Self.n3], changeCursor: 7)
    let backend = Ported.Backend(pages: [Self.page, later], answers: [.held(answer)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.delete("n2")) {
      $0.log.record(.delete("n2"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown.remove(id: "n2")
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    answer.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.changeFailed(UUID(0), .server(status: 400))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 400), at: Ported.start)
      $0.error = .server(status: 400)
      $0.shown.insert(Self.n2, at: 1)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(later, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: later)
    }
    #expect(store.state.shown.ids == ["n1", "n2", "n3"])
    await Ported.leave(store)
  }

  /// A newer change to a notification waits for the older one's answer (the server gets them
  /// in order); the older one refused leaves the notification as the newer one set it, and the
  /// newer one is sent.
  @Test func aRefusedChangeLeavesANotificationChangedSinceAsTheNewerChangeSetIt() async {
    let read = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched([.held(read), .at(7)])
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(backend.sent.count == 1)
    read.resume(throwing: UserFacingError.notFound)
    await store.receive(.changeFailed(UUID(0), .notFound)) {
      _ = $0.log.fail(UUID(0), with: .notFound, at: Ported.start)
      $0.log.markSending(UUID(1))
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    // The server's copy, unread, reflects it: it leaves at once.
    await store.receive(.changeAnswered(UUID(1), 7)) {
      $0.log.acknowledge(UUID(1), at: 7)
      Ported.forgetSeen(&$0, reflectedIn: ["n1"])
    }
    #expect(store.state.log.isEmpty)
    #expect(store.state.shown[id: "n1"]?.isRead == false)
    #expect(backend.sentIntents == [.markAsRead("n1"), .markAsUnread("n1")])
    await Ported.leave(store)
  }

  /// Two newer changes wait for an older one's answer: the newest replaces the other (the
  /// server needs only the last choice); the older refused leaves the notification as the
  /// newest set it, and only the newest is sent after it.
  @Test func aRefusedChangeLeavesANotificationAsTheNewestOfItsWaitingChangesSetIt() async {
    let read = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched([.held(read), .at(7)])
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(2))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    read.resume(throwing: UserFacingError.notFound)
    await store.receive(.changeFailed(UUID(0), .notFound)) {
      _ = $0.log.fail(UUID(0), with: .notFound, at: Ported.start)
      $0.log.markSending(UUID(2))
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.changeAnswered(UUID(2), 7)) { $0.log.acknowledge(UUID(2), at: 7) }
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    #expect(backend.sent.map(\.id) == [UUID(0), UUID(2)])
    #expect(backend.sentIntents == [.markAsRead("n1"), .markAsRead("n1")])
    await Ported.leave(store)
  }

  /// A mark-all refused for good makes unread again only what it changed and nothing changed
  /// since: n1, marked unread then read again meanwhile, stays read, and its read is sent.
  @Test func aRefusedMarkAllLeavesANotificationWithNewerChangesAsTheySetIt() async {
    let markAll = TestContinuation<ChangeCursor?>()
    let read = TestContinuation<ChangeCursor?>()
    let (store, backend) = await launched([.held(markAll), .held(read)])
    await store.send(.markAllAsRead) {
      $0.log.record(.markAllAsRead(nil), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
      $0.shown[id: "n2"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(2))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    markAll.resume(throwing: UserFacingError.unauthorized)
    await store.receive(.changeFailed(UUID(0), .unauthorized)) {
      _ = $0.log.fail(UUID(0), with: .unauthorized, at: Ported.start)
      $0.log.markSending(UUID(2))
      $0.error = .unauthorized
      $0.shown[id: "n2"]?.isRead = false
    }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(1)))
    read.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(2), 7)) { $0.log.acknowledge(UUID(2), at: 7) }
    #expect(store.state.shown.map(\.isRead) == [true, false, true])
    #expect(backend.sentIntents == [.markAllAsRead(nil), .markAsRead("n1")])
    await Ported.leave(store)
  }
}
