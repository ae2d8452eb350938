import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// Every client endpoint runs on its caller's executor: called from the main actor, a client
/// that answers from memory answers in the caller's own turn, without a hop to the global
/// executor and back. The clients whose work blocks (the SQLite inbox, the settings file) move
/// it off the caller.
///
/// Each check starts the call in a task that runs at once on the main actor and asks whether
/// the call had finished when that task first gave the main actor up. It had exactly when
/// nothing it awaited left the main actor: a call that hops has to come back to the main
/// actor to finish, and the test holds it. So the check never depends on timing, and a failure
/// is an issue, not a trap. (`Thread.isMainThread` would not do: on Linux the main queue, which
/// runs the main actor's jobs, is drained by another thread once the main thread parks.)
@MainActor
struct CallerExecutorTests {
  static let feed = (0..<3).map { index in
    NotificationData(
      id: "n\(index)", type: .ping, title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)),
      target: .ping(pingID: "p\(index)", contactID: "c"))
  }

  @Test func theInMemoryBackendAnswersOnTheCallersExecutor() async {
    let client = InMemoryNotificationBackend(seed: Self.feed).client
    await expectOnCaller("fetchPage") { _ = try await client.fetchPage(PageRequest(limit: 2)) }
    await expectOnCaller("updates") { _ = try await client.updates(nil) }
    await expectOnCaller("changesSince") { _ = try await client.changesSince(ChangeCursor(0)) }
    await expectOnCaller("apply") {
      _ = try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0")))
    }
    await expectOnCaller("fetchNotification") { _ = try await client.fetchNotification("n1") }
    await expectOnCaller("fetchUnread") { _ = try await client.fetchUnread(.contact("c")) }
    await expectOnCaller("cachedPage") { _ = try await client.cachedPage(PageRequest(limit: 2)) }
    await expectOnCaller("markAsUnread") { try await client.markAsUnread("n0") }
    await expectOnCaller("markAsRead") { try await client.markAsRead("n0") }
    await expectOnCaller("markAllAsRead") { try await client.markAllAsRead(["n1"]) }
    await expectOnCaller("delete") { try await client.delete("n2") }
    await expectOnCaller("deleteAllUpTo") {
      try await client.deleteAllUpTo(FeedPosition(Self.feed[1]))
    }
    await expectOnCaller("deleteAll") { try await client.deleteAll() }
  }

  @Test func endpointsMadeFromOthersRunOnTheCallersExecutor() async {
    let backend = InMemoryNotificationBackend(seed: Self.feed).client
    // One closure per intent: `apply` calls them.
    let perIntent = NotificationClient(
      fetchPage: { try await backend.fetchPage($0) },
      updates: { try await backend.updates($0) },
      changesSince: { try await backend.changesSince($0) },
      markAsRead: { try await backend.markAsRead($0) },
      markAsUnread: { try await backend.markAsUnread($0) },
      markAllAsRead: { try await backend.markAllAsRead($0) },
      delete: { try await backend.delete($0) },
      deleteAll: { try await backend.deleteAll() })
    await expectOnCaller("apply of a client made per intent") {
      _ = try await perIntent.apply(ChangeRequest(id: UUID(), .markAsRead("n0")))
    }
    // Without `fetchUnread`, it pages through `fetchPage`.
    await expectOnCaller("fetchUnread by paging") {
      _ = try await perIntent.fetchUnread(.contact("c"))
    }
    // A test that overrides one intent: `apply` routes it there.
    var overridden = backend
    overridden.markAsUnread = { _ in }
    await expectOnCaller("apply routed to an overridden intent") {
      _ = try await overridden.apply(ChangeRequest(id: UUID(), .markAsUnread("n0")))
    }
    await expectOnCaller("apply routed past an overridden intent") {
      _ = try await overridden.apply(ChangeRequest(id: UUID(), .markAsRead("n1")))
    }
  }

  @Test func settingsInMemoryLoadAndSaveOnTheCallersExecutor() async {
    let settings = SettingsClient.inMemory()
    await expectOnCaller("save") { try await settings.save([NotificationType.ping], forKey: "muted") }
    await expectOnCaller("load") {
      _ = try await settings.load([NotificationType].self, forKey: "muted")
    }
    await expectOnCaller("loadMuted") {
      _ = await NotificationPreferencesFeature.loadMuted(from: settings)
    }
  }

  @Test func pushAndAuthClientsRunOnTheCallersExecutor() async {
    let push = PushClient(
      authorizationStatus: { .authorized }, requestAuthorization: { .authorized }, register: {},
      deviceTokens: { AsyncStream { $0.finish() } }, responses: { AsyncStream { $0.finish() } },
      uploadToken: { _ in }, removeToken: { _ in })
    await expectOnCaller("authorizationStatus") { _ = await push.authorizationStatus() }
    await expectOnCaller("requestAuthorization") { _ = try await push.requestAuthorization() }
    await expectOnCaller("register") { await push.register() }
    await expectOnCaller("uploadToken") { try await push.uploadToken("t") }
    await expectOnCaller("removeToken") { try await push.removeToken("t") }
    let auth = AuthClient { "u1" }
    await expectOnCaller("currentUserID") { _ = await auth.currentUserID() }
  }

  @Test func theLocalInboxWorksOffTheCallersExecutor() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert(Self.feed)
    let client = inbox.notificationClient
    await expectOffCaller("fetchPage") { _ = try await client.fetchPage(PageRequest(limit: 2)) }
    await expectOffCaller("updates") { _ = try await client.updates(nil) }
    await expectOffCaller("changesSince") { _ = try await client.changesSince(ChangeCursor(0)) }
    await expectOffCaller("apply") {
      _ = try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0")))
    }
    await expectOffCaller("fetchNotification") { _ = try await client.fetchNotification("n1") }
    await expectOffCaller("fetchUnread") { _ = try await client.fetchUnread(.contact("c")) }
    let settings = inbox.settingsClient
    await expectOffCaller("saveData") { try await settings.saveData(Data("1".utf8), "key") }
    await expectOffCaller("loadData") { _ = try await settings.loadData("key") }
    let log = inbox.changeLogStore(scope: "local")
    await expectOffCaller("changeLogStore.write") {
      try await log.write([.removeRecord(id: UUID())])
    }
    await expectOffCaller("changeLogStore.load") { _ = try await log.load() }
  }

  @Test func theOfflineCacheWritesOffTheCallersExecutor() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    // An in-memory remote: what must leave the caller is the cache's work.
    let client = cache.caching(InMemoryNotificationBackend(seed: Self.feed).client)
    await expectOffCaller("fetchPage") { _ = try await client.fetchPage(PageRequest(limit: 2)) }
    await expectOffCaller("cachedPage") { _ = try await client.cachedPage(PageRequest(limit: 2)) }
    await expectOffCaller("apply") {
      _ = try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0")))
    }
  }

  @Test func theSettingsFileIsReadAndWrittenOffTheCallersExecutor() async {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let settings = SettingsClient.file(directory: folder.url)
    await expectOffCaller("saveData") { try await settings.saveData(Data("1".utf8), "key") }
    await expectOffCaller("loadData") { _ = try await settings.loadData("key") }
  }
}

