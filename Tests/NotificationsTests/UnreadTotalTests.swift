import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The backend's notifications: 120 unread of 130.
private let feed = PagedFeed.notifications

/// The unread count and the badge are the backend's total, adjusted by the changes made here
/// that it has not confirmed yet, and not only the notifications loaded: 120 unread on the
/// backend read 120 after a first page of 50. Pushes and live changes are in
/// `UnreadTotalEventTests`, random sequences in `UnreadTotalModelTests`.
@MainActor
struct UnreadTotalTests {
  // MARK: The backend's total

  @Test func aFirstPageOf50Of120UnreadCounts120AndARefreshShowsTheBackendsNumber() async throws {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    #expect(store.state.badgeText == "99+")

    await store.send(.markAsRead("n0")) {
      $0.notifications[id: "n0"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n0", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 1))) {
      $0.sync.pendingChanges = [:]
      $0.notifications[id: "n0"]?.version = 1
    }
    await store.receive(.delegate(.unreadCountChanged(119)))

    // The backend confirmed it: its total is the count already.
    var confirmed = feed
    confirmed[0].isRead = true
    confirmed[0].version = 1
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        PagedFeed.page(0..<50, of: confirmed, unreadTotal: 119, changes: 1), replacing: true)
    ) {
      $0.isLoading = false
      $0.newestCursor = 1
    }

