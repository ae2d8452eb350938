import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Changes that failed for now wait in the outbox and are sent again; what is queued merges
/// with newer changes to the same notifications.
@MainActor
struct OutboxTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  typealias SavedOutbox = NotificationsFeature.SavedOutbox

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
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxRollbacks[.markAsRead("n1")] = .setRead(id: "n1", isRead: true, previous: false)
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")],
        rollbacks: [.markAsRead("n1"): .setRead(id: "n1", isRead: true, previous: false)])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(.sync(.outboxEntrySent(.markAsRead("n1"), at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    #expect(attempts.withLock { $0 } == 2)
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
      $0.sync.pendingChanges[changeID] = change
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxRollbacks = [.markAsRead("n1"): change]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): change])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(
      .sync(.outboxEntryFailed(.markAsRead("n1"), .server(status: 503), attempt: 0))
    ) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outboxFailures = [.markAsRead("n1"): 1]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): change],
        failures: [.markAsRead("n1"): 1])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 1))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(.sync(.outboxEntrySent(.markAsRead("n1"), at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxFailures = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.finish()
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
      $0.sync.pendingChanges[changeID] = change
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxRollbacks = [.markAsRead("n1"): change]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): change])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(
      .sync(.outboxEntryFailed(.markAsRead("n1"), .server(status: 400), attempt: 0))
    ) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    let undone = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.error = .server(status: 400)
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
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
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxRollbacks = [.markAsRead("n1"): read]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    // Reads would now reach the backend, so a retry of the queued one would show in `calls`.
    failReads.withLock { $0 = false }
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
      $0.sync.outbox = []
      $0.sync.superseded = [secondID: [.markAsRead("n1")]]
    }
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.superseded = [:]
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    // The retry scheduled for the replaced entry finds the outbox empty and sends nothing.
    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0)))
    await store.finish()
    #expect(calls.withLock { $0 } == ["unread n1"])
  }

  /// Found by the lifetime model-based test (seed 37): marking one notification unread dropped
  /// a queued mark-all of many, so the others never became read on the backend, with no error.
  @Test func aNewerChangeToOneNotificationKeepsTheRestOfAQueuedMarkAll() async {
    let calls = LockedState<[String]>([])
    let failMarkAll = LockedState(true)
    let clock = TestClock()
    let store = makeStore {
      $0.continuousClock = clock
      $0.notificationClient.markAllAsRead = { ids in
        if failMarkAll.withLock({ $0 }) { throw UserFacingError.network }
        calls.withLock { $0.append("read \(ids ?? [])") }
      }
      $0.notificationClient.markAsUnread = { id in calls.withLock { $0.append("unread \(id)") } }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let markAll = NotificationsFeature.PendingChange.markAll(ids: ["n1", "n2"])
    let queued = NotificationsFeature.OutboxEntry.markAllAsRead(["n1", "n2"])
    let rest = NotificationsFeature.OutboxEntry.markAllAsRead(["n2"])
    let restRollback = NotificationsFeature.PendingChange.markAll(ids: ["n2"])
    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[changeID] = markAll
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [queued]
      $0.sync.outboxRollbacks = [queued: markAll]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [queued], rollbacks: [queued: markAll])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    failMarkAll.withLock { $0 = false }
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
      // n2 is still owed to the backend, and is undone alone if it fails for good.
      $0.sync.outbox = [rest]
      $0.sync.outboxRollbacks[rest] = restRollback
      $0.sync.superseded = [secondID: [queued]]
    }
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.superseded = [:]
      $0.sync.outboxRollbacks = [rest: restRollback]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [rest], rollbacks: [rest: restRollback])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = rest
    }
    await store.receive(.sync(.outboxEntrySent(rest, at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.finish()
    #expect(calls.withLock { $0 } == ["unread n1", "read [\"n2\"]"])
  }

  /// Found by the lifetime model-based test (seed 57): marking a notification read while a
  /// clear-all waited in the outbox replaced the clear-all, so it was never sent: a refresh
  /// listed everything the person had cleared again, with no error.
  @Test func aNewerChangeKeepsAQueuedClearAll() async {
    let firstClear = TestContinuation<Void>()
    let clearCalls = LockedState(0)
    let clock = TestClock()
    let store = makeStore {
      $0.continuousClock = clock
      $0.notificationClient.deleteAllUpTo = { _ in
        let call = clearCalls.withLock { calls in
          calls += 1
          return calls
        }
        if call == 1 { try await firstClear.value }
      }
      $0.notificationClient.markAsRead = { _ in }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let clear = NotificationsFeature.PendingChange.clearAll(Fixtures.feed)
    let entry = NotificationsFeature.OutboxEntry.deleteAll(upTo: FeedPosition(Fixtures.feed[0]))
    let newer = Fixtures.notification("n4")
    await store.send(.clearAll) {
      $0.notifications = []
      $0.deletedIDs = ["n1", "n2", "n3"]
      $0.sync.pendingChanges[changeID] = clear
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // A notification that arrives meanwhile is listed: the person did not clear it.
    await store.send(.liveEvent(NotificationEvent(.inserted(newer)))) {
      $0.notifications = [newer]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    firstClear.resume(throwing: UserFacingError.network)
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks = [entry: clear]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [entry], rollbacks: [entry: clear])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.send(.markAsRead("n4")) {
      $0.notifications[id: "n4"]?.isRead = true
      $0.sync.pendingChanges[secondID] = .setRead(id: "n4", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // The clear-all is still owed to the backend, and sent.
    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = entry
    }
    await store.receive(.sync(.outboxEntrySent(entry, at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.finish()
    #expect(clearCalls.withLock { $0 } == 2)
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
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.sync(.changeFailed(changeID, .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxRollbacks = [.markAsRead("n1"): read]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    var readN1 = Fixtures.feed[0]
    readN1.isRead = true
    await store.send(.delete("n1")) {
      $0.notifications.remove(id: "n1")
      $0.sync.pendingChanges[secondID] = .delete(readN1, index: 0)
      $0.sync.outbox = []
      $0.sync.superseded = [secondID: [.markAsRead("n1")]]
      $0.deletedIDs = ["n1"]
    }
    // The delete failing for good brings n1 back read, and the read it replaced is queued again.
    await store.receive(.sync(.changeFailed(secondID, .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
      $0.sync.superseded = [:]
      $0.sync.outbox = [.markAsRead("n1")]
      $0.sync.outboxBeingSaved = SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    let undone = NotificationsFeature.PendingChange.delete(readN1, index: 0)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      $0.notifications.insert(readN1, at: 0)
      $0.error = .server(status: 400)
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await clock.advance(by: .seconds(1))
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(.sync(.outboxEntrySent(.markAsRead("n1"), at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.finish()
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func aRestoredOutboxIsSentOneEntryAfterTheOther() async {
    let calls = LockedState<[String]>([])
    let store = makeStore([]) {
      $0.notificationClient.markAsRead = { id in calls.withLock { $0.append("read \(id)") } }
      $0.notificationClient.delete = { id in calls.withLock { $0.append("delete \(id)") } }
    }
    let saved = NotificationsFeature.SavedOutbox(entries: [.markAsRead("n1"), .delete("n2")])
    await store.send(.sync(.outboxRestored(saved))) {
      $0.sync.outbox = [.markAsRead("n1"), .delete("n2")]
    }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .markAsRead("n1")
    }
    await store.receive(.sync(.outboxEntrySent(.markAsRead("n1"), at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = [.delete("n2")]
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [.delete("n2")])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.sync(.retryOutbox(attempt: 0))) {
      $0.sync.outboxEntryInFlight = .delete("n2")
    }
    await store.receive(.sync(.outboxEntrySent(.delete("n2"), at: nil))) {
      $0.sync.outboxEntryInFlight = nil
      $0.sync.outbox = []
      $0.sync.outboxBeingSaved = SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
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

  /// What is queued when a clear-all is queued comes from changes made after it (it replaced
  /// what was queued before, when it was made): they may be about notifications it spares.
  @Test func aQueuedDeleteAllKeepsWhatIsQueuedAndGoesAfterIt() {
    var outbox: [NotificationsFeature.OutboxEntry] = [.markAsRead("n1"), .delete("n2")]
    outbox.enqueue(.deleteAll(upTo: FeedPosition(Fixtures.feed[0])))
    #expect(
      outbox == [.markAsRead("n1"), .delete("n2"), .deleteAll(upTo: FeedPosition(Fixtures.feed[0]))])
  }
}
