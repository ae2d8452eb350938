import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A notification; `version` is the cursor of the inbox's last change to it (its insertion,
/// unless changed since), `nil` for one not stored yet.
private func sample(
  _ id: String, at seconds: Double, isRead: Bool = false, version: ChangeCursor? = nil
) -> NotificationData {
  NotificationData(
    id: id, type: .ping, title: "T \(id)", message: "M",
    timestamp: Date(timeIntervalSince1970: seconds), isRead: isRead, version: version)
}

@MainActor
struct LocalInboxClientTests {
  @Test func theFeatureRunsAgainstTheLocalInbox() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert([sample("a", at: 2), sample("b", at: 1)])
    let client = inbox.notificationClient
    let page = try await client.fetchPage(PageRequest(limit: 1))
    // The page says which change it reflects: the two insertions, whose cursors are the
    // notifications' versions.
    #expect(
      page
        == NotificationPage(
          items: [sample("a", at: 2, version: 1)],
          nextCursor: PageKey(after: sample("a", at: 2)).cursor, hasMore: true, unreadTotal: 2,
          changeCursor: 2))
    try await client.markAsRead("a")
    try await client.delete("b")
    await #expect(throws: UserFacingError.notFound) { try await client.delete("zzz") }
    await #expect(throws: UserFacingError.notFound) { try await client.markAsRead("zzz") }
    let all = try await client.fetchPage(PageRequest(limit: 50))
    #expect(
      all
        == NotificationPage(
          items: [sample("a", at: 2, isRead: true, version: 3)], unreadTotal: 0, changeCursor: 4))
    let changes = try await client.changesSince(2)
    #expect(
      changes == [
        NotificationEvent(.updated(sample("a", at: 2, isRead: true, version: 3)), cursor: 3),
        NotificationEvent(.deleted(id: "b"), cursor: 4),
      ])
    try await inbox.settingsClient.save(["x": 1], forKey: "k")
    #expect(try await inbox.settingsClient.load([String: Int].self, forKey: "k") == ["x": 1])
  }

  @Test func everyPageCarriesTheUnreadTotalOfTheWholeInbox() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    let client = inbox.notificationClient
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 0)
    try inbox.insert((0..<4).map { sample("n\($0)", at: 10 - Double($0), isRead: $0 == 3) })
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 3)
    try await client.markAsRead("n0")
    try await client.markAsRead("n0")
    try await client.delete("n1")
    try await client.markAsUnread("n3")
    let cursor = try await client.fetchPage(PageRequest(limit: 1)).nextCursor
    #expect(try await client.fetchPage(PageRequest(limit: 1, cursor: cursor)).unreadTotal == 2)
    // Replacing a notification with a read copy counts it once.
    try inbox.insert([sample("n2", at: 8, isRead: true)])
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 1)
    try await client.markAllAsRead(nil)
    #expect(try await client.fetchPage(PageRequest(limit: 1)).unreadTotal == 0)
    try inbox.insert([sample("n9", at: 1)])
    try await client.deleteAll()
    #expect(
      try await client.fetchPage(PageRequest(limit: 1))
        == NotificationPage(items: [], unreadTotal: 0, changeCursor: 11))
  }

  @Test func aBoundedDeleteAllSparesWhatIsNewerThanTheBound() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    // Sub-millisecond timestamps and ties: the bound follows the feed's order exactly.
    let bound = sample("m", at: 5.000_25)
    try inbox.insert([
      sample("z", at: 9), sample("a", at: 5.000_25), bound, sample("n", at: 5.000_25),
      sample("c", at: 4.998), sample("e", at: 1),
    ])
    let client = inbox.notificationClient
    try await client.deleteAllUpTo(FeedPosition(bound))
    let left = [sample("z", at: 9, version: 1), sample("a", at: 5.000_25, version: 2)]
    #expect(
      try await client.fetchPage(PageRequest(limit: 10))
        == NotificationPage(items: left, unreadTotal: 2, changeCursor: 7))
    // The log keeps milliseconds, as the API does.
    let changes = try await client.changesSince(6)
    #expect(changes.map(\.cursor) == [7])
    guard case .snapshot(let logged) = changes.first?.change else {
      Issue.record("not a snapshot: \(changes)")
      return
    }
    #expect(logged.map(\.id) == ["z", "a"])
    // A bound taken from a notification as the log has it (to the millisecond) covers the
    // notification the inbox stores with finer precision.
    try await client.deleteAllUpTo(FeedPosition(logged[1]))
    #expect(try await client.fetchPage(PageRequest(limit: 10)).items == [left[0]])
  }

  @Test func pagesFollowTheFeedsOrderNewestFirstThenById() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    // Sub-millisecond timestamps and ties: the database orders exactly as the feed does.
    let notifications = [
      sample("b", at: 5.000_25), sample("a", at: 5.000_25), sample("c", at: 5.000_1),
      sample("d", at: 7.5), sample("e", at: 1),
    ]
    try inbox.insert(notifications)
    let client = inbox.notificationClient
    var ids: [String] = []
    var request = PageRequest(limit: 2)
    while true {
      let page = try await client.fetchPage(request)
      ids += page.items.map(\.id)
      guard let cursor = page.nextCursor else { break }
      request = PageRequest(limit: 2, cursor: cursor)
    }
    #expect(ids == notifications.sorted(by: NotificationData.isOrderedBefore).map(\.id))
    #expect(ids == ["d", "a", "b", "c", "e"])
    let first = try await client.fetchPage(PageRequest(limit: 1))
    #expect(first.items == [sample("d", at: 7.5, version: 4)])
  }

  @Test func aNegativeOrForeignPageRequestIsATypedErrorNotATrap() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let client = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite")).notificationClient
    await #expect(throws: UserFacingError.operationFailed(message: "The cursor \"-1\" is not one this inbox gave.")) {
      try await client.fetchPage(PageRequest(limit: 50, cursor: "-1"))
    }
    await #expect(throws: UserFacingError.operationFailed(message: "The limit must be 1 to 1000, not 0.")) {
      try await client.fetchPage(PageRequest(limit: 0))
    }
    // A huge limit trapped (limit + 1 overflowed).
    await #expect(throws: UserFacingError.operationFailed(message: "The limit must be 1 to 1000, not \(Int.max).")) {
      try await client.fetchPage(PageRequest(limit: .max))
    }
  }
}

