import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The catch-up after a reconnect replays only what came after the first page the list shows:
/// a page says which change it reflects (`NotificationPage.changeCursor`), and loading a first
/// page makes that the newest cursor, so a change the page already has is not applied twice
/// (issue #13).
///
/// The backend holds ``PagedFeed/notifications``: 120 unread of 130, 50 on the first page.
@MainActor
struct CatchUpReplayTests {
  /// A store whose first page is loaded (so appearing only opens the streams), with no cursor
  /// yet, on a test clock.
  func makeLoadedStore(
    _ client: NotificationClient, clock: TestClock
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    let firstPage: [NotificationData] = Array(PagedFeed.notifications.prefix(50))
    var state = NotificationsFeature.State(notifications: firstPage)
    state.hasLoadedOnce = true
    state.hasMore = true
    state.nextCursor = PagedFeed.cursor(50)
    state.unreadNotLoaded = 70
    return makeStore(state: state) {
      $0.notificationClient = client
      $0.continuousClock = clock
      $0.pushClient.responses = { AsyncStream { $0.finish() } }
    }
  }

  /// `id` as another device marks it read: the backend logs an update.
  func readElsewhere(_ id: String, on backend: InMemoryNotificationBackend) async throws {
    try await backend.client.markAsRead(id)
  }

  func read(_ id: String, on backend: InMemoryNotificationBackend) -> NotificationData? {
    backend.notifications.first { $0.id == id }
  }

  /// Connects, hears n60 (past the first page) read elsewhere, then loses the stream: the
  /// newest cursor is "1", and a reconnect is scheduled.
  func connectHearOneChangeAndDrop(
    _ store: TestStore<NotificationsFeature.State, NotificationsFeature.Action>,
    backend: InMemoryNotificationBackend
  ) async throws {
    await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    try await readElsewhere("n60", on: backend)
    let n60 = try #require(read("n60", on: backend))
    await store.receive(.liveEvent(NotificationEvent(.updated(n60), cursor: 1))) {
      $0.newestCursor = 1
      $0.notifications.append(n60)
      $0.unreadNotLoaded = 69
    }
    await store.receive(.delegate(.unreadCountChanged(119)))
    backend.dropUpdates()
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
  }

  @Test func aRefreshWhileOfflineIsNotCaughtUpAgainOnReconnect() async throws {
    let backend = InMemoryNotificationBackend(seed: PagedFeed.notifications)
    let clock = TestClock()
    let store = makeLoadedStore(backend.client, clock: clock)
    try await connectHearOneChangeAndDrop(store, backend: backend)

    // While the stream is down, another device reads n70 (cursor 2), and the person refreshes:
    // the page reflects that change (118 unread) and says so.
    try await readElsewhere("n70", on: backend)
    let page = try await backend.client.fetchPage(PageRequest(limit: 50))
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 2
      $0.notifications = NotificationFeed(uniqueElements: PagedFeed.notifications.prefix(50))
      $0.unreadNotLoaded = 68
    }
    await store.receive(.delegate(.unreadCountChanged(118)))

