import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// `ChangeLogStore`: the store in memory and the local inbox's, held to the same tests, and the
/// inbox's tables and migration.
struct ChangeLogStoreTests {
  static let start = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7)

  @Test(arguments: Place.Kind.allCases)
  func aLogWithEveryStatusAndItsPushesAndNoticesRoundTrips(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    let log = Self.logWithEveryStatus()
    let store = place.store()
    try await store.write(log.writes(from: ChangeLog()))
    #expect(try await store.load() == log)
    #expect(try await place.store(process: 1).load() == log)
  }

  @Test(arguments: Place.Kind.allCases)
  func aRecordSavedAgainKeepsItsPlace(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    var session = try await Session(place.store())
    for index in 1...3 { session.log.record(.markAsRead("n\(index)"), id: UUID(UInt64(index))) }
    try await session.save()
    session.log.markSending(UUID(1))
    session.log.acknowledge(UUID(1), at: 7)
    session.log.markSending(UUID(2))
    try await session.save()
    let loaded = try await place.store(process: 1).load()
    #expect(loaded.records.ids == [UUID(1), UUID(2), UUID(3)])
    #expect(loaded == session.log)
  }

  /// Writes are applied in the order they were called, though the caller does not wait for one
  /// before calling the next: a reducer starts a write per action, and a record saved by one
  /// action and removed by the next must not be saved again by the first write landing last.
  /// (The inbox ran each write on the shared pool, in whatever order its threads took them.)
  @Test(arguments: Place.Kind.allCases)
  @MainActor
  func writesCalledWithoutWaitingAreAppliedInTheOrderCalled(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    let store = place.store()
    var resurrected: [Int] = []
    for round in 0..<200 {
      let record = ChangeRecord(id: UUID(UInt64(round + 1)), intent: .markAsRead("n\(round)"))
      // Task.immediate runs each write's start here, in this order, before the next begins.
      let saving = Task.immediate { try await store.write([.saveRecord(record)]) }
      let removing = Task.immediate { try await store.write([.removeRecord(id: record.id)]) }
      try await saving.value
      try await removing.value
      if try await store.load().records[id: record.id] != nil { resurrected.append(round) }
    }
    #expect(resurrected == [])
  }

  @Test(arguments: Place.Kind.allCases)
  func twoProcessesAppendingAndReceivingInTurnLoseNothing(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    var first = try await Session(place.store(process: 0))
    var second = try await Session(place.store(process: 1))
    var order: [UUID] = []
    for index in 0..<20 {
      for (name, offset) in [("a", 0), ("b", 1)] {
        let id = UUID(UInt64(2 * index + offset + 1))
        let push = Self.push("\(name)-push-\(index)", at: Double(index))
        if offset == 0 {
          first.log.receive(push, at: Self.start)
          first.log.record(.markAsRead("\(name)\(index)"), id: id)
          try await first.save()
        } else {
          second.log.receive(push, at: Self.start)
          second.log.record(.markAsRead("\(name)\(index)"), id: id)
          try await second.save()
        }
        order.append(id)
      }
    }
    let loaded = try await place.store(process: 2).load()
    #expect(loaded.records.ids == order)
    #expect(loaded.unlisted.count == 40)
    #expect(loaded.received.count == 40)
  }

  @Test(arguments: Place.Kind.allCases)
  func twoProcessesWritingAtOnceLoseNothing(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    let stores = [place.store(process: 0), place.store(process: 1)]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, store) in stores.enumerated() {
        group.addTask {
          var session = try await Session(store)
          for step in 0..<50 {
            let id = UUID(UInt64(index * 1_000 + step))
            session.log.record(.delete("p\(index)-\(step)"), id: id)
            session.log.receive(
              Self.push("p\(index)-push-\(step)", at: Double(step)), at: Self.start)
            session.log.recordNotice(Self.push("p\(index)-notice-\(step)", at: Double(step)))
            try await session.save()
          }
        }
      }
      try await group.waitForAll()
    }
    let loaded = try await place.store(process: 2).load()
    #expect(loaded.records.count == 100)
    for index in 0..<2 {
      // Each process's records, in the order it wrote them.
      let own = loaded.records.elements.filter {
        if case .delete(let id) = $0.intent { id.hasPrefix("p\(index)-") } else { false }
      }
      #expect(own.map(\.id) == (0..<50).map { UUID(UInt64(index * 1_000 + $0)) })
    }
    #expect(loaded.unlisted.filter(\.isLocal).count == 100)
    #expect(loaded.received.count == 100)
  }

  @Test(arguments: Place.Kind.allCases)
  func aRecordOneProcessRemovesIsGoneFromTheOthersNextLoad(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    var first = try await Session(place.store(process: 0))
    first.log.record(.markAsRead("n1"), id: UUID(1))
    first.log.record(.markAsRead("n2"), id: UUID(2))
    first.log.receive(Self.push("p1", at: 1), at: Self.start)
    try await first.save()
    let other = place.store(process: 1)
    #expect(try await other.load().records.ids == [UUID(1), UUID(2)])
    first.log.markSending(UUID(1))
    first.log.acknowledge(UUID(1), at: nil)
    first.log.serverListed(["p1"])
    try await first.save()
    let loaded = try await other.load()
    #expect(loaded.records.ids == [UUID(2)])
    #expect(loaded.unlisted.isEmpty)
  }

  /// A replacement takes the record's place when the store holds it, and writes nothing when
  /// it does not: an answer saved after the record's removal does not bring it back.
  @Test(arguments: Place.Kind.allCases)
  func aReplacementChangesOnlyARecordTheStoreHolds(kind: Place.Kind) async throws {
    let place = Place(kind)
    defer { place.remove() }
    let store = place.store(process: 0)
    let first = ChangeRecord(id: UUID(1), intent: .markAsRead("n1"))
    let second = ChangeRecord(id: UUID(2), intent: .markAsRead("n2"))
    try await store.write([.saveRecord(first), .saveRecord(second)])
    var answered = first
    answered.status = .acknowledged(4)
    var gone = ChangeRecord(id: UUID(3), intent: .delete("n3"))
    gone.status = .acknowledged(5)
    try await store.write([.replaceRecord(answered), .replaceRecord(gone)])
    #expect(try await store.load().records.elements == [answered, second])
    try await store.write([.removeRecord(id: UUID(2))])
    var late = second
    late.status = .acknowledged(6)
    try await store.write([.replaceRecord(late)])
    #expect(try await store.load().records.elements == [answered])
  }

  @Test func scopesDoNotSeeEachOther() async throws {
    let place = Place(.inbox)
    defer { place.remove() }
    var work = try await Session(place.store(scope: "https://work.example|ada"))
    var home = try await Session(place.store(process: 1, scope: "https://home.example|ada"))
    // The same change id and push id in both: each scope has its own.
    work.log.record(.markAsRead("n1"), id: UUID(1))
    work.log.receive(Self.push("p1", at: 1), at: Self.start)
    try await work.save()
    home.log.record(.delete("n1"), id: UUID(1))
    home.log.receive(Self.push("p1", at: 2), at: Self.start)
    try await home.save()
    #expect(try await place.store(scope: "https://work.example|ada").load() == work.log)
    #expect(try await place.store(scope: "https://home.example|ada").load() == home.log)
    work.log.markSending(UUID(1))
    work.log.acknowledge(UUID(1), at: nil)
    work.log.serverListed(["p1"])
    try await work.save()
    #expect(try await place.store(scope: "https://work.example|ada").load().isEmpty)
    #expect(try await place.store(scope: "https://home.example|ada").load() == home.log)
    #expect(try await place.store(scope: "someone else").load().isEmpty)
  }

  @Test func aWriteThatFailsPartWayWritesNothing() async throws {
    let place = Place(.inbox)
    defer { place.remove() }
    let store = place.store()
    _ = try await store.load()
    let db = try Self.refusePoison(in: place)
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.receive(Self.push("p1", at: 1), at: Self.start)
    log.receive(Self.push("poison", at: 2), at: Self.start)
    let writes = log.writes(from: ChangeLog())
    #expect(writes.count == 3)
    await #expect(throws: UserFacingError.self) { try await store.write(writes) }
    #expect(try await store.load().isEmpty)
    try db.execute("DROP TRIGGER refuse_poison")
    try await store.write(writes)
    #expect(try await store.load() == log)
  }

  /// Writes waiting together are applied in one transaction (one disk sync), each call's all
  /// or none: the call whose writes the database refuses fails alone.
  @Test func callsAppliedInOneTransactionAreEachAllOrNone() throws {
    let place = Place(.inbox)
    defer { place.remove() }
    let database = try InboxDatabase(url: place.url)
    try Self.refusePoison(in: place)
    let record = { (n: UInt64) in ChangeRecord(id: UUID(n), intent: .markAsRead("n\(n)")) }
    let errors = try database.write([
      ([.saveRecord(record(1))], "local"),
      ([.saveRecord(record(2)), .saveUnlisted(Self.push("poison", at: 1), received: nil)], "local"),
      ([.saveRecord(record(3))], "local"),
    ])
    #expect(errors.map { $0 == nil } == [true, false, true])
    #expect(try database.changeLog(scope: "local").records.ids == [UUID(1), UUID(3)])
  }

  /// Through the store: writes called one after another without waiting, one refused, are
  /// applied in the order called, and only the refused call fails.
  @Test @MainActor func aRefusedWriteAmongWaitingOnesFailsAlone() async throws {
    let place = Place(.inbox)
    defer { place.remove() }
    let store = place.store()
    _ = try await store.load()
    try Self.refusePoison(in: place)
    let calls: [[ChangeLog.Write]] = (1...30).map { n in
      let record = ChangeRecord(id: UUID(UInt64(n)), intent: .markAsRead("n\(n)"))
      return n % 10 == 5
        ? [.saveRecord(record), .saveUnlisted(Self.push("poison", at: 1), received: nil)]
        : [.saveRecord(record)]
    }
    let tasks = calls.map { writes in Task.immediate { try await store.write(writes) } }
    var failed: [Int] = []
    for (index, task) in tasks.enumerated() {
      do { try await task.value } catch { failed.append(index + 1) }
    }
    #expect(failed == [5, 15, 25])
    let kept = (1...30).filter { $0 % 10 != 5 }.map { UUID(UInt64($0)) }
    let ids = try await store.load().records.ids
    #expect(ids == kept)
  }

  @Test func anInboxOfInbox3GainsTheLogsTablesAndNothingElseChanges() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    do {
      let queue = try SQLiteQueue(path: url.path)
      // snippet: migrate-up-to
      try InboxDatabase.migrator.migrate(queue, upTo: "inbox 3")
      // snippet: end
    }
    // What the version before this one kept: notifications, changes, settings.
    let earlier = LocalInbox(url: folder.url.appendingPathComponent("source.sqlite"))
    try earlier.insert((0..<3).map { Self.push("n\($0)", at: Double($0)) })
    try await earlier.notificationClient.markAsRead("n1")
    try await earlier.settingsClient.saveData(Data("[]".utf8), "filter")
    do {
      let db = try SQLiteConnection(path: url.path)
      try db.execute(
        "ATTACH DATABASE '\(folder.url.appendingPathComponent("source.sqlite").path)' AS source")
      try db.execute(
        """
        INSERT INTO notifications SELECT * FROM source.notifications;
        INSERT INTO changes SELECT * FROM source.changes;
        INSERT INTO applied_changes SELECT * FROM source.applied_changes;
        INSERT INTO settings SELECT * FROM source.settings;
        UPDATE counts SET unread = (SELECT unread FROM source.counts);
        """)
      try db.execute("DETACH DATABASE source")
    }
    let before = try Self.contents(of: url)
    #expect(before.schema.contains { $0.hasPrefix("table notifications") })
    #expect(!before.schema.contains { $0.contains("change_records") })

    let inbox = LocalInbox(url: url)
    try inbox.open()
    let after = try Self.contents(of: url)
    let added = after.schema.filter { !before.schema.contains($0) }
    let addedNames: [String] = added.map { (line: String) -> String in
      line.split(separator: " ").prefix(2).joined(separator: " ")
    }
    // Inbox 4's tables, inbox 5's index of deletions and inbox 6's table of what clear-alls
    // deleted.
    let expectedNames: [String] = [
      "index cleared_by_cursor", "index deletions_by_id",
      "index sqlite_autoindex_change_records_1", "table change_records", "table cleared",
      "table unlisted_notifications",
    ]
    #expect(addedNames == expectedNames)
    #expect(before.schema.allSatisfy(after.schema.contains))
    var expectedRows = before.rows
    expectedRows["loom_migrations"]?.append(contentsOf: ["'inbox 4'", "'inbox 5'", "'inbox 6'"])
    expectedRows["change_records"] = []
    expectedRows["unlisted_notifications"] = []
    expectedRows["cleared"] = []
    #expect(after.rows == expectedRows)
    #expect(after.userVersion == before.userVersion + 3)
    // And the store works on it.
    var session = try await Session(inbox.changeLogStore(scope: "local"))
    session.log.record(.markAsRead("n0"), id: UUID(1))
    try await session.save()
    #expect(try await inbox.changeLogStore(scope: "local").load() == session.log)
  }

  /// How much the inbox grows per record, for 1,000 pending reads: printed, not checked.
  @Test func bytesOnDiskPerPendingRead() async throws {
    let place = Place(.inbox)
    defer { place.remove() }
    let store = place.store(scope: "https://notifications.example.com|user-4711")
    _ = try await store.load()
    func size() throws -> Int {
      let db = try SQLiteConnection(path: place.url.path)
      try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      let pages = try db.statement("PRAGMA page_count").firstRow { $0.int(at: 0) } ?? 0
      let pageSize = try db.statement("PRAGMA page_size").firstRow { $0.int(at: 0) } ?? 0
      return pages * pageSize
    }
    let empty = try size()
    var log = ChangeLog()
    for index in 0..<1_000 {
      log.record(.markAsRead("n\(100_000 + index)"), id: UUID(UInt64(index)))
    }
    try await store.write(log.writes(from: ChangeLog()))
    let full = try size()
    let json = try JSONEncoder().encode(log.records.elements).count
    print(
      """
      ChangeLogStore: 1,000 pending reads take \(full - empty) bytes in the inbox \
      (\(Double(full - empty) / 1_000) per record; their JSON alone \(Double(json) / 1_000))
      """)
    #expect(try await store.load() == log)
  }

  // MARK: Support

  /// Makes the database of `place`, through a connection of its own, refuse to save the
  /// notification `poison`; drop the trigger `refuse_poison` on the connection to undo it.
  @discardableResult
  static func refusePoison(in place: Place) throws -> SQLiteConnection {
    let db = try SQLiteConnection(path: place.url.path)
    try db.execute(
      """
      CREATE TRIGGER refuse_poison BEFORE INSERT ON unlisted_notifications WHEN NEW.id = 'poison'
      BEGIN SELECT RAISE(ABORT, 'poisoned'); END;
      """)
    return db
  }

  static func push(_ id: String, at seconds: Double) -> NotificationData {
    NotificationData(
      id: id, type: .ping, title: "push \(id)", message: "",
      timestamp: start.addingTimeInterval(seconds))
  }

  /// A log with a record of each status (a pending one that failed, one in flight, one waiting
  /// for its push to be listed, an acknowledged one, a clear-all with a bound), a push and a
  /// notice, all with timestamps finer than a millisecond.
  static func logWithEveryStatus() -> ChangeLog {
    var log = ChangeLog()
    log.receive(push("p1", at: 0.000_3), at: start.addingTimeInterval(0.000_7))
    log.recordNotice(push("local-1", at: 1.000_4))
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    _ = log.fail(UUID(1), with: .server(status: 503), at: start.addingTimeInterval(2.000_9))
    log.record(.markAsUnread("n2"), id: UUID(2))
    log.markSending(UUID(2))
    log.record(.delete("p1"), id: UUID(3))
    log.record(.markAllAsRead(["n3", "n4"]), id: UUID(4))
    log.markSending(UUID(4))
    log.acknowledge(UUID(4), at: 42)
    log.record(.deleteAll(upTo: FeedPosition(push("n9", at: -0.000_5))), id: UUID(5))
    log.record(.markAsRead("n6"), id: UUID(6))
    let statuses = Set(
      log.records.map { record in
        switch record.status {
        case .pending: "pending"
        case .sending: "sending"
        case .waiting: "waiting"
        case .awaitingListing: "awaitingListing"
        case .acknowledged: "acknowledged"
        }
      })
    precondition(statuses.count == 5 && log.records[id: UUID(1)]?.firstFailure != nil)
    return log
  }

  /// Everything in the database at `url`: its schema (`type name on table: sql`, sorted), the
  /// rows of each table (each row's values quoted, in the table's order), its user version.
  static func contents(of url: URL) throws
    -> (schema: [String], rows: [String: [String]], userVersion: Int)
  {
    let db = try SQLiteConnection(path: url.path, readOnly: true)
    let schema = try db.statement("SELECT type, name, tbl_name, sql FROM sqlite_master").rows {
      "\($0.text(at: 0)) \($0.text(at: 1)) on \($0.text(at: 2)): \($0.text(at: 3))"
    }.sorted()
    let tables = try db.statement("SELECT name FROM sqlite_master WHERE type = 'table'").rows {
      $0.text(at: 0)
    }
    var rows: [String: [String]] = [:]
    for table in tables {
      let columns = try db.statement("SELECT name FROM pragma_table_info(?)").rows([.text(table)]) {
        "quote(\($0.text(at: 0)))"
      }
      rows[table] = try db.statement(
        "SELECT \(columns.joined(separator: " || ',' || ")) FROM \(table)"
      ).rows { $0.text(at: 0) }.sorted()
    }
    return (schema, rows, try db.userVersion())
  }
}

