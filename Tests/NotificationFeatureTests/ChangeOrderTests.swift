import Foundation
import Loom
import LoomTesting
import NotificationFeature
import Testing

/// Two changes to one notification made before the first is confirmed: the person's last
/// choice must win, here and on the backend.
///
/// Found by the lifetime model-based test. Still a known issue (#13): each change is sent at
/// once, so an older one can reach the backend after a newer one;
/// `LifetimeModelTests.changesToOneNotificationApplyInOrder` turns the model's check on once it
/// is fixed, and so does the first test here (it then fails as "known issue not recorded").
/// Fixed: the changes still pending apply to a notification the backend reports in the order
/// they were made (`PendingChanges`), not in a dictionary's order.
@MainActor
struct ChangeOrderTests {
  @Test func anOlderChangeAnsweredLastDoesNotUndoANewerOneOnTheBackend() async {
    let backendIsRead = LockedState(false)
    let readArrives = TestContinuation<Void>()
    let store = Store(initialState: NotificationsFeature.State(notifications: Fixtures.feed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient.markAsRead = { _ in
        try await readArrives.value
        backendIsRead.withLock { $0 = true }
      }
      $0.notificationClient.markAsUnread = { _ in backendIsRead.withLock { $0 = false } }
    }
    let read = store.send(.markAsRead("n1"))
    await store.send(.markAsUnread("n1")).finish()
    readArrives.resume()
    await read.finish()
    #expect(store.state.notifications[id: "n1"]?.isRead == false)
    withKnownIssue("changes to one notification are sent at once and reach the backend in any order") {
      #expect(backendIsRead.withLock { $0 } == false)
    }
  }

  @Test func theNewestPendingChangeAppliesToANotificationTheBackendReports() async {
    let markAllArrives = TestContinuation<Void>()
    let unreadArrives = TestContinuation<Void>()
    let store = Store(initialState: NotificationsFeature.State(notifications: Fixtures.feed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient.markAllAsRead = { _ in try await markAllArrives.value }
      $0.notificationClient.markAsUnread = { _ in try await unreadArrives.value }
    }
    let markAll = store.send(.markAllAsRead)
    let unread = store.send(.markAsUnread("n1"))
    // The backend applied the mark-all and reports n1 read; the newer mark-unread is pending.
    var reported = Fixtures.feed[0]
    reported.isRead = true
    store.send(.liveEvent(NotificationEvent(.updated(reported))))
    #expect(store.state.notifications[id: "n1"]?.isRead == false)
    markAllArrives.resume()
    unreadArrives.resume()
    await markAll.finish()
    await unread.finish()
  }
}