    // Another device reads two notifications this one has not loaded: the next refresh says so.
    try await backend.client.markAllAsRead(["n60", "n61"])
    confirmed[60].isRead = true
    confirmed[60].version = 2
    confirmed[61].isRead = true
    confirmed[61].version = 3
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        PagedFeed.page(0..<50, of: confirmed, unreadTotal: 117, changes: 3), replacing: true)
    ) {
      $0.isLoading = false
      $0.newestCursor = 3
      $0.unreadNotLoaded = 68
    }
    await store.receive(.delegate(.unreadCountChanged(117)))
  }

  @Test func aPermanentFailureRollsTheCountBackToTheBackendsTotal() async {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    backend.failNext(1, with: .notFound)
    await store.send(.markAsRead("n0")) {
      $0.notifications[id: "n0"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n0", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeFailed(UUID(0), .notFound))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(119)))
    let undone = NotificationsFeature.PendingChange.setRead(id: "n0", isRead: true, previous: false)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .notFound)))) {
      $0.notifications[id: "n0"]?.isRead = false
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    await store.receive(.delegate(.unreadCountChanged(120)))
  }

  @Test func loadingMorePagesLeavesTheCountAsItIs() async {
    let store = await PagedFeed.loadedStore()
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(PagedFeed.page(50..<100), replacing: false)) {
      $0.isLoading = false
      $0.nextCursor = PagedFeed.cursor(100)
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(100))
      $0.unreadNotLoaded = 20
    }
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(PagedFeed.page(100..<130), replacing: false)) {
      $0.isLoading = false
      $0.hasMore = false
      $0.nextCursor = nil
      $0.notifications = NotificationFeed(uniqueElements: feed)
      $0.unreadNotLoaded = 0
    }
    #expect(store.state.unreadCount == 120)
  }

  @Test func aPageThatRepeatsLoadedNotificationsTakesNothingOutTwice() async {
    let store = await PagedFeed.loadedStore()
    // By offset, after two new notifications pushed everything down: n48 and n49 again.
    await store.send(.pageLoaded(PagedFeed.page(48..<100, unreadTotal: 122), replacing: false)) {
      $0.nextCursor = PagedFeed.cursor(100)
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(100))
      $0.unreadNotLoaded = 20
    }
  }

  @Test func aLaterPageListingANotificationWhoseDeletionIsPendingTakesNothingOut() async {
    let store = await PagedFeed.loadedStore()
    let gate = AsyncStream<Void>.makeStream()
    store.dependencies.notificationClient.delete = { _ in for await _ in gate.stream { return } }
    await store.send(.delete("n49")) {
      $0.notifications.remove(id: "n49")
      $0.sync.pendingChanges[UUID(0)] = .delete(feed[49], index: 49)
      $0.deletedIDs = ["n49"]
    }
    await store.receive(.delegate(.unreadCountChanged(119)))
    // By offset, after a new notification pushed everything down: n49 again.
    await store.send(.pageLoaded(PagedFeed.page(49..<100, unreadTotal: 121), replacing: false)) {
      $0.nextCursor = PagedFeed.cursor(100)
      $0.notifications = NotificationFeed(
        uniqueElements: feed.prefix(100).filter { $0.id != "n49" })
      $0.unreadNotLoaded = 20
    }
    gate.continuation.yield()
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
    #expect(store.state.unreadCount == 119)
  }

  @Test func aPageWithoutATotalFallsBackToCountingTheLoadedNotifications() async {
    let first = PagedFeed.page(0..<50, unreadTotal: nil, changes: nil)
    let store = makeStore([]) { $0.notificationClient.fetchPage = { _ in first } }
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(first, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.hasMore = true
      $0.nextCursor = PagedFeed.cursor(50)
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(50))
    }
    await store.receive(.delegate(.unreadCountChanged(50)))
    #expect(store.state.unreadNotLoaded == nil)
    // And a later page counts what it loads.
    await store.send(.pageLoaded(PagedFeed.page(50..<100, unreadTotal: nil, changes: nil), replacing: false)) {
      $0.nextCursor = PagedFeed.cursor(100)
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(100))
    }
    await store.receive(.delegate(.unreadCountChanged(100)))
  }

  @Test func aFirstPageWithoutATotalDropsTheOneBefore() async {
    let store = await PagedFeed.loadedStore()
    await store.send(.pageLoaded(PagedFeed.page(0..<50, unreadTotal: nil), replacing: true)) {
      $0.unreadNotLoaded = nil
    }
    await store.receive(.delegate(.unreadCountChanged(50)))
  }

  // MARK: Changes made here

  @Test func aDeletionCountsOneFewerAlsoWhileTheBackendStillListsIt() async {
    let store = await PagedFeed.loadedStore()
    await store.send(.delete("n1")) {
      $0.notifications.remove(id: "n1")
      $0.sync.pendingChanges[UUID(0)] = .delete(feed[1], index: 1)
      $0.deletedIDs = ["n1"]
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 1))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(119)))

    // A refresh while the deletion of n0 is in flight: the page still lists n0, and the
    // backend's total still counts it, but the count does not.
    let gate = AsyncStream<Void>.makeStream()
    let page = NotificationPage(
      items: [feed[0]] + feed[2..<51], nextCursor: PagedFeed.cursor(51), hasMore: true,
      unreadTotal: 119)
    store.dependencies.notificationClient.delete = { _ in for await _ in gate.stream { return } }
    store.dependencies.notificationClient.fetchPage = { _ in page }
    await store.send(.delete("n0")) {
      $0.notifications.remove(id: "n0")
      $0.sync.pendingChanges[UUID(1)] = .delete(feed[0], index: 0)
      $0.deletedIDs = ["n0", "n1"]
    }
    await store.receive(.delegate(.unreadCountChanged(118)))
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.nextCursor = PagedFeed.cursor(51)
      $0.notifications = NotificationFeed(uniqueElements: feed[2..<51])
      $0.unreadNotLoaded = 69
    }
    gate.continuation.yield()
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) { $0.sync.pendingChanges = [:] }
    #expect(store.state.unreadCount == 118)
  }

  @Test func markingAllReadMarksTheLoadedOnesAndLeavesTheOthersCounted() async {
    let store = await PagedFeed.loadedStore()
    let ids = feed.prefix(50).map(\.id)
    await store.send(.markAllAsRead) {
      for id in ids { $0.notifications[id: id]?.isRead = true }
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ids)
    }
    // The backend made 50 changes: the answer is the last one's cursor, which every
    // notification it read gets as its version.
    await store.receive(.sync(.changeSucceeded(UUID(0), at: 50))) {
      $0.sync.pendingChanges = [:]
      for id in ids { $0.notifications[id: id]?.version = 50 }
    }
    await store.receive(.delegate(.unreadCountChanged(70)))
  }

  @Test func clearingAllCountsNoneAndAFailureRestoresTheTotal() async {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    backend.failNext(1, with: .server(status: 400))
    await store.send(.clearAll) {
      $0.notifications = []
      $0.unreadNotLoaded = 0
      $0.sync.pendingChanges[UUID(0)] = .clearAll(Array(feed.prefix(50)), unreadNotLoaded: 70)
      $0.deletedIDs = Set(feed.prefix(50).map(\.id))
    }
    await store.receive(.sync(.changeFailed(UUID(0), .server(status: 400)))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    let undone = NotificationsFeature.PendingChange.clearAll(
      Array(feed.prefix(50)), unreadNotLoaded: 70)
    await store.receive(.sync(.delegate(.rollBack(undone, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(50))
      $0.unreadNotLoaded = 70
      $0.error = .server(status: 400)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(120)))
  }

  @Test func aFirstPageWhileAClearAllIsQueuedCountsNone() async {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    // Offline: the clear is queued, and a first page that comes meanwhile has the old feed.
    store.dependencies.notificationClient.deleteAllUpTo = { _ in throw UserFacingError.network }
    store.dependencies.continuousClock = TestClock()
    await store.send(.clearAll) {
      $0.notifications = []
      $0.unreadNotLoaded = 0
      $0.sync.pendingChanges[UUID(0)] = .clearAll(Array(feed.prefix(50)), unreadNotLoaded: 70)
      $0.deletedIDs = Set(feed.prefix(50).map(\.id))
    }
    let rollback: NotificationsFeature.PendingChange = .clearAll(
      Array(feed.prefix(50)), unreadNotLoaded: 70)
    // What the person cleared: the newest listed and everything after it.
    let entry = NotificationsFeature.OutboxEntry.deleteAll(upTo: FeedPosition(feed[0]))
    await store.receive(.sync(.changeFailed(UUID(0), .network))) {
      $0.sync.pendingChanges = [:]
      $0.sync.outbox = [entry]
      $0.sync.outboxRollbacks[entry] = rollback
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(
        entries: [entry], rollbacks: [entry: rollback])
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.send(.pageLoaded(PagedFeed.page(0..<50), replacing: true))
    #expect(store.state.unreadCount == 0)
    // The queued clear fails for good: the list and the total come back.
    await store.send(.sync(.outboxEntryFailed(entry, .server(status: 400), attempt: 0))) {
      $0.sync.outbox = []
      $0.sync.outboxRollbacks = [:]
      $0.sync.outboxBeingSaved = NotificationsFeature.SavedOutbox(entries: [])
    }
    await store.receive(.sync(.delegate(.rollBack(rollback, error: .server(status: 400))))) {
      // Not deleted after all: later pages list them again.
      $0.deletedIDs = []
      $0.notifications = NotificationFeed(uniqueElements: feed.prefix(50))
      $0.unreadNotLoaded = 70
      $0.error = .server(status: 400)
    }
    await store.receive(.sync(.outboxSaved)) { $0.sync.outboxBeingSaved = nil }
    await store.receive(.delegate(.errorOccurred(.server(status: 400))))
    await store.receive(.delegate(.unreadCountChanged(120)))
    await store.skipInFlightEffects()
  }

  @Test func clearingAllWithNothingLoadedClearsWhatIsNotLoaded() async {
    var state = NotificationsFeature.State()
    state.unreadNotLoaded = 70
    let store = makeStore(state: state) { $0.notificationClient.deleteAll = {} }
    await store.send(.clearAll) {
      $0.unreadNotLoaded = 0
      $0.sync.pendingChanges[UUID(0)] = .clearAll([], unreadNotLoaded: 70)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(0)))
  }
}
