import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// Loading more starts after the oldest notification the backend listed, and a refresh
/// supersedes a load-more still in flight.
@MainActor
struct PagingTests {
  /// The feed, a push the backend has not listed yet and a local notice, with more to load.
  func stateWithUnlistedItems() -> NotificationsFeature.State {
    let push = Fixtures.notification("push-1")
    let notice = NotificationData(
      id: "local-1", type: .system, title: "Saved", message: "Saved", timestamp: Fixtures.now,
      isRead: true, priority: .silent, isLocal: true)
    var state = NotificationsFeature.State(notifications: Fixtures.feed + [push, notice])
    state.unlistedPushIDs = ["push-1"]
    state.hasLoadedOnce = true
    state.hasMore = true
    return state
  }

  /// 60 notifications, the first deleted, then "load more": by offset the next page began at
  /// the 51st of those left, so n50 was never listed, yet counted unread.
  @Test func deletingTheFirstThenLoadingMoreListsEveryNotification() async {
    let feed = (0..<60).map { Fixtures.notification("n\($0)", minutesAgo: Double($0 + 1)) }
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = Store(initialState: NotificationsFeature.State()) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient = backend.client
    }
    await store.send(.refreshRequested).finish()
    #expect(store.state.notifications.count == 50)
    await store.send(.delete("n0")).finish()
    await store.send(.loadMoreRequested).finish()
    #expect(store.state.notifications.ids == (1..<60).map { "n\($0)" })
    #expect(store.state.unreadCount == 59)
    #expect(!store.state.hasMore)
  }

  /// Without a cursor (a cached page had none), the next page starts after the oldest
  /// notification the backend listed: not a push it has not listed, nor a local notice.
  @Test func withoutACursorTheNextPageStartsAfterTheOldestTheBackendListed() async {
    let requests = LockedState<[PageRequest]>([])
    let store = makeStore(state: stateWithUnlistedItems()) {
      $0.notificationClient.fetchPage = { request in
        requests.withLock { $0.append(request) }
        return NotificationPage(items: [])
      }
    }
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(NotificationPage(items: []), replacing: false)) {
      $0.isLoading = false
      $0.hasMore = false
    }
    await store.finish()
    let oldest = Fixtures.feed.sorted(by: NotificationData.isOrderedBefore).last
    let expected: [PageRequest] = [
      PageRequest(limit: NotificationsFeature.pageSize, cursor: oldest.map { PageKey(after: $0).cursor })
    ]
    #expect(requests.withLock { $0 } == expected)
  }

  @Test func aRefreshCancelsALoadMoreInFlightAndItsPageIsNeverApplied() async {
    let stalePage = TestContinuation<NotificationPage>()
    let fresh = NotificationPage(items: [Fixtures.notification("n0")], nextCursor: "c2")
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    state.hasMore = true
    state.nextCursor = "c1"
    let store = makeStore(state: state) {
      $0.notificationClient.fetchPage = { request in
        if request.cursor == "c1" { return try await stalePage.value }
        return fresh
      }
    }
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.send(.refreshRequested)
    await store.receive(.pageLoaded(fresh, replacing: true)) {
      $0.notifications = [Fixtures.notification("n0")]
      $0.isLoading = false
      $0.hasMore = false
      $0.nextCursor = "c2"
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The older page arrives after the refresh: it would list items of the feed before it.
    stalePage.resume(returning: NotificationPage(items: [Fixtures.notification("old")]))
    await store.finish()
    #expect(store.state.notifications.ids == ["n0"])
  }
}
