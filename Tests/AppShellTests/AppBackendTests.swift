import AppShell
import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The shell on its live backends, over its lifetime: on a server, the list shows the offline
/// cache at launch, then the server's feed; what a session cached (a push received offline
/// included) is what the next launch shows when the server cannot be reached. The stores run
/// their effects for real, over SQLite files in a temporary folder; each test waits for the
/// states it expects.
@MainActor
struct AppBackendTests {
  nonisolated static let now = Date(timeIntervalSince1970: 1_700_000_000)

  nonisolated static func notification(_ id: String, minutesAgo: Double, isRead: Bool = false)
    -> NotificationData
  {
    NotificationData(
      id: id, type: .system, title: "Title \(id)", message: "Message \(id)",
      timestamp: now.addingTimeInterval(-60 * minutesAgo), isRead: isRead)
  }

  /// The server's feed: two unread, one read.
  nonisolated static let feed = [
    notification("n1", minutesAgo: 10), notification("n2", minutesAgo: 20),
    notification("n3", minutesAgo: 30, isRead: true),
  ]

  nonisolated static let feedIDs = feed.map(\.id)

  /// A push newer than the feed, which the server's feed does not list.
  nonisolated static let push = Data(
    #"{"id":"p1","type":"system","title":"Push","body":"Received offline","timestamp":1699999820}"#
      .utf8)

  /// The change log scope of the tests' server and account.
  nonisolated static let scope = "server test"

  /// The cache of `server`'s feed in `folder`, holding its first page as a session caches it.
  static func cache(
    of server: InMemoryNotificationBackend, in folder: TemporaryFolder,
    named name: String = "server-cache.sqlite"
  ) async throws -> LocalInbox {
    let cache = LocalInbox(url: folder.url.appendingPathComponent(name))
    let backend = AppBackend.server(server.client, cachedIn: cache, scope: scope)
    _ = try await backend.notificationClient.fetchPage(
      PageRequest(limit: NotificationFeature.pageSize))
    return cache
  }

  @Test func theCacheShowsAtLaunchUntilTheServerAnswersAndTheNextLaunchShowsTheServersFeed()
    async throws
  {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let server = InMemoryNotificationBackend(seed: Self.feed)
    let cache = try await Self.cache(of: server, in: folder)
    // Since the last session, on the server: n2 was deleted, n4 and n5 arrived.
    try await server.client.delete("n2")
    server.insert(Self.notification("n4", minutesAgo: 5))
    server.insert(Self.notification("n5", minutesAgo: 1))

    // The server is slow: nothing it says arrives before the test lets it answer.
    let answer = TestContinuation<Void>()
    let store = launchShell(
      .server(held(server.client, until: answer), cachedIn: cache, scope: Self.scope))
    let cached = try await waitFor("the cached feed", in: store) {
      $0.listedIDs == Self.feedIDs && $0.unreadCount == 2
    }
    // The server's first page is still on its way.
    #expect(cached.notifications.paging.isLoading == true)
    #expect(cached.badgeText == "2")

    answer.resume(returning: ())
    let answered = try await waitFor("the server's feed", in: store) {
      $0.hasLoaded && $0.unreadCount == 3
    }
    #expect(answered.listedIDs == ["n5", "n4", "n1", "n3"])
    #expect(answered.badgeText == "3")
    store.cancelAll()

    // Relaunched with the server out of reach: what the last session cached.
    server.goOffline()
    let relaunched = launchShell(.server(server.client, cachedIn: cache, scope: Self.scope))
    let offline = try await waitFor("the feed the last session cached", in: relaunched) {
      $0.hasLoaded && $0.unreadCount == 3
    }
    #expect(offline.listedIDs == ["n5", "n4", "n1", "n3"])
    #expect(offline.notifications.error == nil)
    relaunched.cancelAll()
  }

  @Test func aPushReceivedOfflineIsStillListedAfterARelaunchFromTheSameCache() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let server = InMemoryNotificationBackend(seed: Self.feed)
    let cache = try await Self.cache(of: server, in: folder)
    server.goOffline()

    let store = launchShell(.server(server.client, cachedIn: cache, scope: Self.scope))
    try await waitFor("the cached feed, loaded", in: store) {
      $0.hasLoaded && $0.listedIDs == Self.feedIDs && $0.unreadCount == 2
    }
    store.send(.notifications(.pushReceived(Self.push)))
    let listed = try await waitFor("the push, listed", in: store) { $0.unreadCount == 3 }
    #expect(listed.listedIDs == ["p1", "n1", "n2", "n3"])
    let backend = AppBackend.server(server.client, cachedIn: cache, scope: Self.scope)
    try await waitForSaved("the push, saved", in: backend.changeLogStore) {
      $0.unlisted.ids == ["p1"]
    }
    store.cancelAll()