    // The reconnect catches up after the page: nothing to replay.
    await clock.run()
    await store.receive(.reconnect(attempt: 1))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.caughtUp([]))
    #expect(store.state.unreadCount == backend.notifications.count(where: { !$0.isRead }))
    #expect(store.state.unreadCount == 118)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func aCatchUpAskedBeforeAFirstPageLoadedSkipsWhatThePageHas() async throws {
    let backend = InMemoryNotificationBackend(seed: PagedFeed.notifications)
    let clock = TestClock()
    // The catch-up waits until the test lets it answer.
    let catchUp = TestContinuation<Void>()
    var client = backend.client
    let changesSince = client.changesSince
    client.changesSince = { cursor in
      try await catchUp.value
      return try await changesSince(cursor)
    }
    let store = makeLoadedStore(client, clock: clock)
    try await connectHearOneChangeAndDrop(store, backend: backend)

    // While the stream is down, another device reads n70 (cursor 2). The reconnect asks for
    // the changes after "1"; before they arrive, a refresh loads a page that has n70 read.
    try await readElsewhere("n70", on: backend)
    let n70 = try #require(read("n70", on: backend))
    await clock.run()
    await store.receive(.reconnect(attempt: 1))
    await store.receive(.updatesConnected) { $0.connection = .live }
    let page = try await backend.client.fetchPage(PageRequest(limit: 50))
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 2
      $0.notifications = NotificationFeed(uniqueElements: PagedFeed.notifications.prefix(50))
      $0.unreadNotLoaded = 68
    }
    await store.receive(.delegate(.unreadCountChanged(118)))

    // The catch-up replays the change after "1", which the page reflects: it is skipped, and
    // so is the stream's replay of it.
    catchUp.resume(returning: ())
    await store.receive(.caughtUp([NotificationEvent(.updated(n70), cursor: 2)]))
    #expect(store.state.unreadCount == backend.notifications.count(where: { !$0.isRead }))
    #expect(store.state.unreadCount == 118)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func aCatchUpAppliesWhatCameAfterThePage() async throws {
    let backend = InMemoryNotificationBackend(seed: PagedFeed.notifications)
    let clock = TestClock()
    let store = makeLoadedStore(backend.client, clock: clock)
    try await connectHearOneChangeAndDrop(store, backend: backend)

    // Offline: n70 read elsewhere (cursor 2), a refresh, then n80 read elsewhere (cursor 3).
    try await readElsewhere("n70", on: backend)
    let page = try await backend.client.fetchPage(PageRequest(limit: 50))
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 2
      $0.notifications = NotificationFeed(uniqueElements: PagedFeed.notifications.prefix(50))
      $0.unreadNotLoaded = 68
    }
    await store.receive(.delegate(.unreadCountChanged(118)))
    try await readElsewhere("n80", on: backend)
    let n80 = try #require(read("n80", on: backend))

    // Only the change after the page is caught up.
    await clock.run()
    await store.receive(.reconnect(attempt: 1))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.caughtUp([NotificationEvent(.updated(n80), cursor: 3)])) {
      $0.newestCursor = 3
      $0.notifications.append(n80)
      $0.unreadNotLoaded = 67
    }
    await store.receive(.delegate(.unreadCountChanged(117)))
    #expect(store.state.unreadCount == backend.notifications.count(where: { !$0.isRead }))
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// Found by the lifetime test under load: a stream that replays the changes after the cursor
  /// it was opened with delivered, after a first page that had them, a change older than the
  /// person's confirmed "read", which showed the notification unread again.
  @Test func aReplayedChangeAFirstPageAlreadyHadIsSkipped() async {
    let n1 = Fixtures.feed[0]
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    state.notifications[id: "n1"]?.isRead = true
    // The first page reflected the changes up to cursor 33; the person's read came after.
    state.newestCursor = 33
    let store = makeStore(state: state)
    // The stream replays the insertion of n1 (cursor 21): the list has it, as it is now.
    await store.send(.liveEvent(NotificationEvent(.inserted(n1), cursor: 21)))
    await store.send(.caughtUp([NotificationEvent(.updated(n1), cursor: 30)]))
    // A change after the page is applied, and moves the cursor on.
    var n2 = Fixtures.feed[1]
    n2.isRead = true
    await store.send(.liveEvent(NotificationEvent(.updated(n2), cursor: 34))) {
      $0.newestCursor = 34
      $0.notifications[id: "n2"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
  }

  /// A backend whose cursors started again (its database made anew) answers a catch-up from a
  /// cursor newer than its newest with a snapshot: the list becomes it, and the changes after
  /// it apply, though their cursors are below the one the list had.
  @Test func aBackendWhoseCursorsStartedAgainIsFollowedFromItsSnapshot() async {
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    state.newestCursor = 120
    let store = makeStore(state: state)
    let fresh = Fixtures.notification("f1", minutesAgo: 0)
    await store.send(.caughtUp([NotificationEvent(.snapshot([fresh]), cursor: 3)])) {
      $0.newestCursor = 3
      $0.notifications = [fresh]
      $0.deletedIDs = []
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let next = Fixtures.notification("f2", minutesAgo: -1)
    await store.send(.liveEvent(NotificationEvent(.inserted(next), cursor: 4))) {
      $0.newestCursor = 4
      $0.notifications.insert(next, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
  }
}