struct LocalInboxSharingTests {
  @Test func changesAnotherProcessMadeAreCaughtUpAndStreamed() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let clock = TestClock()
    let watcher = LocalInbox(url: url, clock: clock, pollInterval: .seconds(1))
    // Another process: its own connection to the same file.
    let other = LocalInbox(url: url)
    try watcher.insert([sample("a", at: 1)])
    let stream = try await watcher.notificationClient.updates(nil)
    let received = LockedState<[NotificationEvent]>([])
    let reader = Task {
      for try await event in stream { received.withLock { $0.append(event) } }
    }
    defer { reader.cancel() }
    /// Moves the poller's clock on until `count` events have arrived (or gives up, bounded).
    func waitForEvents(_ count: Int) async throws {
      for _ in 0..<2_000 where received.withLock({ $0.count }) < count {
        await clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(1))
      }
    }
    // A change made here is streamed as it is made.
    try await watcher.notificationClient.markAsRead("a")
    try await waitForEvents(1)
    try other.insert([sample("b", at: 2)])
    try await other.notificationClient.delete("a")
    try await waitForEvents(3)
    #expect(
      received.withLock { $0 } == [
        NotificationEvent(.updated(sample("a", at: 1, isRead: true, version: 2)), cursor: 2),
        NotificationEvent(.inserted(sample("b", at: 2, version: 3)), cursor: 3),
        NotificationEvent(.deleted(id: "a"), cursor: 4),
      ])
    #expect(try await watcher.notificationClient.changesSince(2).count == 2)
  }

  @Test func twoProcessesWritingAtOnceLoseNothing() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let first = LocalInbox(url: url)
    let second = LocalInbox(url: url)
    try first.open()
    try second.open()
    await withThrowingTaskGroup(of: Void.self) { group in
      for (name, inbox) in [("x", first), ("y", second)] {
        group.addTask {
          for index in 0..<100 { try inbox.insert([sample("\(name)\(index)", at: Double(index))]) }
        }
      }
    }
    #expect(try first.count() == 200)
    #expect(try await first.notificationClient.fetchPage(PageRequest(limit: 1)).unreadTotal == 200)
    #expect(try await second.notificationClient.changesSince(0).count == 200)
  }

  @Test func aCursorNewerThanAnyChangeCatchesUpWithASnapshot() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    // An inbox made anew: its cursors start again, below the one a client kept.
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert([sample("a", at: 2), sample("b", at: 1)])
    let client = inbox.notificationClient
    #expect(
      try await client.changesSince(120)
        == [
          NotificationEvent(
            .snapshot([sample("a", at: 2, version: 1), sample("b", at: 1, version: 2)]), cursor: 2)
        ])
    #expect(try await client.changesSince(2) == [])
  }

  @Test func aCursorOlderThanTheKeptLogCatchesUpWithASnapshot() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    // More changes than the log keeps: the oldest are trimmed.
    let count = 10_200
    try inbox.insert((0..<count).map { sample("n\($0)", at: Double($0)) })
    let client = inbox.notificationClient
    let recent = try await client.changesSince(ChangeCursor(UInt64(count - 100)))
    #expect(recent.count == 100)
    #expect(recent.first?.cursor == ChangeCursor(UInt64(count - 99)))
    let old = try await client.changesSince(5)
    guard case .snapshot(let all)? = old.first?.change else {
      Issue.record("expected one snapshot, got \(old.count) events")
      return
    }
    #expect(old.count == 1)
    #expect(old.first?.cursor == ChangeCursor(UInt64(count)))
    #expect(all.count == count)
  }
}

