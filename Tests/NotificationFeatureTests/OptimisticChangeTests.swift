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

  /// Found by the model-based test: a change queued after a network error that then failed for
  /// good when retried stayed applied, so the list and the backend disagreed.
  @Test func aQueuedChangeThatFailsForGoodWhenRetriedIsRolledBack() async {
    let failures = LockedState<[UserFacingError]>([.network, .server(status: 400)])
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        if let failure = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
      }
    }
    store.exhaustivity = .off
    await store.send(.markAsRead("n1"))
    await store.receive(.outboxEntryFailed(.markAsRead("n1"), .server(status: 400), attempt: 0)) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.outbox = []
      $0.outboxRollbacks = [:]
      $0.error = .server(status: 400)
    }
    await store.finish()
  }

  /// Found by the model-based test: a queued mark-as-read was retried after a later
  /// mark-as-unread of the same notification had succeeded, leaving the backend read.
  @Test func aNewerChangeReplacesWhatIsQueuedForTheSameNotification() async {
    let calls = LockedState<[String]>([])
    let failReads = LockedState(true)
    let store = makeStore {
      $0.continuousClock = TestClock()
      $0.notificationClient.markAsRead = { id in
        if failReads.withLock({ $0 }) { throw UserFacingError.network }
        calls.withLock { $0.append("read \(id)") }
      }
      $0.notificationClient.markAsUnread = { id in calls.withLock { $0.append("unread \(id)") } }
    }
    store.exhaustivity = .off
    await store.send(.markAsRead("n1"))
    await store.receive(.changeFailed(changeID, .network))
    #expect(store.state.outbox == [.markAsRead("n1")])
    failReads.withLock { $0 = false }
    await store.send(.markAsUnread("n1"))
    #expect(store.state.outbox.isEmpty)
    await store.skipInFlightEffects()
    #expect(calls.withLock { $0 } == ["unread n1"])
    #expect(store.state.notifications[id: "n1"]?.isRead == false)
  }

  @Test func opposingChangesInTheOutboxCancelOut() {
    var outbox: [NotificationsFeature.OutboxEntry] = []
    outbox.enqueue(.markAsRead("n1"))
    outbox.enqueue(.markAsUnread("n1"))
    #expect(outbox.isEmpty)
    outbox.enqueue(.markAsRead("n2"))
    outbox.enqueue(.delete("n2"))
    #expect(outbox == [.delete("n2")])
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
