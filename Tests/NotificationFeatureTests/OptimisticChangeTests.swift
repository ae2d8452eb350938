import Foundation
import Loom
import LoomTesting
import NotificationFeature
import Testing

@MainActor
struct OptimisticChangeTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func markAsReadChangesStateAtOnceAndConfirms() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeSucceeded(changeID)) { $0.pendingChanges = [:] }
  }

  @Test func aPermanentFailureRollsBackExactlyThatChangeAndShowsTheError() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in throw UserFacingError.notFound } }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .notFound)) {
      $0.pendingChanges = [:]
      $0.notifications[id: "n1"]?.isRead = false
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.dismissError) { $0.error = nil }
  }

  @Test func aDeletedItemReturnsToItsPlaceOnFailure() async {
    let store = makeStore { $0.notificationClient.delete = { _ in throw UserFacingError.server(status: 400) } }
    let removed = Fixtures.feed[1]
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.pendingChanges[changeID] = .delete(removed, index: 1)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .server(status: 400))) {
      $0.pendingChanges = [:]
      $0.notifications.insert(removed, at: 1)
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func markAllRestoresOnlyTheItemsItChanged() async {
    let store = makeStore { $0.notificationClient.markAllAsRead = { _ in throw UserFacingError.unauthorized } }
    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.pendingChanges[changeID] = .markAll(ids: ["n1", "n2"])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.changeFailed(changeID, .unauthorized)) {
      $0.pendingChanges = [:]
      $0.notifications[id: "n1"]?.isRead = false
      $0.notifications[id: "n2"]?.isRead = false
      $0.error = .unauthorized
    }
    // n3 was already read before and stays read.
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func anItemChangedAgainSinceIsLeftAloneByTheRollback() async {
    let gate = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        for await _ in gate.stream { break }
        throw UserFacingError.notFound
      }
      $0.notificationClient.markAsUnread = { _ in }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.receive(.changeSucceeded(secondID)) { $0.pendingChanges[secondID] = nil }
    gate.continuation.yield()
    await store.receive(.changeFailed(changeID, .notFound)) {
      $0.pendingChanges = [:]
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
  }

  @Test func aRollbackLeavesAloneANotificationWithANewerChangeInFlight() async {
    let failRead = AsyncStream<Void>.makeStream()
    let confirmRead = AsyncStream<Void>.makeStream()
    let reads = LockedState(0)
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        if reads.withLock({ $0 += 1; return $0 }) == 1 {
          for await _ in failRead.stream { break }
          throw UserFacingError.notFound
        }
        for await _ in confirmRead.stream { break }
      }
      $0.notificationClient.markAsUnread = { _ in }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let thirdID = UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID()
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.receive(.changeSucceeded(secondID)) { $0.pendingChanges[secondID] = nil }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[thirdID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The first read fails while the third is in flight: n1 stays as the third left it.
    failRead.continuation.yield()
    await store.receive(.changeFailed(changeID, .notFound)) {
      $0.pendingChanges[changeID] = nil
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    confirmRead.continuation.yield()
    await store.receive(.changeSucceeded(thirdID)) { $0.pendingChanges = [:] }
  }

  @Test func aFailedMarkAllLeavesAloneANotificationWithANewerChangeInFlight() async {
    let failMarkAll = AsyncStream<Void>.makeStream()
    let confirmRead = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAllAsRead = { _ in
        for await _ in failMarkAll.stream { break }
        throw UserFacingError.unauthorized
      }
      $0.notificationClient.markAsUnread = { _ in }
      $0.notificationClient.markAsRead = { _ in for await _ in confirmRead.stream { break } }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let thirdID = UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID()
    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.pendingChanges[changeID] = .markAll(ids: ["n1", "n2"])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeSucceeded(secondID)) { $0.pendingChanges[secondID] = nil }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[thirdID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // Only n2 goes back to unread: n1 has a newer change in flight.
    failMarkAll.continuation.yield()
    await store.receive(.changeFailed(changeID, .unauthorized)) {
      $0.pendingChanges[changeID] = nil
      $0.notifications[id: "n2"]?.isRead = false
      $0.error = .unauthorized
    }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(1)))
    confirmRead.continuation.yield()
    await store.receive(.changeSucceeded(thirdID)) { $0.pendingChanges = [:] }
  }

  @Test func aRetryableFailureKeepsTheChangeAndQueuesItInTheOutbox() async {
    let attempts = LockedState(0)
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        let attempt = attempts.withLock { $0 += 1; return $0 }
        if attempt == 1 { throw UserFacingError.network }
      }
    }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .network)) {
      $0.pendingChanges = [:]
      $0.outbox = [.markAsRead("n1")]
      $0.outboxRollbacks[.markAsRead("n1")] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntrySent(.markAsRead("n1"))) {
      $0.outbox = []
      $0.outboxRollbacks = [:]
    }
    #expect(attempts.withLock { $0 } == 2)
  }

  @Test func aFailedMarkAsUnreadIsRolledBack() async {
    let store = makeStore {
      $0.notificationClient.markAsUnread = { _ in throw UserFacingError.notFound }
    }
    await store.send(.markAsUnread("n3")) {
      $0.notifications[id: "n3"]?.isRead = false
      $0.pendingChanges[changeID] = .setRead(id: "n3", isRead: false, previous: true)
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
    await store.receive(.changeFailed(changeID, .notFound)) {
      $0.pendingChanges = [:]
      $0.notifications[id: "n3"]?.isRead = true
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func aFailedClearAllRestoresEveryNotificationInOrder() async {
    let store = makeStore {
      $0.notificationClient.deleteAll = { throw UserFacingError.server(status: 400) }
    }
    await store.send(.clearAll) {
      $0.notifications = []
      $0.pendingChanges[changeID] = .clearAll(Fixtures.feed)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.changeFailed(changeID, .server(status: 400))) {
      $0.pendingChanges = [:]
      $0.notifications = IdentifiedArray(uniqueElements: Fixtures.feed)
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  /// Found by the model-based test: a change queued after a network error that then failed for
  /// good when retried stayed applied, so the list and the backend disagreed.
  @Test func aQueuedChangeThatFailsForGoodWhenRetriedIsRolledBack() async {
    let failures = LockedState<[UserFacingError]>([.network, .server(status: 400)])
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        let failure = failures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let failure { throw failure }
      }
    }
    let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = change
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .network)) {
      $0.pendingChanges = [:]
      $0.outbox = [.markAsRead("n1")]
      $0.outboxRollbacks = [.markAsRead("n1"): change]
    }
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntryFailed(.markAsRead("n1"), .server(status: 400), attempt: 0)) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.outbox = []
      $0.outboxRollbacks = [:]
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.finish()
  }

  @Test func aQueuedChangeThatFailsAgainForNowIsRetriedLater() async {
    let failures = LockedState<[UserFacingError]>([.network, .server(status: 503)])
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        let failure = failures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let failure { throw failure }
      }
    }
    let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = change
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .network)) {
      $0.pendingChanges = [:]
      $0.outbox = [.markAsRead("n1")]
      $0.outboxRollbacks = [.markAsRead("n1"): change]
    }
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntryFailed(.markAsRead("n1"), .server(status: 503), attempt: 0))
    await store.receive(.retryOutbox(attempt: 1))
    await store.receive(.outboxEntrySent(.markAsRead("n1"))) {
      $0.outbox = []
      $0.outboxRollbacks = [:]
    }
    await store.finish()
  }

  /// Found by the model-based test: a queued mark-as-read was retried after a later
  /// mark-as-unread of the same notification had succeeded, leaving the backend read.
  @Test func aNewerChangeReplacesWhatIsQueuedForTheSameNotification() async {
    let calls = LockedState<[String]>([])
    let failReads = LockedState(true)
    let clock = TestClock()
    let store = makeStore {
      $0.continuousClock = clock
      $0.notificationClient.markAsRead = { id in
        if failReads.withLock({ $0 }) { throw UserFacingError.network }
        calls.withLock { $0.append("read \(id)") }
      }
      $0.notificationClient.markAsUnread = { id in calls.withLock { $0.append("unread \(id)") } }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let read = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = read
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .network)) {
      $0.pendingChanges = [:]
      $0.outbox = [.markAsRead("n1")]
      $0.outboxRollbacks = [.markAsRead("n1"): read]
    }
    // Reads would now reach the backend, so a retry of the queued one would show in `calls`.
    failReads.withLock { $0 = false }
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
      $0.outbox = []
      $0.superseded = [secondID: [.markAsRead("n1")]]
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.receive(.changeSucceeded(secondID)) {
      $0.pendingChanges = [:]
      $0.superseded = [:]
      $0.outboxRollbacks = [:]
    }
    // The retry scheduled for the replaced entry finds the outbox empty and sends nothing.
    await clock.advance(by: .seconds(1))
    await store.receive(.retryOutbox(attempt: 0))
    await store.finish()
    #expect(calls.withLock { $0 } == ["unread n1"])
  }

  @Test func aFailedChangeOwesTheBackendTheQueuedChangesItReplaced() async {
    let reads = LockedState(0)
    let clock = TestClock()
    let store = makeStore {
      $0.continuousClock = clock
      $0.notificationClient.markAsRead = { _ in
        if reads.withLock({ $0 += 1; return $0 }) == 1 { throw UserFacingError.network }
      }
      $0.notificationClient.delete = { _ in throw UserFacingError.server(status: 400) }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let read = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = read
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeFailed(changeID, .network)) {
      $0.pendingChanges = [:]
      $0.outbox = [.markAsRead("n1")]
      $0.outboxRollbacks = [.markAsRead("n1"): read]
    }
    var readN1 = Fixtures.feed[0]
    readN1.isRead = true
    await store.send(.delete("n1")) {
      $0.notifications.remove(id: "n1")
      $0.pendingChanges[secondID] = .delete(readN1, index: 0)
      $0.outbox = []
      $0.superseded = [secondID: [.markAsRead("n1")]]
    }
    // The delete failing for good brings n1 back read, and the read it replaced is queued again.
    await store.receive(.changeFailed(secondID, .server(status: 400))) {
      $0.pendingChanges = [:]
      $0.superseded = [:]
      $0.notifications.insert(readN1, at: 0)
      $0.outbox = [.markAsRead("n1")]
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await clock.advance(by: .seconds(1))
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntrySent(.markAsRead("n1"))) {
      $0.outbox = []
      $0.outboxRollbacks = [:]
    }
    await store.finish()
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func aRestoredOutboxIsSentOneEntryAfterTheOther() async {
    let calls = LockedState<[String]>([])
    let store = makeStore([]) {
      $0.notificationClient.markAsRead = { id in calls.withLock { $0.append("read \(id)") } }
      $0.notificationClient.delete = { id in calls.withLock { $0.append("delete \(id)") } }
    }
    await store.send(.outboxRestored([.markAsRead("n1"), .delete("n2")])) {
      $0.outbox = [.markAsRead("n1"), .delete("n2")]
    }
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntrySent(.markAsRead("n1"))) { $0.outbox = [.delete("n2")] }
    await store.receive(.retryOutbox(attempt: 0))
    await store.receive(.outboxEntrySent(.delete("n2"))) { $0.outbox = [] }
    await store.finish()
    #expect(calls.withLock { $0 } == ["read n1", "delete n2"])
  }

  @Test func markingReadAndUnreadInTheOutboxCancelOutInEitherOrder() {
    var outbox: [NotificationsFeature.OutboxEntry] = []
    outbox.enqueue(.markAsRead("n1"))
    outbox.enqueue(.markAsUnread("n1"))
    #expect(outbox.isEmpty)
    outbox.enqueue(.markAsUnread("n1"))
    outbox.enqueue(.markAsRead("n1"))
    #expect(outbox.isEmpty)
  }

  @Test func aQueuedDeleteSupersedesTheReadChangesQueuedForThatNotification() {
    var outbox: [NotificationsFeature.OutboxEntry] = [.markAsRead("n1"), .markAsUnread("n2")]
    outbox.enqueue(.delete("n2"))
    #expect(outbox == [.markAsRead("n1"), .delete("n2")])
    outbox.enqueue(.delete("n1"))
    #expect(outbox == [.delete("n2"), .delete("n1")])
  }

  @Test func aQueuedDeleteAllSupersedesEverythingQueued() {
    var outbox: [NotificationsFeature.OutboxEntry] = [.markAsRead("n1"), .delete("n2")]
    outbox.enqueue(.deleteAll)
    #expect(outbox == [.deleteAll])
  }

  @Test func aLiveUpdateWhileAChangeIsPendingDoesNotUndoIt() async {
    let gate = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in for await _ in gate.stream { return } }
    }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    var stale = Fixtures.feed[0]
    stale.title = "Edited"
    await store.send(.liveEvent(NotificationEvent(.updated(stale), cursor: "c9"))) {
      $0.newestCursor = "c9"
      $0.notifications[id: "n1"]?.title = "Edited"
    }
    gate.continuation.yield()
    await store.receive(.changeSucceeded(changeID)) { $0.pendingChanges = [:] }
  }
}
