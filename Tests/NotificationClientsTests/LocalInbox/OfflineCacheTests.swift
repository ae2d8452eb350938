import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A notification; `version` is the cursor of the remote's last change to it, `nil` for one
/// the remote was seeded with and never changed.
private func sample(
  _ id: String, at seconds: Double, isRead: Bool = false, version: ChangeCursor? = nil
) -> NotificationData {
  NotificationData(
    id: id, type: .alert, title: "T \(id)", message: "M",
    timestamp: Date(timeIntervalSince1970: seconds), isRead: isRead, version: version)
}

struct OfflineCacheTests {
  @Test func theRemotesPagesAreCachedAndServedWhenItCannotBeReached() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend(seed: (0..<3).map { sample("n\($0)", at: 10 - Double($0)) })
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let client = cache.caching(remote.client)
    #expect(try await client.cachedPage(PageRequest(limit: 2)) == nil)
    let online = try await client.fetchPage(PageRequest(limit: 2))
    // The remote's page says the remote's newest change; a cached page says none (the cache's
    // own log is not the remote's).
    #expect(online.changeCursor == 0)
    _ = try await client.fetchPage(PageRequest(limit: 2, cursor: online.nextCursor))
    // Offline: the same pages, from the cache, whose cursors (naming their last notification,
    // as the remote's do) read on in the cache.
    remote.failNext(2, with: .network)
    let first = try await client.fetchPage(PageRequest(limit: 2))
    #expect(
      first
        == NotificationPage(
          items: online.items, nextCursor: online.nextCursor, hasMore: true, unreadTotal: 3))
    let second = try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor))
    #expect(second == NotificationPage(items: [sample("n2", at: 8)], unreadTotal: 3))
    #expect(try await client.cachedPage(PageRequest(limit: 2)) == first)
    // A permanent error is not hidden by the cache.
    remote.failNext(1, with: .server(status: 400))
    await #expect(throws: UserFacingError.server(status: 400)) {
      try await client.fetchPage(PageRequest(limit: 2))
    }
    // Back online, a cached page's cursor asks the remote for what comes after it.
    let resumed = try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor))
    #expect(resumed.items == [sample("n2", at: 8)])
  }

  /// Found in review: a stream that replays the changes after the cursor it was opened with
  /// wrote, after a first page that had them, an older state over the cache's newer one, and an
  /// offline relaunch showed it.
  @Test func aReplayedChangeTheCacheHasAlreadyIsNotWrittenOverIt() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend(seed: [sample("n0", at: 10)])
    try await remote.client.markAsRead("n0")  // cursor 1
    let replay = [
      NotificationEvent(.updated(sample("n0", at: 10)), cursor: 1),
      NotificationEvent(.updated(sample("n1", at: 11)), cursor: 2),
    ]
    var scripted = remote.client
    scripted.updates = { _ in
      AsyncThrowingStream { continuation in
        for event in replay { continuation.yield(event) }
        continuation.finish()
      }
    }
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let client = cache.caching(scripted)
    // The first page (cursor 1) has n0 read; the stream replays n0 unread at 1 (with no
    // version, so only its cursor tells it is old), then n1 at 2.
    _ = try await client.fetchPage(PageRequest(limit: 50))
    for try await _ in try await client.updates(0) {}
    let cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(
      cached.items == [sample("n1", at: 11), sample("n0", at: 10, isRead: true, version: 1)])
    // A catch-up's replay is skipped the same way; a snapshot never is.
    _ = try await client.changesSince(0)
    #expect(try await client.cachedPage(PageRequest(limit: 50))?.items.last?.isRead == true)
  }

  @Test func aBoundedDeleteAllTheRemoteConfirmsDeletesTheSameCachedNotifications() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend(seed: (0..<4).map { sample("n\($0)", at: 10 - Double($0)) })
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let client = cache.caching(remote.client)
    _ = try await client.fetchPage(PageRequest(limit: 50))
    try await client.deleteAllUpTo(FeedPosition(sample("n1", at: 9)))
    let cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(cached.items == [sample("n0", at: 10)])
    #expect(remote.notifications == [sample("n0", at: 10)])
  }

  @Test func changesTheRemoteConfirmsOrReportsAreCopiedAndAFirstPageDropsWhatItNoLongerLists() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend(seed: (0..<4).map { sample("n\($0)", at: 10 - Double($0)) })
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let client = cache.caching(remote.client)
    _ = try await client.fetchPage(PageRequest(limit: 50))
    try await client.markAsRead("n0")
    try await client.delete("n1")
    // Changed on the remote by someone else: the next first page settles the cache.
    try await remote.client.delete("n2")
    remote.insert(sample("n9", at: 20))
    _ = try await client.fetchPage(PageRequest(limit: 50))
    let cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    // Each with the version the remote gave it: the cursor of the remote's change to it (n0's
    // copied from the answer to the change), none for n3, never changed.
    #expect(
      cached.items == [
        sample("n9", at: 20, version: 4), sample("n0", at: 10, isRead: true, version: 1),
        sample("n3", at: 7),
      ])
    #expect(cached.unreadTotal == 2)
    // Live changes pass through and are copied.
    let stream = try await client.updates(nil)
    var events = stream.makeAsyncIterator()
    try await remote.client.markAllAsRead(nil)
    _ = try await events.next()
    _ = try await events.next()
    #expect(try await client.cachedPage(PageRequest(limit: 50))?.unreadTotal == 0)
  }

  @Test func theSnippetBuildsAStoreOverTheCache() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let serverURL = URL(string: "http://127.0.0.1:9")!
    let token: String? = nil
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    try await MainActor.run {
      // snippet: offline-cache
      let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
        withDependencies: {
          $0.notificationClient = cache.caching(.live(baseURL: serverURL, token: token))
          $0.settingsClient = cache.settingsClient
          $0.changeLogStore = cache.changeLogStore(scope: serverURL.absoluteString)
        }
      // snippet: end
      #expect(store.state.shown.isEmpty)
      try cache.open()
    }
  }
}
