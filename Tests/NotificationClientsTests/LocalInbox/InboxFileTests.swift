import Foundation
import NotificationClients
import NotificationFeature
import Testing

/// A fresh folder per test, removed afterwards.
struct TemporaryFolder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-inbox-\(UUID().uuidString)")

  func remove() { try? FileManager.default.removeItem(at: url) }
}

struct InboxFileTests {
  let sample = NotificationData(
    id: "n1", type: .alert, title: "T", message: "M",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000))

  @Test func aMissingFileIsAnEmptyInboxAndMissingFoldersAreCreatedOnWrite() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("a/b/inbox.json"))
    #expect(try file.read() == InboxDocument())
    try file.update { $0.notifications = [sample] }
    #expect(try file.read().notifications == [sample])
  }

  @Test func aWriteInterruptedBeforeTheRenameLeavesTheOldFileIntact() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    var file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try file.update { $0.notifications = [sample] }
    let before = try Data(contentsOf: file.url)
    struct Crash: Error {}
    file.beforeRename = { throw Crash() }
    #expect(throws: (any Error).self) { try file.update { $0.notifications = [] } }
    #expect(try Data(contentsOf: file.url) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test func twoWritersNeverLoseEachOthersChanges() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.json")
    // Two instances, as two processes would have: each takes the lock on its own descriptor.
    let first = InboxFile(url: url)
    let second = InboxFile(url: url)
    await withTaskGroup(of: Void.self) { group in
      for writer in [first, second] {
        for _ in 0..<2 {
          group.addTask {
            for _ in 0..<25 { _ = try? writer.update { $0.cursor += 1 } }
          }
        }
      }
    }
    #expect(try first.read().cursor == 100)
  }
}

struct InboxFileFailureTests {
  @Test func aCorruptFileIsReportedNamingItAndNeverOverwritten() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data(#"{"schemaVersion":1,"notifications":[{"id":3}]}"#.utf8).write(to: file.url)
    #expect {
      try file.read()
    } throws: { error in
      guard case .corrupt(let path, let reason)? = error as? InboxError else { return false }
      return path == file.url.path && reason.contains("notifications")
    }
    #expect(throws: InboxError.self) { try file.update { $0.cursor = 1 } }
    #expect(try String(contentsOf: file.url, encoding: .utf8).contains(#""id":3"#))
  }

  @Test func anEmptyFileIsReported() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data().write(to: file.url)
    #expect(throws: InboxError.empty(path: file.url.path)) { try file.read() }
  }

  @Test func aFileFromANewerVersionIsNeverOverwritten() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data(#"{"schemaVersion":9}"#.utf8).write(to: file.url)
    #expect(throws: InboxError.newerSchema(path: file.url.path, found: 9, supported: 1)) {
      try file.update { $0.cursor = 1 }
    }
    #expect(try String(contentsOf: file.url, encoding: .utf8) == #"{"schemaVersion":9}"#)
  }

  @Test func recoverMovesTheBadFileAsideAndStartsFresh() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: file.url)
    let moved = try #require(try file.recover())
    #expect(try String(contentsOf: moved, encoding: .utf8) == "garbage")
    #expect(try file.read() == InboxDocument())
  }

  @Test func anUnwritableLocationIsATypedError() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    // A regular file where the folder should be: not writable even for root.
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let blocker = folder.url.appendingPathComponent("blocker")
    try Data("x".utf8).write(to: blocker)
    let file = InboxFile(url: blocker.appendingPathComponent("inbox.json"))
    #expect(throws: InboxError.self) { try file.update { $0.cursor = 1 } }
  }
}

@MainActor
struct LocalInboxClientTests {
  @Test func theFeatureRunsAgainstTheLocalInbox() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.json"))
    try inbox.insert([
      NotificationData(id: "a", type: .ping, title: "A", message: "", timestamp: Date(timeIntervalSince1970: 2)),
      NotificationData(id: "b", type: .alert, title: "B", message: "", timestamp: Date(timeIntervalSince1970: 1)),
    ])
    let client = inbox.notificationClient
    let page = try await client.fetchPage(PageRequest(limit: 1))
    #expect(page.items.map(\.id) == ["a"])
    #expect(page.hasMore)
    try await client.markAsRead("a")
    try await client.delete("b")
    await #expect(throws: UserFacingError.notFound) { try await client.delete("zzz") }
    #expect(try inbox.file.read().notifications.map(\.isRead) == [true])
    let changes = try await client.changesSince("2")
    #expect(changes.map(\.change).count == 2)
    try await inbox.settingsClient.save(["x": 1], forKey: "k")
    #expect(try await inbox.settingsClient.load([String: Int].self, forKey: "k") == ["x": 1])
  }

  @Test func everyPageCarriesTheUnreadTotalOfTheWholeInbox() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.json"))
    let client = inbox.notificationClient
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 0)
    try inbox.insert(
      (0..<4).map {
        NotificationData(
          id: "n\($0)", type: .ping, title: "T", message: "",
          timestamp: Date(timeIntervalSince1970: 10 - Double($0)), isRead: $0 == 3)
      })
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 3)
    try await client.markAsRead("n0")
    try await client.delete("n1")
    #expect(try await client.fetchPage(PageRequest(limit: 1, offset: 1)).unreadTotal == 1)
    try await client.markAllAsRead(nil)
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 0)
  }
}