/// Where the stores of a test keep their rows: memory shared by every store of a scope, or one
/// inbox file, which each "process" opens with its own connection.
final class Place {
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, inbox
    var testDescription: String { rawValue }
  }

  let kind: Kind
  private let folder = TemporaryFolder()
  private var memory: [String: ChangeLogStore] = [:]
  private var inboxes: [Int: LocalInbox] = [:]

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// The inbox file.
  var url: URL { folder.url.appendingPathComponent("inbox.sqlite") }

  /// The store of `scope` for one process.
  func store(process: Int = 0, scope: String = "local") -> ChangeLogStore {
    switch kind {
    case .inMemory:
      if let store = memory[scope] { return store }
      let store = ChangeLogStore.inMemory()
      memory[scope] = store
      return store
    case .inbox:
      let inbox = inboxes[process] ?? LocalInbox(url: url)
      inboxes[process] = inbox
      return inbox.changeLogStore(scope: scope)
    }
  }

  func remove() { folder.remove() }
}

/// One process's log, and the log it last saved, whose difference it writes.
struct Session {
  let store: ChangeLogStore
  var log: ChangeLog
  private var saved: ChangeLog

  init(_ store: ChangeLogStore) async throws {
    self.store = store
    log = try await store.load()
    saved = log
  }

  mutating func save() async throws {
    try await store.write(log.writes(from: saved))
    saved = log
  }
}