    let relaunched = launchShell(backend)
    let restored = try await waitFor("the cached feed and the push", in: relaunched) {
      $0.hasLoaded && $0.unreadCount == 3
    }
    #expect(restored.listedIDs == ["p1", "n1", "n2", "n3"])
    #expect(restored.badgeText == "3")

    // Back online, the server's feed does not list the push: it stays until it is deleted.
    server.updateFaults { $0.failureRate = 0 }
    relaunched.send(.notifications(.refreshRequested))
    let refreshed = try await waitFor("the server's feed", in: relaunched) {
      $0.hasLoaded && $0.notifications.server.listing != nil
    }
    #expect(refreshed.listedIDs == ["p1", "n1", "n2", "n3"])
    relaunched.cancelAll()
  }

  @Test func aPushKeptForOneServerIsNotListedForAnother() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let server = InMemoryNotificationBackend(seed: Self.feed)
    let other = InMemoryNotificationBackend(seed: [Self.notification("m1", minutesAgo: 15)])
    let cache = try await Self.cache(of: server, in: folder, named: "server-a.sqlite")
    let otherCache = try await Self.cache(of: other, in: folder, named: "server-b.sqlite")
    server.goOffline()
    other.goOffline()

    let store = launchShell(.server(server.client, cachedIn: cache, scope: Self.scope))
    try await waitFor("the cached feed, loaded", in: store) {
      $0.hasLoaded && $0.listedIDs == Self.feedIDs
    }
    store.send(.notifications(.pushReceived(Self.push)))
    try await waitFor("the push, listed", in: store) { $0.unreadCount == 3 }
    try await waitForSaved(
      "the push, saved",
      in: AppBackend.server(server.client, cachedIn: cache, scope: Self.scope).changeLogStore
    ) { $0.unlisted.ids == ["p1"] }
    store.cancelAll()

    // The other server's settings, and the pushes kept with them, are in its own cache.
    let switched = launchShell(.server(other.client, cachedIn: otherCache, scope: Self.scope))
    let loaded = try await waitFor("the other server's cached feed", in: switched) {
      $0.hasLoaded
    }
    #expect(loaded.listedIDs == ["m1"])
    #expect(loaded.badgeText == "1")
    switched.cancelAll()
  }

  @Test func theLocalInboxListsItsFeedAndKeepsAPushAcrossARelaunch() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert(Self.feed)

    let store = launchShell(.localInbox(inbox))
    try await waitFor("the inbox's feed", in: store) {
      $0.hasLoaded && $0.listedIDs == Self.feedIDs && $0.unreadCount == 2
    }
    store.send(.notifications(.pushReceived(Self.push)))
    try await waitFor("the push, listed", in: store) { $0.unreadCount == 3 }
    try await waitForSaved("the push, saved", in: AppBackend.localInbox(inbox).changeLogStore) {
      $0.unlisted.ids == ["p1"]
    }
    store.cancelAll()

    let relaunched = launchShell(.localInbox(inbox))
    let restored = try await waitFor("the inbox's feed", in: relaunched) { $0.hasLoaded }
    #expect(restored.listedIDs == ["p1", "n1", "n2", "n3"])
    #expect(restored.unreadCount == 3)
    relaunched.cancelAll()
  }

  @Test func eachServerHasItsOwnCacheBesideTheInbox() throws {
    let inbox = URL(fileURLWithPath: "/data/loom-notifications/inbox.sqlite")
    func cache(_ server: String) throws -> String {
      try AppBackend.cacheURL(for: #require(URL(string: server)), account: nil, beside: inbox).path
    }
    // Readable, and the same on every run: the key is FNV-1a of the address.
    #expect(
      try cache("http://127.0.0.1:8080")
        == "/data/loom-notifications/server-127-0-0-1-8080-75327da3b04bcbf2.sqlite")
    #expect(try cache("http://127.0.0.1:8080/") == cache("http://127.0.0.1:8080"))
    let servers = [
      "http://127.0.0.1:8080", "https://127.0.0.1:8080", "http://a.b:1", "http://a-b:1",
      "https://example.com/eu", "https://example.com/us", "https://notifications.example.com",
    ]
    let caches = try servers.map(cache)
    #expect(Set(caches).count == servers.count, "\(caches)")
    #expect(caches.allSatisfy { $0.hasPrefix("/data/loom-notifications/server-") })
  }

  /// Account B signing in on the server account A used gets a cache of its own: with one cache
  /// for both, a clear-all A queued offline was sent with B's credentials and deleted B's
  /// notifications.
  @Test func eachAccountOfAServerHasItsOwnCache() throws {
    let inbox = URL(fileURLWithPath: "/data/loom-notifications/inbox.sqlite")
    let server = try #require(URL(string: "http://127.0.0.1:8080"))
    let a = AppBackend.cacheURL(for: server, account: "token-a", beside: inbox).path
    let b = AppBackend.cacheURL(for: server, account: "token-b", beside: inbox).path
    let none = AppBackend.cacheURL(for: server, account: nil, beside: inbox).path
    #expect(Set([a, b, none]).count == 3)
    #expect(a == AppBackend.cacheURL(for: server, account: "token-a", beside: inbox).path)
    #expect(!a.contains("token-a"))
    #expect(a.hasPrefix("/data/loom-notifications/server-127-0-0-1-8080-"))
  }

  @Test func aClearAllQueuedByOneAccountIsNotSentForAnother() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inboxURL = folder.url.appendingPathComponent("inbox.sqlite")
    let serverURL = try #require(URL(string: "http://127.0.0.1:8080"))
    // One server, two accounts: each sees its own feed.
    let accountA = InMemoryNotificationBackend(seed: Self.feed)
    let accountB = InMemoryNotificationBackend(seed: [Self.notification("m1", minutesAgo: 15)])
    func cache(_ account: String) -> LocalInbox {
      LocalInbox(url: AppBackend.cacheURL(for: serverURL, account: account, beside: inboxURL))
    }
    // A clears all while the server cannot be reached: the clear-all is queued in A's cache.
    func backend(_ server: InMemoryNotificationBackend, _ account: String) -> AppBackend {
      .server(
        server.client, cachedIn: cache(account),
        scope: AppBackend.scope(for: serverURL, account: account))
    }
    let storeA = launchShell(backend(accountA, "token-a"))
    try await waitFor("A's feed", in: storeA) { $0.hasLoaded && $0.listedIDs == Self.feedIDs }
    accountA.goOffline()
    storeA.send(.notifications(.clearAll))
    try await waitFor("the clear-all, queued", in: storeA) {
      $0.notifications.log.records.contains { if case .waiting = $0.status { true } else { false } }
    }
    try await waitForSaved("the clear-all, saved", in: backend(accountA, "token-a").changeLogStore)
    {
      $0.records.count == 1
    }
    storeA.cancelAll()
    // B signs in on the same server: nothing of A's is sent with B's credentials.
    let storeB = launchShell(backend(accountB, "token-b"))
    let loaded = try await waitFor("B's feed", in: storeB) {
      $0.hasLoaded && $0.listedIDs == ["m1"]
    }
    #expect(loaded.notifications.log.records.isEmpty)
    storeB.cancelAll()
    #expect(accountB.notifications.map(\.id) == ["m1"])
    // A's clear-all is still queued for A.
    #expect(try await backend(accountA, "token-a").changeLogStore.load().records.count == 1)
  }

  @Test func aCacheAnEarlierVersionNamedIsKeptUntilThereIsOneByTheNewName() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-cache-name-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inbox = folder.appendingPathComponent("inbox.sqlite")
    let server = try #require(URL(string: "http://127.0.0.1:8080"))
    let named = folder.appendingPathComponent("server-127-0-0-1-8080-75327da3b04bcbf2.sqlite")
    #expect(AppBackend.cacheURL(for: server, account: nil, beside: inbox).path == named.path)
    let earlier = folder.appendingPathComponent("server-127-0-0-1-8080.sqlite")
    try Data("queued changes".utf8).write(to: earlier)
    #expect(AppBackend.cacheURL(for: server, account: nil, beside: inbox).path == earlier.path)
    // With an account it is not: nothing tells whose changes it queued.
    #expect(AppBackend.cacheURL(for: server, account: "t", beside: inbox).path != earlier.path)
    try Data().write(to: named)
    #expect(AppBackend.cacheURL(for: server, account: nil, beside: inbox).path == named.path)
  }
}