struct LocalInboxMigrationTests {
  @Test func aJSONInboxIsImportedOnFirstOpenAndKeptRenamed() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let json = folder.url.appendingPathComponent("inbox.json")
    var document = InboxDocument(notifications: [sample("a", at: 2, isRead: true), sample("b", at: 1)])
    document.settings["notifications.filter"] = Data(#"{"x":1}"#.utf8)
    document.cursor = 41
    document.changes = [InboxDocument.LoggedChange(cursor: 41, change: .deleted(id: "z"))]
    let encoded = try JSONEncoder().encode(document)
    try encoded.write(to: json)
    // A temporary file an interrupted write of the JSON format left behind.
    let leftover = folder.url.appendingPathComponent(".inbox.json.1234.tmp")
    try Data("partial".utf8).write(to: leftover)

    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    let page = try await inbox.notificationClient.fetchPage(PageRequest(limit: 50))
    #expect(page == NotificationPage(items: document.notifications, unreadTotal: 1, changeCursor: 41))
    #expect(try await inbox.settingsClient.loadData("notifications.filter") == Data(#"{"x":1}"#.utf8))
    // Cursors go on from the file's, so a client that caught up from it catches up from here.
    #expect(try await inbox.notificationClient.changesSince(40) == [NotificationEvent(.deleted(id: "z"), cursor: 41)])
    try await inbox.notificationClient.markAsUnread("a")
    #expect(try await inbox.notificationClient.changesSince(41).map(\.cursor) == [42])

    let kept = folder.url.appendingPathComponent("inbox.json.imported")
    #expect(try Data(contentsOf: kept) == encoded)
    #expect(!FileManager.default.fileExists(atPath: json.path))
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
    // Opening again imports nothing more.
    let again = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    #expect(try again.count() == 2)
  }

  @Test func anInboxNamedByItsJSONFileUsesTheDatabaseBesideIt() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("mine.json"))
    #expect(inbox.url == folder.url.appendingPathComponent("mine.sqlite"))
    #expect(inbox.legacyURL == folder.url.appendingPathComponent("mine.json"))
    #expect(LocalInbox.defaultURL(environment: ["XDG_DATA_HOME": "/data"]).path == "/data/loom-notifications/inbox.sqlite")
  }

  @Test func aCorruptJSONInboxIsReportedAndNeitherImportedNorTouched() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let json = folder.url.appendingPathComponent("inbox.json")
    try Data("{not json".utf8).write(to: json)
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    #expect {
      try inbox.open()
    } throws: { error in
      guard case .corrupt(let path, _)? = error as? InboxError else { return false }
      return path == json.path
    }
    #expect(try Data(contentsOf: json) == Data("{not json".utf8))
    // --recover moves the corrupt file aside; the inbox then opens empty.
    let moved = try #require(try inbox.recover())
    #expect(moved == folder.url.appendingPathComponent("inbox.json.corrupt"))
    #expect(try Data(contentsOf: moved) == Data("{not json".utf8))
    #expect(try inbox.count() == 0)
  }

  @Test func aCorruptDatabaseIsReportedNeverOverwrittenAndMovedAsideOnlyByRecover() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let garbage = Data(repeating: 0x42, count: 4_096)
    try garbage.write(to: url)
    let inbox = LocalInbox(url: url)
    #expect(throws: InboxError.corrupt(path: url.path, reason: "file is not a database")) {
      try inbox.open()
    }
    #expect(throws: (any Error).self) { try inbox.insert([sample("a", at: 1)]) }
    #expect(try Data(contentsOf: url) == garbage)
    let moved = try #require(try inbox.recover())
    #expect(moved == folder.url.appendingPathComponent("inbox.sqlite.corrupt"))
    #expect(try Data(contentsOf: moved) == garbage)
    try inbox.insert([sample("a", at: 1)])
    #expect(try inbox.count() == 1)
  }

  @Test func recoverLeavesAHealthyInboxAlone() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let inbox = LocalInbox(url: url)
    try inbox.insert([sample("a", at: 1), sample("b", at: 2)])
    #expect(try inbox.recover() == nil)
    #expect(try LocalInbox(url: url).count() == 2)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!names.contains { $0.contains("corrupt") })
  }
}