// MARK: - Checks

/// Whether `call`, started at once on the main actor, had finished when it first gave the main
/// actor up. Records an issue if it throws.
@MainActor
private func finishesWithoutLeaving(
  _ call: @escaping @MainActor () async throws -> Void, sourceLocation: Testing.SourceLocation
) async -> Bool {
  let finished = Flag()
  let task = Task.immediate { @MainActor in
    defer { finished.isSet = true }
    try await call()
  }
  let finishedAtOnce = finished.isSet
  do {
    try await task.value
  } catch {
    Issue.record(error, sourceLocation: sourceLocation)
  }
  return finishedAtOnce
}

/// Expects `call` to run on the caller's executor, the main actor here, from start to end.
@MainActor
private func expectOnCaller(
  _ endpoint: Comment, _ call: @escaping @MainActor () async throws -> Void,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) async {
  let stayed = await finishesWithoutLeaving(call, sourceLocation: sourceLocation)
  #expect(stayed, "\(endpoint) left the main actor", sourceLocation: sourceLocation)
}

/// Expects `call` to leave the caller's executor (the main actor here) for its work.
@MainActor
private func expectOffCaller(
  _ endpoint: Comment, _ call: @escaping @MainActor () async throws -> Void,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) async {
  let left = await !finishesWithoutLeaving(call, sourceLocation: sourceLocation)
  #expect(left, "\(endpoint) did its work on the main actor", sourceLocation: sourceLocation)
}

@MainActor
private final class Flag {
  var isSet = false
}
