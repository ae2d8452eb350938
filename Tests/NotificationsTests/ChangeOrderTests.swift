import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Two changes to one notification made before the first is confirmed: the person's last
/// choice must win, here and on the backend.
///
/// Found by the lifetime model-based test: each change was sent at once, so an older one could
/// reach the backend after a newer one. Fixed: a newer change waits for the older one's call
/// (`NotificationSyncEngine.State.waiting`), and the changes still pending apply to a
/// notification the backend reports in the order they were made (`PendingChanges`).
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
    #expect(backendIsRead.withLock { $0 } == false)
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

  /// Found by the lifetime model-based test once it checked the person's last choice: a
  /// mark-all named a push the feed had not listed, so while it was pending, the push the
  /// person had marked unread since was listed read again when the feed listed it. A push the
  /// feed has not listed is changed on the device only, by a mark-all too.
  @Test func aPendingMarkAllLeavesAloneAPushTheFeedListsLater() async {
    let markAllArrives = TestContinuation<Void>()
    let marked = LockedState<[[String]?]>([])
    let store = Store(initialState: NotificationsFeature.State(notifications: Fixtures.feed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient.markAllAsRead = { ids in
        try await markAllArrives.value
        marked.withLock { $0.append(ids) }
      }
      $0.notificationClient.markAsUnread = { _ in }
    }
    let payload = Data(
      #"{"id":"p1","type":"ping","title":"Title p1","body":"Message p1","timestamp":1700000000}"#
        .utf8)
    await store.send(.pushReceived(payload)).finish()
    let markAll = store.send(.markAllAsRead)
    await store.send(.markAsUnread("p1")).finish()
    guard var listed = store.state.notifications[id: "p1"] else {
      Issue.record("the push p1 is not listed")
      return
    }
    // The feed lists the push, unread.
    store.send(.liveEvent(NotificationEvent(.inserted(listed))))
    #expect(store.state.notifications[id: "p1"]?.isRead == false)
    markAllArrives.resume()
    await markAll.finish()
    #expect(store.state.notifications[id: "p1"]?.isRead == false)
    #expect(marked.withLock { $0 } == [["n1", "n2"]])
    listed.isRead = false
    #expect(store.state.notifications[id: "p1"] == listed)
  }

  /// Found by the lifetime model-based test under load: a page the backend read before it
  /// applied a change, answered after the change was confirmed, listed the notification as it
  /// was before the change, with no error, until the next refresh.
  @Test func aPageReadBeforeAChangeWasConfirmedDoesNotUndoIt() async {
    let pageArrives = TestContinuation<Void>()
    let backendIsRead = LockedState(false)
    let store = Store(initialState: NotificationsFeature.State(notifications: Fixtures.feed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient.fetchPage = { _ in
        // Read now, answered later.
        var items = Fixtures.feed
        items[0].isRead = backendIsRead.withLock { $0 }
        try await pageArrives.value
        return NotificationPage(items: items, hasMore: false)
      }
      $0.notificationClient.markAsRead = { _ in backendIsRead.withLock { $0 = true } }
    }
    let refresh = store.send(.refreshRequested)
    await Task.yield()
    await store.send(.markAsRead("n1")).finish()
    #expect(store.state.sync.pendingChanges.isEmpty)
    pageArrives.resume()
    await refresh.finish()
    #expect(backendIsRead.withLock { $0 })
    #expect(store.state.notifications[id: "n1"]?.isRead == true)
  }
}
