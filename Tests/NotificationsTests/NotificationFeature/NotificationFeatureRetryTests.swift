import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Changes that fail for now: sent again after a backoff that grows with each failure that
/// reached the server, with the same id, in order with the person's newer changes, given up
/// only after failing for long. Ported from `OutboxTests` and `OutboxLifetimeTests`.
@MainActor
struct NotificationFeatureRetryTests {
  typealias Feature = NotificationFeature

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let n3 = Ported.notification("n3", isRead: true, version: 2, minutesAgo: 3)
  static let page = NotificationPage(items: [n1, n2, n3], changeCursor: 5)

  /// Marks n1 read; its answer is `answer`.
  func markN1Read(_ store: Ported.Store, unreadAfter count: Int) async {
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(count)))
  }

  /// Offline, then a server error: sent again after a second (offline counts no failure),
  /// then after two (one failure), each time with its id; nothing is shown meanwhile.
  @Test func aChangeFailingForNowIsSentAgainAfterABackoffThatGrowsWithEachFailure() async {
    let clock = TestClock()
    let first = TestContinuation<ChangeCursor?>()
    let second = TestContinuation<ChangeCursor?>()
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.held(first), .held(second), .at(7)], clock: clock)
    await markN1Read(store, unreadAfter: 1)
    first.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    second.resume(throwing: UserFacingError.server(status: 503))
    await store.receive(.changeFailed(UUID(0), .server(status: 503))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 503), at: Ported.start)
    }
    await clock.advance(by: .seconds(1))
    #expect(backend.sent.count == 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 7)) { $0.log.acknowledge(UUID(0), at: 7) }
    #expect(backend.sent == Array(repeating: ChangeRequest(id: UUID(0), .markAsRead("n1")), count: 3))
    #expect(store.state.error == nil)
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    await Ported.leave(store)
  }

  /// A change that failed for now and is then refused for good is undone: the server's copy is
  /// shown, with the error (the model-based test found it left applied).
  @Test func aChangeFailingForNowThenRefusedShowsTheServersCopyWithTheError() async {
    let clock = TestClock()
    let first = TestContinuation<ChangeCursor?>()
    let (store, _) = await Ported.launched(
      listing: Self.page, answers: [.held(first), .failure(.server(status: 400))], clock: clock)
    await markN1Read(store, unreadAfter: 1)
    first.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeFailed(UUID(0), .server(status: 400))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 400), at: Ported.start)
      $0.error = .server(status: 400)
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.log.isEmpty)
    await Ported.leave(store)
  }

  /// The model-based test found a waiting read retried after a newer unread had reached the
  /// server, leaving it read: the newer choice replaces the waiting one, which is not sent
  /// again when its backoff ends.
  @Test func aNewerChoiceReplacesAWaitingOneWhichIsNotSentAgain() async {
    let clock = TestClock()
    let read = TestContinuation<ChangeCursor?>()
    let unread = TestContinuation<ChangeCursor?>()
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.held(read), .held(unread)], clock: clock)
    await markN1Read(store, unreadAfter: 1)
    read.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.log.markSending(UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0)))
    unread.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(1), 7)) {
      $0.log.acknowledge(UUID(1), at: 7)
      Ported.forgetSeen(&$0, reflectedIn: ["n1"])
    }
    #expect(backend.sentIntents == [.markAsRead("n1"), .markAsUnread("n1")])
    #expect(store.state.shown[id: "n1"]?.isRead == false)
    await Ported.leave(store)
  }

  /// Lifetime seed 37 of the old feature: marking one notification unread while a mark-all
  /// waits keeps the mark-all whole (the others become read on the server), and the unread is
  /// sent after it.
  @Test func aNewerChangeToOneNotificationKeepsAWaitingMarkAll() async {
    let clock = TestClock()
    let first = TestContinuation<ChangeCursor?>()
    let second = TestContinuation<ChangeCursor?>()
    let unread = TestContinuation<ChangeCursor?>()
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.held(first), .held(second), .held(unread)], clock: clock)
    await store.send(.markAllAsRead) {
      $0.log.record(.markAllAsRead(nil), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
      $0.shown[id: "n2"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    first.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    second.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7)
      $0.server.noneUnreadNotHeld(at: 7)
      $0.log.markSending(UUID(1))
    }
    unread.resume(returning: 8)
    await store.receive(.changeAnswered(UUID(1), 8)) { $0.log.acknowledge(UUID(1), at: 8) }
    #expect(backend.sentIntents == [.markAllAsRead(nil), .markAllAsRead(nil), .markAsUnread("n1")])
    #expect(store.state.shown.map(\.isRead) == [false, true, true])
    await Ported.leave(store)
  }

  /// Lifetime seed 57 of the old feature: marking read a notification that arrived after a
  /// waiting clear-all keeps the clear-all (it used to be replaced, and never sent); the
  /// notification that arrived meanwhile stays listed.
  @Test func aNewerChangeKeepsAWaitingClearAll() async {
    let clock = TestClock()
    let first = TestContinuation<ChangeCursor?>()
    let second = TestContinuation<ChangeCursor?>()
    let read = TestContinuation<ChangeCursor?>()
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.held(first), .held(second), .held(read)], clock: clock)
    let clear = ChangeIntent.deleteAll(upTo: FeedPosition(Self.n1))
    await store.send(.clearAll) {
      $0.log.record(clear, id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = []
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    let n4 = Ported.notification("n4", version: 6, minutesAgo: 0.5)
    let arrived = NotificationEvent(.inserted(n4), cursor: 6)
    await store.send(.liveEvent(arrived)) {
      $0.server.apply(arrived)
      $0.shown = [n4]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    first.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    await store.send(.markAsRead("n4")) {
      $0.log.record(.markAsRead("n4"), id: UUID(1))
      $0.shown = [Ported.read(n4)]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    second.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7)
      $0.server.noneUnreadNotHeld(at: 7)
      $0.log.markSending(UUID(1))
    }
    read.resume(returning: 8)
    await store.receive(.changeAnswered(UUID(1), 8)) { $0.log.acknowledge(UUID(1), at: 8) }
    #expect(backend.sentIntents == [clear, clear, .markAsRead("n4")])
    #expect(store.state.shown == [Ported.read(n4)])
    await Ported.leave(store)
  }

  /// A read waiting to be sent stays under a newer delete, and is sent first: a delete the server
  /// refuses for good brings the notification back read, as the person left it. The log used to
  /// drop the read when the delete was recorded (its rule 4), so the refusal showed the
  /// notification unread and the read never reached the server (ported from the old feature's
  /// `OutboxTests.aFailedChangeOwesTheBackendTheQueuedChangesItReplaced`).
  @Test func aRefusedDeleteLeavesTheReadItReplacedShownAndSent() async {
    let clock = TestClock()
    let read = TestContinuation<ChangeCursor?>()
    let delete = TestContinuation<ChangeCursor?>()
    let (store, backend) = await Ported.launched(
      listing: Self.page, answers: [.held(read), .at(6), .held(delete)], clock: clock)
    await markN1Read(store, unreadAfter: 1)
    read.resume(throwing: UserFacingError.network)
    await store.receive(.changeFailed(UUID(0), .network)) {
      _ = $0.log.fail(UUID(0), with: .network, at: Ported.start)
    }
    // The delete waits for the read (one change of a notification at a time, in order).
    await store.send(.delete("n1")) {
      $0.log.record(.delete("n1"), id: UUID(1))
      $0.shown.remove(id: "n1")
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.retryDue(UUID(0))) {
      $0.log.retry(UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 6)) {
      $0.log.acknowledge(UUID(0), at: 6)
      $0.log.markSending(UUID(1))
    }
    delete.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.changeFailed(UUID(1), .server(status: 400))) {
      _ = $0.log.fail(UUID(1), with: .server(status: 400), at: Ported.start)
      $0.error = .server(status: 400)
      $0.shown.insert(Ported.read(Self.n1), at: 0)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    #expect(backend.sentIntents == [.markAsRead("n1"), .markAsRead("n1"), .delete("n1")])
    await Ported.leave(store)
  }

  /// A change failing with server errors is sent again until it has failed 20 times over
  /// three days; then it is given up: undone, with an error. (Being offline counts no failure:
  /// the old feature's bound on offline attempts is gone by design.)
  @Test func aChangeThatKeepsFailingIsGivenUpAfterTheMaximumAndUndoneWithAnError() async {
    let answers = Array(repeating: Ported.Backend.Answer.failure(.server(status: 503)), count: 20)
    let backend = Ported.Backend(pages: [Self.page], answers: answers)
    // Each failure is noted four hours after the one before.
    let hours = LockedState(0)
    let store = TestStore(initialState: Feature.State()) {
      NotificationFeature()
    } withDependencies: {
      $0.date = DateGenerator {
        let hour = hours.withLock { hour in
          defer { hour += 4 }
          return hour
        }
        return Ported.start.addingTimeInterval(Double(hour) * 3_600)
      }
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
      $0.notificationClient = backend.client
      $0.changeLogStore = .inMemory()
      $0.settingsClient = .inMemory()
      $0.pushClient = .unavailable
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
    }
    store.timeout = featureTestTimeout
    store.exhaustivity = .off
    await Ported.launch(store, listing: Self.page)
    await store.send(.markAsRead("n1"))
    for _ in 1..<20 {
      await store.receive(.changeFailed(UUID(0), .server(status: 503)))
      await store.receive(.retryDue(UUID(0)))
    }
    await store.receive(.changeFailed(UUID(0), .server(status: 503)))
    await store.receive(.delegate(.errorOccurred(.outboxGaveUp)))
    #expect(backend.sent.count == 20)
    #expect(store.state.error == .outboxGaveUp)
    #expect(store.state.shown[id: "n1"]?.isRead == false)
    #expect(store.state.log.isEmpty)
    await Ported.leave(store)
  }
}
