import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct OptimisticChangeTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func markAsReadChangesStateAtOnceAndConfirms() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func aLiveUpdateWhileAChangeIsPendingDoesNotUndoIt() async {
    let gate = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in for await _ in gate.stream { return } }
    }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    var stale = Fixtures.feed[0]
    stale.title = "Edited"
    await store.send(.liveEvent(NotificationEvent(.updated(stale), cursor: 9))) {
      $0.newestCursor = 9
      $0.notifications[id: "n1"]?.title = "Edited"
    }
    gate.continuation.yield()
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
  }

  @Test func aPermanentFailureRollsBackExactlyThatChangeAndShowsTheError() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in throw UserFacingError.notFound } }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeFailed(changeID, .notFound))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let undone = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .notFound)))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.dismissError) { $0.error = nil }
  }

  @Test func aFailedMarkAsUnreadIsRolledBack() async {
    let store = makeStore {
      $0.notificationClient.markAsUnread = { _ in throw UserFacingError.notFound }
    }
    await store.send(.markAsUnread("n3")) {
      $0.notifications[id: "n3"]?.isRead = false
      $0.sync.pendingChanges[changeID] = .setRead(id: "n3", isRead: false, previous: true)
    }
    await store.receive(.sync(.changeFailed(changeID, .notFound))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
    let undone = NotificationsFeature.PendingChange.setRead(id: "n3", isRead: false, previous: true)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .notFound)))) {
      $0.notifications[id: "n3"]?.isRead = true
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func markAllRestoresOnlyTheItemsItChanged() async {
    let store = makeStore { $0.notificationClient.markAllAsRead = { _ in throw UserFacingError.unauthorized } }
    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["n1", "n2"])
    }
    await store.receive(.sync(.changeFailed(changeID, .unauthorized))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    let undone = NotificationsFeature.PendingChange.markAll(ids: ["n1", "n2"])
    await store.receive(.sync(.delegate(.rollBack(undone, error: .unauthorized)))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.notifications[id: "n2"]?.isRead = false
      $0.error = .unauthorized
    }
    // n3 was already read before and stays read.
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  /// Found by the lifetime model-based test (seed 9): the rollback put the notification back at
  /// the index it had, which a newer notification listed meanwhile had shifted.
  @Test func aDeletedItemReturnsInOrderOnFailureAfterTheListChanged() async {
    let response = TestContinuation<Void>()
    let store = makeStore { $0.notificationClient.delete = { _ in try await response.value } }
    let removed = Fixtures.feed[1]
    let newer = Fixtures.notification("n0")
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.sync.pendingChanges[changeID] = .delete(removed, index: 1)
      $0.deletedIDs = ["n2"]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.liveEvent(NotificationEvent(.inserted(newer)))) {
      $0.notifications.insert(newer, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    response.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.sync(.changeFailed(changeID, .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
    }
    let undone = NotificationsFeature.PendingChange.delete(removed, index: 1)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      // Between n1 and n3, by time: not at index 1, before n1.
      $0.notifications.insert(removed, at: 2)
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  /// Found by the lifetime model-based test (seed 47): a page the backend made before a
  /// deletion reached it, arriving after the deletion was confirmed, listed the deleted
  /// notification again, with no error.
  @Test func aPageMadeBeforeADeletionWasConfirmedDoesNotListItAgain() async {
    let page = TestContinuation<NotificationPage>()
    let store = makeStore {
      $0.notificationClient.fetchPage = { _ in try await page.value }
      $0.notificationClient.delete = { _ in }
    }
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.sync.pendingChanges[changeID] = .delete(Fixtures.feed[1], index: 1)
      $0.deletedIDs = ["n2"]
    }
    // Confirmed while the page loads: kept until it is listed.
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.delete("n2")]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The page was made before the deletion reached the backend.
    page.resume(returning: NotificationPage(items: Fixtures.feed))
    await store.receive(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.sync.confirmedWhileLoading = []
    }
  }

  /// The other side of the rule above: a deletion that failed for good is undone, and a later
  /// page lists the notification as usual.
  @Test func aNotificationWhoseDeletionWasRolledBackIsListedByLaterPages() async {
    let store = makeStore {
      $0.notificationClient.delete = { _ in throw UserFacingError.server(status: 400) }
      $0.notificationClient.fetchPage = { _ in NotificationPage(items: Fixtures.feed) }
    }
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.sync.pendingChanges[changeID] = .delete(Fixtures.feed[1], index: 1)
      $0.deletedIDs = ["n2"]
    }
    await store.receive(.sync(.changeFailed(changeID, .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let undone = NotificationsFeature.PendingChange.delete(Fixtures.feed[1], index: 1)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      $0.notifications = NotificationFeed(uniqueElements: Fixtures.feed)
      $0.deletedIDs = []
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
  }

  @Test func aDeletedItemReturnsToItsPlaceOnFailure() async {
    let store = makeStore { $0.notificationClient.delete = { _ in throw UserFacingError.server(status: 400) } }
    let removed = Fixtures.feed[1]
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.sync.pendingChanges[changeID] = .delete(removed, index: 1)
      $0.deletedIDs = ["n2"]
    }
    await store.receive(.sync(.changeFailed(changeID, .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let undone = NotificationsFeature.PendingChange.delete(removed, index: 1)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      $0.notifications.insert(removed, at: 1)
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func aFailedClearAllRestoresEveryNotificationInOrder() async {
    let store = makeStore {
      $0.notificationClient.deleteAllUpTo = { _ in throw UserFacingError.server(status: 400) }
    }
    await store.send(.clearAll) {
      $0.notifications = []
      $0.sync.pendingChanges[changeID] = .clearAll(Fixtures.feed)
      $0.deletedIDs = ["n1", "n2", "n3"]
    }
    await store.receive(.sync(.changeFailed(changeID, .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    let undone = NotificationsFeature.PendingChange.clearAll(Fixtures.feed)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      $0.notifications = NotificationFeed(uniqueElements: Fixtures.feed)
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  /// A newer change to a notification waits for the older one's call (so the backend gets them
  /// in order), and is written with the outbox meanwhile; the older one's rollback leaves the
  /// notification as the newer one set it.
  @Test func anItemChangedAgainSinceIsLeftAloneByTheRollback() async {
    let gate = AsyncStream<Void>.makeStream()
    let unreadArrives = TestContinuation<Void>()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        for await _ in gate.stream { break }
        throw UserFacingError.notFound
      }
      $0.notificationClient.markAsUnread = { _ in try await unreadArrives.value }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let unread = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: false, previous: true)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = unread
      $0.sync.waiting[secondID] = .markAsUnread("n1")
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsUnread("n1")], rollbacks: [.markAsUnread("n1"): unread])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(2)))
    gate.continuation.yield()
    await store.receive(.sync(.changeFailed(changeID, .notFound))) {
      $0.sync.pendingChanges[changeID] = nil
      $0.sync.waiting = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    let undone = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .notFound)))) {
      $0.error = .notFound
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    unreadArrives.resume()
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) { $0.sync.pendingChanges = [:] }
  }

  /// Two newer changes to a notification wait for an older one's call, then go one at a time;
  /// what is written meanwhile is the newest of them. The older one's rollback leaves the
  /// notification as the newest set it.
  @Test func aRollbackLeavesAloneANotificationWithNewerChangesWaiting() async {
    let failRead = TestContinuation<Void>()
    let confirmUnread = TestContinuation<Void>()
    let confirmRead = TestContinuation<Void>()
    let reads = LockedState(0)
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in
        if reads.withLock({ $0 += 1; return $0 }) == 1 {
          try await failRead.value
          throw UserFacingError.notFound
        }
        try await confirmRead.value
      }
      $0.notificationClient.markAsUnread = { _ in try await confirmUnread.value }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let thirdID = UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID()
    let read = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    let unread = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: false, previous: true)
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = read
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = unread
      $0.sync.waiting[secondID] = .markAsUnread("n1")
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsUnread("n1")], rollbacks: [.markAsUnread("n1"): unread])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[thirdID] = read
      $0.sync.waiting[thirdID] = .markAsRead("n1")
      // The newest choice is what a relaunch would send.
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The first read fails: n1 stays as the third change left it, and the second is sent.
    failRead.resume()
    await store.receive(.sync(.changeFailed(changeID, .notFound))) {
      $0.sync.pendingChanges[changeID] = nil
      $0.sync.waiting[secondID] = nil
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    await store.receive(.sync(.delegate(.rollBack(read, error: .notFound)))) {
      $0.error = .notFound
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    confirmUnread.resume()
    // Then the third.
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) {
      $0.sync.pendingChanges[secondID] = nil
      $0.sync.waiting = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    confirmRead.resume()
    await store.receive(.sync(.changeSucceeded(thirdID, at: nil))) { $0.sync.pendingChanges = [:] }
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func aFailedMarkAllLeavesAloneANotificationWithNewerChangesWaiting() async {
    let failMarkAll = TestContinuation<Void>()
    let confirmUnread = TestContinuation<Void>()
    let confirmRead = TestContinuation<Void>()
    let store = makeStore {
      $0.notificationClient.markAllAsRead = { _ in
        try await failMarkAll.value
        throw UserFacingError.unauthorized
      }
      $0.notificationClient.markAsUnread = { _ in try await confirmUnread.value }
      $0.notificationClient.markAsRead = { _ in try await confirmRead.value }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    let thirdID = UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID()
    let read = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    let unread = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: false, previous: true)
    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["n1", "n2"])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = unread
      $0.sync.waiting[secondID] = .markAsUnread("n1")
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsUnread("n1")], rollbacks: [.markAsUnread("n1"): unread])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[thirdID] = read
      $0.sync.waiting[thirdID] = .markAsRead("n1")
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // Only n2 goes back to unread: n1 has newer changes waiting.
    failMarkAll.resume()
    await store.receive(.sync(.changeFailed(changeID, .unauthorized))) {
      $0.sync.pendingChanges[changeID] = nil
      $0.sync.waiting[secondID] = nil
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [.markAsRead("n1")], rollbacks: [.markAsRead("n1"): read])
    }
    let undone = NotificationsFeature.PendingChange.markAll(ids: ["n1", "n2"])
    await store.receive(.sync(.delegate(.rollBack(undone, error: .unauthorized)))) {
      $0.notifications[id: "n2"]?.isRead = false
      $0.error = .unauthorized
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(1)))
    confirmUnread.resume()
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) {
      $0.sync.pendingChanges[secondID] = nil
      $0.sync.waiting = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    confirmRead.resume()
    await store.receive(.sync(.changeSucceeded(thirdID, at: nil))) { $0.sync.pendingChanges = [:] }
  }

}
