// The snippets of the doc comments of Sources/Notifications/Clients.

import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

struct ClientDocSnippets {
  @Test func theAuthClientSaysWhoIsSignedIn() async {
    let authClient = AuthClient { "user-1" }
    // snippet: auth-client
    let userID = await authClient.currentUserID()
    // snippet: end
    #expect(userID == "user-1")
  }

  @Test func pagesAreFetchedByCursor() async throws {
    let notifications = (0..<60).map { index in
      NotificationData(
        id: "n\(index)", type: .ping, title: "Ping \(index)", message: "",
        timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)))
    }
    let client = InMemoryNotificationBackend(seed: notifications).client
    // snippet: page-request
    let first = PageRequest(limit: 50)
    // snippet: hide
    let page = try await client.fetchPage(first)
    // snippet: show
    let next = PageRequest(limit: 50, cursor: page.nextCursor)
    let unreadAlerts = PageRequest(limit: 50, filter: .type(.alert), unreadOnly: true)
    // snippet: end
    #expect(try await client.fetchPage(unreadAlerts).items.isEmpty)
    #expect(page.items.count == 50)
    #expect(page.hasMore)
    let last = try await client.fetchPage(next)
    #expect(last.items.map(\.id) == (50..<60).map { "n\($0)" })
    #expect(!last.hasMore)
  }

  @Test func aPageCarriesTheUnreadTotalOfTheWholeFeed() async throws {
    let notifications = (0..<130).map { index in
      NotificationData(
        id: "n\(index)", type: .ping, title: "Ping \(index)", message: "",
        timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)),
        isRead: index >= 120)
    }
    let client = InMemoryNotificationBackend(seed: notifications).client
    // snippet: notification-page
    let page = try await client.fetchPage(PageRequest(limit: 50))
    let unread = page.unreadTotal  // the whole feed's: 120, though the page holds 50
    // snippet: end
    #expect(page.items.count == 50)
    #expect(unread == 120)
  }

  @MainActor
  @Test(.timeLimit(.minutes(1))) func aStoreRunsOnTheBackendItIsGiven() async {
    let notifications = FeatureDocSamples.notifications.filter { !$0.isLocal }
    let store = withDependencies {
      $0.settingsClient = .inMemory()
      $0.pushClient = .unavailable
    } operation: {
      // snippet: notification-client
      let backend = InMemoryNotificationBackend(seed: notifications)
      let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
        withDependencies: {
          $0.notificationClient = backend.client
          $0.changeLogStore = .inMemory()
        }
      // snippet: end
      store.send(.onAppear)
      return store
    }
    for await state in store.states where state.server.listing != nil { break }
    #expect(store.state.shown.map(\.id) == notifications.map(\.id))
    #expect(store.state.unreadCount == 2)
    store.cancelAll()
  }

  @Test func tokensAreUploadedAsTheyArrive() async throws {
    let uploaded = LockedState<[String]>([])
    let pushClient = PushClient(
      authorizationStatus: { .authorized },
      requestAuthorization: { .authorized },
      register: {},
      deviceTokens: { ["token-1", "token-2"].featureDocStream },
      responses: { AsyncStream { $0.finish() } },
      uploadToken: { token in uploaded.withLock { $0.append(token) } },
      removeToken: { _ in })
    // snippet: push-client
    let status = await pushClient.authorizationStatus()
    for await token in pushClient.deviceTokens() { try await pushClient.uploadToken(token) }
    // snippet: end
    #expect(status == .authorized)
    #expect(uploaded.withLock { $0 } == ["token-1", "token-2"])
  }

  @Test func settingsAreSavedAndLoadedByKey() async throws {
    let settings = SettingsClient.inMemory()
    #expect(try await settings.load(NotificationFilter.self, forKey: "filter") == nil)
    // snippet: settings-client
    try await settings.save(NotificationFilter.all, forKey: "filter")
    let filter = try await settings.load(NotificationFilter.self, forKey: "filter")
    // snippet: end
    #expect(filter == .all)
  }
}
