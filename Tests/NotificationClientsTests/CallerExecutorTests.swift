import Foundation
import Loom
import NotificationClients
import NotificationFeature
import Testing

/// Where client work runs, seen from a caller on the main actor: the work that blocks (the
/// SQLite inbox's database work, the offline cache's copies, the settings file) never runs on
/// the caller's executor, however the endpoints are called.
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
