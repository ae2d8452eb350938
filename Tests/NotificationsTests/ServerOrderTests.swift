import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// What the backend says is applied only when it is newer than what the list shows: every
/// notification carries the cursor of its last change (`NotificationData.version`), every page
/// the cursor it reflects and every answer to a change the cursor of that change
/// (`NotificationClient.apply`), so a page or an event the backend made before a change, arriving
/// after it, does not undo it (issue #23). Each call is held back with a `TestContinuation` so
/// that it answers in the order the test names.
@MainActor
struct ServerOrderTests {
  /// A store showing the backend's feed, its page loaded, with the backend's client and a
  /// page request the test answers.
  func makeStore(
    _ backend: InMemoryNotificationBackend, page: TestContinuation<NotificationPage>
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    return NotificationsTests.makeStore(state: state) {
      $0.notificationClient = backend.client
      $0.notificationClient.fetchPage = { _ in try await page.value }
    }
  }

  func firstPage(of backend: InMemoryNotificationBackend) async throws -> NotificationPage {
    try await backend.client.fetchPage(PageRequest(limit: NotificationsFeature.pageSize))
  }

  @Test func aPageReadBeforeAConfirmedReadAndAnsweredAfterItLeavesItRead() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let page = TestContinuation<NotificationPage>()
    let store = makeStore(backend, page: page)
    // The backend reads the page before the person's read reaches it.
    let stale = try await firstPage(of: backend)

    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 1))) {
      $0.sync.pendingChanges = [:]
      $0.notifications[id: "n1"]?.version = 1
    }
    await store.receive(.delegate(.unreadCountChanged(1)))

    await store.send(.refreshRequested) { $0.isLoading = true }
    page.resume(returning: stale)
    await store.receive(.pageLoaded(stale, replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 0
      $0.unreadNotLoaded = 0
    }
    #expect(store.state.notifications[id: "n1"]?.isRead == true)
    await store.finish()
  }

  @Test func aPageReadBeforeAnotherDevicesChangeAndAnsweredAfterItKeepsTheChange() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let page = TestContinuation<NotificationPage>()
    let store = makeStore(backend, page: page)
    let stale = try await firstPage(of: backend)

    // Another device reads n2 and deletes nothing; the live stream tells.
    try await backend.client.markAsRead("n2")
    let read = try #require(backend.notifications.first { $0.id == "n2" })
    #expect(read.version == 1)
    await store.send(.liveEvent(NotificationEvent(.updated(read), cursor: 1))) {
      $0.newestCursor = 1
      $0.notifications[id: "n2"] = read
    }
    await store.receive(.delegate(.unreadCountChanged(1)))

    await store.send(.refreshRequested) { $0.isLoading = true }
    page.resume(returning: stale)
    await store.receive(.pageLoaded(stale, replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 0
      $0.unreadNotLoaded = 0
    }
    #expect(store.state.notifications[id: "n2"] == read)
  }

  @Test func aReplayedUnreadOlderThanAConfirmedMarkAllLeavesItRead() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let store = makeStore(backend, page: TestContinuation())
    // Another device reads n1, then makes it unread again: the event of the unread (cursor 2)
    // is delivered late, after the person's mark-all is confirmed.
    try await backend.client.markAsRead("n1")
    try await backend.client.markAsUnread("n1")
    let unread = try #require(backend.notifications.first { $0.id == "n1" })
    #expect(unread.version == 2 && !unread.isRead)

    await store.send(.markAllAsRead) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n1", "n2"])
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 4))) {
      $0.sync.pendingChanges = [:]
      $0.notifications[id: "n1"]?.version = 4
      $0.notifications[id: "n2"]?.version = 4
    }
    await store.receive(.delegate(.unreadCountChanged(0)))

    await store.send(.liveEvent(NotificationEvent(.updated(unread), cursor: 2))) {
      $0.newestCursor = 2
    }
    #expect(store.state.notifications[id: "n1"]?.isRead == true)
    #expect(store.state.unreadCount == 0)
  }

  @Test func aNewerEventAfterAConfirmedChangeIsApplied() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let store = makeStore(backend, page: TestContinuation())
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 1))) {
      $0.sync.pendingChanges = [:]
      $0.notifications[id: "n1"]?.version = 1
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // Another device makes it unread after: newer, so shown.
    try await backend.client.markAsUnread("n1")
    let unread = try #require(backend.notifications.first { $0.id == "n1" })
    await store.send(.liveEvent(NotificationEvent(.updated(unread), cursor: 2))) {
      $0.newestCursor = 2
      $0.notifications[id: "n1"] = unread
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
  }
}

