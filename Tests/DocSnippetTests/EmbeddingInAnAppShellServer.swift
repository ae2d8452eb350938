// The snippet of Docs/EmbeddingInAnAppShell.md's "Going live" section: the notification
// center on a server, its feed cached on the device. GuidePackageTests builds it in the guide's
// package; here it runs against a server that cannot be reached.

// snippet: shell-server-store
import Foundation
import Loom
import NotificationClients
import Notifications
// snippet: hide
import Testing
// snippet: show

/// The notification center on the server at `serverURL`: its feed is cached in `cache`, a
/// database of its own for that server, which keeps the feature's settings and change log too.
@MainActor
func notificationsStore(
  server serverURL: URL, token: String?, cache: LocalInbox
) -> Store<NotificationFeature.State, NotificationFeature.Action> {
  Store(initialState: NotificationFeature.State()) {
    NotificationFeature()
  } withDependencies: {
    $0.notificationClient = cache.caching(.live(baseURL: serverURL, token: token))
    $0.settingsClient = cache.settingsClient
    $0.changeLogStore = cache.changeLogStore(scope: serverURL.absoluteString)
  }
}
// snippet: end

/// A server nobody answers for: the store shows what an earlier session cached, and the
/// feed's unread count, without an error.
///
/// It takes 0.03 s alone. The limit is wide because the cache's database work runs on the
/// shared pool, which a parallel run under the thread sanitizer on two cores keeps busy for
/// a long while at its start (75 s once in CI, against a limit of 60).
@MainActor
@Test(.timeLimit(.minutes(5))) func theServerStoreShowsTheCacheWhenTheServerCannotBeReached()
  async throws
{
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-doc-snippets-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let cache = LocalInbox(url: folder.appendingPathComponent("server-cache.sqlite"))
  // An earlier session cached the server's feed.
  let earlier = cache.caching(InMemoryNotificationBackend(seed: feed).client)
  _ = try await earlier.fetchPage(PageRequest(limit: NotificationFeature.pageSize))

  // Nothing listens on port 9 (discard): every request to the server fails.
  let serverURL = try #require(URL(string: "http://127.0.0.1:9"))
  let store = notificationsStore(server: serverURL, token: nil, cache: cache)
  store.send(.onAppear)
  for await state in store.states where state.launch == .ready && !state.paging.isLoading {
    break
  }
  #expect(store.state.shown.elements == feed)
  #expect(store.state.unreadCount == feed.count { !$0.isRead })
  #expect(store.state.error == nil)
  store.cancelAll()
}
