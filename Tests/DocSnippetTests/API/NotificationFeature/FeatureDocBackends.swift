// The snippets of the doc comments of Sources/NotificationClients.

import Foundation
import Loom
import NotificationClients
import NotificationFeature
import Testing

struct BackendDocSnippets {
  @MainActor
  @Test func theHTTPClientIsADependency() {
    let store = Store(initialState: NotificationsFeature.State()) {
      NotificationsFeature()
    } withDependencies: {
      // snippet: http-live
      $0.notificationClient = .live(baseURL: URL(string: "http://127.0.0.1:8080")!, token: "t")
      // snippet: end
    }
    #expect(store.state.notifications.isEmpty)
  }

  @MainActor
  @Test func theInMemoryBackendFailsTheCallsItIsToldTo() async {
    let notifications = FeatureDocSamples.notifications.filter { !$0.isLocal }
    // snippet: in-memory
    let backend = InMemoryNotificationBackend(seed: notifications)
    backend.failNext(2, with: .network)
    let store = Store(initialState: NotificationsFeature.State()) { NotificationsFeature() }
      withDependencies: { $0.notificationClient = backend.client }
    // snippet: end
    await store.send(.refreshRequested).finish()
    #expect(store.state.error == .network)
    await store.send(.refreshRequested).finish()
    #expect(store.state.notifications.isEmpty)
    await store.send(.refreshRequested).finish()
    #expect(store.state.notifications.elements == notifications)
  }

  @Test func aCorruptInboxIsReportedWithItsPath() throws {
    let folder = try FeatureDocFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.json")
    try Data("{not json".utf8).write(to: url)
    let inbox = LocalInbox(url: url)
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // snippet: inbox-error
    do { _ = try inbox.file.read() } catch { print(error) }
    // "The inbox file …/inbox.json is corrupt: …"
    // snippet: end
    #expect(printed.count == 1)
    #expect(printed.first?.hasPrefix("The inbox file \(url.path) is corrupt: ") == true)
    #expect(try Data(contentsOf: url) == Data("{not json".utf8))
  }

  /// The inbox file snippet names a fixed path, so it is compiled but not run;
  /// `anUpdateIsWrittenToTheFile` runs the same code on a temporary file.
  private func appendToTheInboxInTmp(_ notification: NotificationData) throws {
    // snippet: inbox-file
    let file = InboxFile(url: URL(fileURLWithPath: "/tmp/inbox.json"))
    try file.update { $0.notifications.append(notification) }
    // snippet: end
  }

  @Test func anUpdateIsWrittenToTheFile() throws {
    let folder = try FeatureDocFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try file.update { $0.notifications.append(FeatureDocSamples.ping) }
    #expect(try file.read().notifications == [FeatureDocSamples.ping])
  }

  @MainActor
  @Test func theLocalInboxBacksAStore() {
    // snippet: local-inbox
    let inbox = LocalInbox(url: LocalInbox.defaultURL())
    let store = Store(initialState: NotificationsFeature.State()) { NotificationsFeature() }
      withDependencies: {
        $0.notificationClient = inbox.notificationClient
        $0.settingsClient = inbox.settingsClient
      }
    // snippet: end
    #expect(inbox.file.url.path.hasSuffix("loom-notifications/inbox.json"))
    #expect(store.state.notifications.isEmpty)
  }
}
