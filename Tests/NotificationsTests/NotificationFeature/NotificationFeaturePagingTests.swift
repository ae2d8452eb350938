import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// Pages: the next page follows the server's cursor, so a deletion does not skip a
/// notification; a refresh supersedes a load-more in flight; a page the device cached shows at
/// once, until the server's first page replaces it. Ported from `PagingTests`,
/// `CachedPageTests` and `LifecycleTests`.
@MainActor
struct NotificationFeaturePagingTests {
  typealias Feature = NotificationFeature

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let n3 = Ported.notification("n3", version: 2, minutesAgo: 3)
  static let page = NotificationPage(
    items: [n1, n2], nextCursor: "after-n2", hasMore: true, changeCursor: 5)

  /// "Load more" asks for the page after the first page's cursor, and appends it.
  @Test func loadingMoreAppendsTheNextPageFromItsCursor() async {
    let later = NotificationPage(items: [Self.n3], hasMore: false, changeCursor: 5)
    let backend = Ported.Backend(pages: [Self.page, later])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.loadMoreRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(later, first: false)) {
      $0.paging.isLoading = false
      $0.paging.hasMore = false
      $0.paging.next = nil
      $0.server.append(later)
      $0.shown.append(Self.n3)
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
    let requests = backend.pageRequests.withLock { $0 }
    #expect(requests.map(\.cursor) == [nil, "after-n2"])
    await Ported.leave(store)
  }

  /// 60 notifications, the first deleted, then "load more": every notification is listed (by
  /// offset the next page began at the 51st of those left, and n50 was never listed).
  @Test func deletingTheFirstThenLoadingMoreListsEveryNotification() async {
    let feed: [NotificationData] = (0..<60).map {
      Ported.notification("n\($0)", version: nil, minutesAgo: Double($0 + 1))
    }
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = Ported.makeStore(
      backend: Ported.Backend(pages: []), client: backend.client)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(.updatesConnected)
    #expect(store.state.shown.count == 50)
    await store.send(.delete("n0"))
    await store.receive(where: { if case .changeAnswered = $0 { true } else { false } })
    await store.send(.loadMoreRequested)
    await store.receive(where: { if case .pageLoaded(_, first: false) = $0 { true } else { false } })
    let expected: [String] = (1..<60).map { "n\($0)" }
    #expect(store.state.shown.ids == expected)
    #expect(store.state.unreadCount == 59)
    #expect(!store.state.paging.hasMore)
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }

