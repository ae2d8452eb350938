import AppShell
import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// The snippets of `AppBackend`'s doc comments, run: the server's cannot be reached, so the
/// store shows what its cache holds.
@MainActor
struct AppBackendDocTests {
  @Test func theDocumentedServerStoreShowsTheCacheWhenTheServerCannotBeReached() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inboxURL = folder.url.appendingPathComponent("inbox.sqlite")
    // Nothing listens on port 9 (discard): every request to the server fails.
    let serverURL = try #require(URL(string: "http://127.0.0.1:9"))
    let token: String? = nil
    // What a session on the server cached before.
    let earlier = LocalInbox(
      url: AppBackend.cacheURL(for: serverURL, account: token, beside: inboxURL))
    let server = InMemoryNotificationBackend(seed: AppBackendTests.feed)
    _ = try await AppBackend.server(
      server.client, cachedIn: earlier, scope: AppBackend.scope(for: serverURL, account: token)
    ).notificationClient
      .fetchPage(PageRequest(limit: NotificationFeature.pageSize))

    // snippet: app-backend
    let cache = LocalInbox(
      url: AppBackend.cacheURL(for: serverURL, account: token, beside: inboxURL))
    let scope = AppBackend.scope(for: serverURL, account: token)
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.use(.server(.live(baseURL: serverURL, token: token), cachedIn: cache, scope: scope))
    }
    store.send(.launched)
    store.send(.notifications(.onAppear))
    // snippet: end
    let loaded = try await waitFor("the cached feed", in: store) {
      $0.hasLoaded && $0.unreadCount == 2
    }
    #expect(loaded.listedIDs == ["n1", "n2", "n3"])
    store.cancelAll()
  }

  @Test func theDocumentedLocalStoreListsTheInbox() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert(AppBackendTests.feed)
    // snippet: app-backend-local
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.use(.localInbox(inbox))
    }
    // snippet: end
    store.send(.notifications(.onAppear))
    let loaded = try await waitFor("the inbox's feed", in: store) {
      $0.hasLoaded && $0.unreadCount == 2
    }
    #expect(loaded.listedIDs == ["n1", "n2", "n3"])
    store.cancelAll()
  }
}