@MainActor
struct LaunchOrderTests {
  /// Appears with nothing loaded or saved: the first page is on its way, the stream not open.
  func launch(
    _ store: TestStore<NotificationsFeature.State, NotificationsFeature.Action>
  ) async -> TestStoreTask {
    let appear = await store.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await store.receive(.savedFilterLoaded(nil))
    await store.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    return appear
  }

  /// At launch the live stream opens once the first page says which change it reflects, from
  /// that cursor, so a change the backend made between the page and the opening is shown.
  /// Opened at once, before any cursor was known, it started from the moment it opened and
  /// such a change was never shown.
  @Test func aChangeBetweenTheFirstPageAndTheStreamOpeningIsShown() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let pageResponse = TestContinuation<NotificationPage>()
    let store = makeStore([]) {
      $0.notificationClient = backend.client
      $0.notificationClient.fetchPage = { _ in try await pageResponse.value }
      $0.pushClient.responses = { AsyncStream { _ in } }
    }
    let appear = await launch(store)

    // The backend reads the first page, then another device adds a notification, before the
    // page reaches the device.
    let page = try await backend.client.fetchPage(PageRequest(limit: NotificationsFeature.pageSize))
    var newer = Fixtures.notification("n0", minutesAgo: 0)
    backend.insert(newer)
    newer.version = 1
    pageResponse.resume(returning: page)
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.newestCursor = 0
      $0.unreadNotLoaded = 0
      $0.notifications = NotificationFeed(uniqueElements: page.items)
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.caughtUp([NotificationEvent(.inserted(newer), cursor: 1)])) {
      $0.newestCursor = 1
      $0.notifications.insert(newer, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.receive(.delegate(.unreadCountChanged(3)))

    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  /// A first page that fails at launch opens the stream from now, so the feature still hears
  /// changes and reconnects.
  @Test func aFailedFirstPageOpensTheStreamFromNow() async throws {
    let opened = TestContinuation<ChangeCursor?>()
    let store = makeStore([]) {
      $0.notificationClient.fetchPage = { _ in throw UserFacingError.network }
      $0.notificationClient.updates = { since in
        opened.resume(returning: since)
        return AsyncThrowingStream { _ in }
      }
      $0.pushClient.responses = { AsyncStream { _ in } }
    }
    let appear = await launch(store)
    await store.receive(.pageFailed(.network)) {
      $0.isLoading = false
      $0.error = .network
    }
    await store.receive(.delegate(.errorOccurred(.network)))
    await store.receive(.updatesConnected) { $0.connection = .live }
    #expect(try await opened.value == nil)
    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }
}

@MainActor
struct AnswerOrderTests {
  /// The person's read reaches the backend first; another device makes the notification
  /// unread after it, and the live stream says so before the person's answer arrives: the
  /// answer is older than what is listed, so the backend's copy is fetched and listed. Before,
  /// the person's read stayed shown over the other device's later unread.
  @Test func anotherDevicesLaterChangeHeardBeforeTheAnswerIsShown() async throws {
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let reached = TestContinuation<Void>()
    let answer = TestContinuation<Void>()
    let store = makeStore {
      $0.notificationClient = backend.client
      $0.notificationClient.apply = { request in
        let cursor = try await backend.client.apply(request)
        reached.resume(returning: ())
        try await answer.value
        return cursor
      }
    }
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    try await reached.value

    try await backend.client.markAsUnread("n1")
    let unread = try #require(backend.notifications.first { $0.id == "n1" })
    #expect(unread.version == 2 && !unread.isRead)
    await store.send(.liveEvent(NotificationEvent(.updated(unread), cursor: 2))) {
      // Still the person's choice while it is on its way.
      $0.newestCursor = 2
      $0.notifications[id: "n1"]?.version = 2
    }

    answer.resume(returning: ())
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 1))) { $0.sync.pendingChanges = [:] }
    await store.receive(.notificationLoaded(unread, thenTap: false)) {
      $0.notifications[id: "n1"] = unread
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
  }
}
