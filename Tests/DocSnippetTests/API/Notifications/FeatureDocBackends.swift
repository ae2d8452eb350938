// The snippets of the doc comments of Sources/NotificationClients.

import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

struct BackendDocSnippets {
  @MainActor
  @Test func theHTTPClientIsADependency() {
    let store = Store(initialState: NotificationFeature.State()) {
      NotificationFeature()
    } withDependencies: {
      // snippet: http-live
      $0.notificationClient = .live(baseURL: URL(string: "http://127.0.0.1:8080")!, token: "t")
      // snippet: end
    }
    #expect(store.state.shown.isEmpty)
  }

  /// The first page fails, then the live stream's opening; both are asked for again (at once:
  /// the clock does not wait), and the feed is listed, with the first failure shown.
  @MainActor
  @Test(.timeLimit(.minutes(1))) func theInMemoryBackendFailsTheCallsItIsToldTo() async {
    let notifications = FeatureDocSamples.notifications.filter { !$0.isLocal }
    let store = withDependencies {
      $0.settingsClient = .inMemory()
      $0.pushClient = .unavailable
      $0.continuousClock = ImmediateClock()
    } operation: {
      // snippet: in-memory
      let backend = InMemoryNotificationBackend(seed: notifications)
      backend.failNext(2, with: .network)
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
    #expect(store.state.error == .network)
    #expect(store.state.shown.map(\.id) == notifications.map(\.id))
    store.cancelAll()
  }

  @Test func aClearAllIsBoundedByTheNewestNotificationListed() async throws {
    func sample(_ id: String, _ seconds: Double) -> NotificationData {
      NotificationData(
        id: id, type: .ping, title: id, message: "", timestamp: Date(timeIntervalSince1970: seconds))
    }
    let newest = sample("newest", 20)
    let older = sample("older", 10)
    let arrivedAfterTheClear = sample("later", 30)
    let backend = InMemoryNotificationBackend(seed: [arrivedAfterTheClear, newest, older])
    let client = backend.client
    // snippet: feed-position
    let bound = FeedPosition(newest)  // the newest notification listed
    let cleared = bound.covers(older)  // true: deleted with the clear-all
    let spared = !bound.covers(arrivedAfterTheClear)  // true: kept
    try await client.deleteAllUpTo(bound)
    // snippet: end
    #expect(cleared && spared)
    #expect(backend.notifications == [arrivedAfterTheClear])
  }

  @Test func aCorruptInboxIsReportedWithItsPath() throws {
    let folder = try FeatureDocFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let garbage = Data(repeating: 0x41, count: 4_096)
    try garbage.write(to: url)
    let inbox = LocalInbox(url: url)
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // snippet: inbox-error
    do { try inbox.open() } catch { print(error) }
    // "The inbox file …/inbox.sqlite is corrupt: file is not a database. It was left untouched; …"
    // snippet: end
    #expect(printed.count == 1)
    #expect(printed.first?.hasPrefix("The inbox file \(url.path) is corrupt: file is not a database. It was left untouched; ") == true)
    #expect(try Data(contentsOf: url) == garbage)
  }

  /// The inbox file snippet names a fixed path, so it is compiled but not run;
  /// `aJSONInboxIsRead` runs the same code on a temporary file.
  private func readTheInboxInTmp() throws -> InboxDocument {
    // snippet: inbox-file
    let document = try InboxFile(url: URL(fileURLWithPath: "/tmp/inbox.json")).read()
    // snippet: end
    return document
  }

  @Test func aJSONInboxIsRead() throws {
    let folder = try FeatureDocFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.json")
    try JSONEncoder().encode(InboxDocument(notifications: [FeatureDocSamples.ping])).write(to: url)
    #expect(try InboxFile(url: url).read().notifications == [FeatureDocSamples.ping])
  }

  @MainActor
  @Test func theLocalInboxBacksAStore() {
    // snippet: local-inbox
    let inbox = LocalInbox(url: LocalInbox.defaultURL())
    let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
      withDependencies: {
        $0.notificationClient = inbox.notificationClient
        $0.settingsClient = inbox.settingsClient
        $0.changeLogStore = inbox.changeLogStore(scope: "local")
      }
    // snippet: end
    #expect(inbox.url.path.hasSuffix("loom-notifications/inbox.sqlite"))
    #expect(store.state.shown.isEmpty)
  }

  @MainActor
  @Test func theLocalInboxKeepsTheChangeLog() {
    // snippet: local-inbox-change-log
    let inbox = LocalInbox(url: LocalInbox.defaultURL())
    let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
      withDependencies: {
        $0.notificationClient = inbox.notificationClient
        $0.changeLogStore = inbox.changeLogStore(scope: "local")
      }
    // snippet: end
    #expect(store.state.shown.isEmpty)
  }
}