  /// A refresh cancels a load-more in flight: its page, of the feed before the refresh, is
  /// never appended.
  @Test func aRefreshCancelsALoadMoreInFlightAndItsPageIsNeverApplied() async {
    let stale = TestContinuation<NotificationPage>()
    let fresh = NotificationPage(items: [Self.n1], changeCursor: 6)
    let backend = Ported.Backend(pages: [.page(Self.page), .held(stale), .page(fresh)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.loadMoreRequested) { $0.paging.isLoading = true }
    await store.send(.refreshRequested)
    await store.receive(.pageLoaded(fresh, first: true)) {
      $0.paging.isLoading = false
      $0.paging.hasMore = false
      $0.paging.next = nil
      $0.server.replace(with: fresh)
      $0.shown = [Self.n1]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    stale.resume(returning: NotificationPage(items: [Self.n3], changeCursor: 5))
    await Ported.leave(store)
    #expect(store.state.shown.ids == ["n1"])
  }

  /// Lifetime seed 13569332322634961093: a refresh made while the launch's first page is in
  /// flight replaces it. The launch's page, read before a mark-all reached the server and
  /// answered after the refresh's page (which reaches only n1) let the mark-all's record go,
  /// would show n2 and n3 unread: copies older than what the feature has seen.
  @Test func aRefreshReplacesTheFirstPageInFlightAndItsPageIsNeverApplied() async {
    let launchPage = TestContinuation<NotificationPage>()
    let read1 = Ported.read(Self.n1, version: 58)
    let refreshed = NotificationPage(
      items: [read1], nextCursor: "after-n1", hasMore: true, unreadTotal: 0, changeCursor: 62)
    let backend = Ported.Backend(
      pages: [.held(launchPage), .page(refreshed)], answers: [.at(58)])
    let store = Ported.makeStore(backend: backend)
    await Ported.appearWithNothingSaved(store)
    await store.send(.markAllAsRead) {
      $0.log.record(.markAllAsRead(nil), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 58)) { $0.log.acknowledge(UUID(0), at: 58) }
    await store.send(.refreshRequested)
    await store.receive(.pageLoaded(refreshed, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: refreshed)
      $0.paging.hasMore = true
      $0.paging.next = "after-n1"
      $0.log.forget(upTo: 62)
      $0.shown = [read1]
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    launchPage.resume(
      returning: NotificationPage(items: [Self.n1, Self.n2, Self.n3], changeCursor: 7))
    await Ported.leave(store)
    #expect(store.state.shown.ids == ["n1"])
    #expect(store.state.unreadCount == 0)
  }

  /// A store over `backend` whose device cache answers `cached`.
  func store(
    _ backend: Ported.Backend, cached: TestContinuation<NotificationPage?>,
    saved: ChangeLogStore = .inMemory()
  ) -> Ported.Store {
    var client = backend.client
    client.cachedPage = { _ in try await cached.value }
    return Ported.makeStore(backend: backend, saved: saved, client: client)
  }

  /// The page the device cached is shown at once, while the server's first page loads; the
  /// server's page then replaces it.
  @Test func theCachedPageShowsAtOnceAndTheServersPageReplacesIt() async {
    let cached = TestContinuation<NotificationPage?>()
    let first = TestContinuation<NotificationPage>()
    let backend = Ported.Backend(pages: [.held(first)])
    let store = store(backend, cached: cached)
    await Ported.appearWithNothingSaved(store)
    let stale = NotificationPage(items: [Self.n1, Self.n2], hasMore: true, unreadTotal: 5, changeCursor: 3)
    cached.resume(returning: stale)
    await store.receive(.cachedPageLoaded(stale)) {
      $0.server.replace(withCached: stale)
      $0.paging.hasMore = true
      $0.shown = [Self.n1, Self.n2]
    }
    await store.receive(.delegate(.unreadCountChanged(5)))
    #expect(store.state.paging.isLoading)
    let fresh = NotificationPage(items: [Self.n2, Self.n3], unreadTotal: 2, changeCursor: 5)
    first.resume(returning: fresh)
    // The server's first page opens the live stream, from its cursor: the cached page is not
    // a listing of this launch's.
    await store.receive(.pageLoaded(fresh, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: fresh)
      $0.paging.hasMore = false
      $0.shown = [Self.n2, Self.n3]
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.shown.ids == ["n2", "n3"])
    #expect(backend.opened.withLock { $0 } == [5])
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A cached page that arrives after the server's first page is not shown: it is older.
  @Test func aCachedPageArrivingAfterTheServersIsIgnored() async {
    let cached = TestContinuation<NotificationPage?>()
    let first = NotificationPage(items: [Self.n1], changeCursor: 5)
    let store = store(Ported.Backend(pages: [first]), cached: cached)
    await Ported.launch(store, listing: first)
    let late = NotificationPage(items: [Self.n2], changeCursor: 3)
    cached.resume(returning: late)
    await store.receive(.cachedPageLoaded(late))
    #expect(store.state.shown.ids == ["n1"])
    await Ported.leave(store)
  }

  /// A push the person read before a relaunch stays read when the cached page lists the
  /// server's unread copy.
  @Test func aCachedPageLeavesAPushReadHereRead() async throws {
    let pushPayload = Ported.pushPayload("p1", minutesAgo: 0.5)
    let push = Ported.parsed(pushPayload)
    var saved = ChangeLog()
    saved.receive(push, at: Ported.start)
    saved.record(.markAsRead("p1"), id: UUID(100))
    var listed = push
    listed.version = 3
    let cached = TestContinuation<NotificationPage?>()
    let first = TestContinuation<NotificationPage>()
    let store = store(
      Ported.Backend(pages: [.held(first)], answers: [.at(4)]), cached: cached,
      saved: .inMemory(saved))
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(where: { if case .restored = $0 { true } else { false } })
    #expect(store.state.shown == [Ported.read(push)])
    let stale = NotificationPage(items: [listed, Self.n1], changeCursor: 3)
    cached.resume(returning: stale)
    await store.receive(.cachedPageLoaded(stale))
    #expect(store.state.shown == [Ported.read(listed), Self.n1])
    // Listed by the cache, the read is sent.
    await store.receive(.changeAnswered(UUID(100), 4))
    let fresh = NotificationPage(items: [Ported.read(listed, version: 4), Self.n1], changeCursor: 4)
    first.resume(returning: fresh)
    await store.receive(.pageLoaded(fresh, first: true))
    #expect(store.state.shown == [Ported.read(listed, version: 4), Self.n1])
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }
}
