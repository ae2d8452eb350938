import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// A client with an offline cache: its cached first page shows at launch, until the backend's.
@MainActor
struct CachedPageTests {
  func launch(
    cached: TestContinuation<NotificationPage?>, page: TestContinuation<NotificationPage>
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    makeStore([]) {
      $0.notificationClient.cachedPage = { _ in try await cached.value }
      $0.notificationClient.fetchPage = { _ in try await page.value }
      // The live stream never opens: these tests are about the pages.
      let opening = TestContinuation<AsyncThrowingStream<NotificationEvent, any Error>>()
      $0.notificationClient.updates = { _ in try await opening.value }
      $0.pushClient.responses = { TestStream<PushClient.Response>().stream }
    }
  }

  @Test func theCachedPageShowsAtOnceAndTheBackendsPageReplacesIt() async {
    let cached = TestContinuation<NotificationPage?>()
    let page = TestContinuation<NotificationPage>()
    let store = launch(cached: cached, page: page)
    let appear = await store.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await store.receive(.savedFilterLoaded(nil))
    await store.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    let stale = NotificationPage(
      items: [Fixtures.feed[0], Fixtures.feed[1]], hasMore: true, unreadTotal: 5)
    cached.resume(returning: stale)
    await store.receive(.cachedPageLoaded(stale)) {
      // Shown, and still loading: the backend has not answered.
      $0.notifications = [Fixtures.feed[0], Fixtures.feed[1]]
      $0.unreadNotLoaded = 3
    }
    await store.receive(.delegate(.unreadCountChanged(5)))
    let fresh = NotificationPage(items: [Fixtures.feed[1], Fixtures.feed[2]], unreadTotal: 1)
    page.resume(returning: fresh)
    await store.receive(.pageLoaded(fresh, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.notifications = [Fixtures.feed[1], Fixtures.feed[2]]
      $0.unreadNotLoaded = 0
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func aCachedPageArrivingAfterTheBackendsIsIgnored() async {
    let store = makeStore([]) {
      $0.notificationClient.fetchPage = { _ in NotificationPage(items: []) }
    }
    await store.send(.pageLoaded(NotificationPage(items: [Fixtures.feed[0]]), replacing: true)) {
      $0.hasLoadedOnce = true
      $0.notifications = [Fixtures.feed[0]]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.cachedPageLoaded(NotificationPage(items: [Fixtures.feed[1]])))
  }

  @Test func aCachedPageLeavesPushesTheBackendHasNotListedAlone() async {
    // The person read a push before the relaunch; the cache has the backend's unread copy.
    var state = NotificationsFeature.State(notifications: [Fixtures.notification("p1", isRead: true)])
    state.unlistedPushIDs = ["p1"]
    let store = makeStore(state: state)
    await store.send(
      .cachedPageLoaded(NotificationPage(items: [Fixtures.notification("p1"), Fixtures.feed[2]]))
    ) {
      $0.notifications = [Fixtures.notification("p1", isRead: true), Fixtures.feed[2]]
    }
  }
}
