import Foundation
import NotificationClients
import Testing

struct SQLiteConnectionTests {
  @Test func everyKindOfValueIsStoredAndReadBackAsItWas() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
    let blob = Data([0, 1, 2, 255])
    try db.execute(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
      [.integer(-42), .real(2.5), .text("héllo 👋\nworld"), .blob(blob), .null])
    let row = try db.statement("SELECT i, r, s, b, n FROM t").firstRow { row in
      (row.integer(at: 0), row.real(at: 1), row.text(at: 2), row.data(at: 3),
       row.optionalText(at: 4), row.isNull(at: 4))
    }
    let (integer, real, text, data, missing, isNull) = try #require(row)
    #expect(integer == -42)
    #expect(real == 2.5)
    #expect(text == "héllo 👋\nworld")
    #expect(data == blob)
    #expect(missing == nil)
    #expect(isNull)
  }

  @Test func aStatementIsCompiledOnceAndReused() throws {
    let db = try SQLiteConnection(path: ":memory:")
    let first = try db.statement("SELECT 1")
    let second = try db.statement("SELECT 1")
    #expect(first === second)
    #expect(try first.firstRow { $0.int(at: 0) } == 1)
    #expect(try second.firstRow { $0.int(at: 0) } == 1)
  }

  @Test func bindingTheWrongNumberOfValuesIsATypedErrorNotATrap() throws {
    let db = try SQLiteConnection(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("SELECT ?, ?", [1])
    }
    #expect(error?.code == 25)  // SQLITE_RANGE
    #expect(error?.message == "the statement takes 2 values, 1 were given")
    #expect(error?.sql == "SELECT ?, ?")
  }

  @Test func anErrorNamesTheResultCodeTheMessageAndTheSQLButNotTheValues() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
    try db.execute("INSERT INTO t VALUES (?)", ["secret-value"])
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO t VALUES (?)", ["secret-value"])
    }
    #expect(error?.isConstraintViolation == true)
    #expect(error?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
    #expect(
      error?.description
        == "SQLite error 19 (constraint failed): UNIQUE constraint failed: t.id, in \"INSERT INTO t VALUES (?)\""
    )
    let syntax = #expect(throws: SQLiteError.self) { try db.execute("SELEC 1") }
    #expect(syntax?.code == 1)
    #expect(syntax?.message == "near \"SELEC\": syntax error")
  }

  @Test func aTransactionCommitsWhenItsBodyReturnsAndRollsBackWhenItThrows() throws {
    struct Stop: Error {}
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (x INTEGER)")
    try db.transaction { try db.execute("INSERT INTO t VALUES (1)", []) }
    #expect(throws: Stop.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (2)", [])
        throw Stop()
      }
    }
    let values = try db.statement("SELECT x FROM t ORDER BY x").rows { $0.int(at: 0) }
    #expect(values == [1])
    // The connection is usable afterwards: no transaction was left open.
    try db.transaction { try db.execute("INSERT INTO t VALUES (3)", []) }
    #expect(try db.statement("SELECT count(*) FROM t").firstRow { $0.int(at: 0) } == 2)
  }

  @Test func aFileThatIsNotADatabaseIsReportedCorruptAndLeftAsItWas() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let garbage = Data(repeating: 0x41, count: 8_192)
    try garbage.write(to: url)
    let error = #expect(throws: SQLiteError.self) {
      let queue = try SQLiteQueue(path: url.path)
      _ = try queue.read { db in try db.userVersion() }
    }
    #expect(error?.isCorrupt == true)
    #expect(try Data(contentsOf: url) == garbage)
  }
}

struct SQLiteQueueTests {
  @Test func aDatabaseFileIsJournaledWithWAL() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let queue = try SQLiteQueue(path: folder.url.appendingPathComponent("db.sqlite").path)
    let mode = try queue.read { db in
      try db.statement("PRAGMA journal_mode").firstRow { $0.text(at: 0) }
    }
    #expect(mode == "wal")
  }

  @Test func aWriterWaitsForAnotherConnectionsLockThenFailsAsBusyAfterTheTimeout() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let path = folder.url.appendingPathComponent("db.sqlite").path
    let holder = try SQLiteQueue(path: path)
    try holder.write { db in try db.execute("CREATE TABLE t (x INTEGER)") }
    let other = try SQLiteQueue(path: path, busyTimeout: .milliseconds(50))
    let error = try holder.write { _ in
      // The holder's write transaction is open: the other connection cannot start one.
      let started = ContinuousClock.now
      let error = #expect(throws: SQLiteError.self) {
        try other.write { db in try db.execute("INSERT INTO t VALUES (1)") }
      }
      #expect(ContinuousClock.now - started >= .milliseconds(40))
      return error
    }
    #expect(error?.isBusy == true)
    // Once the lock is released the other connection writes.
    try other.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    #expect(try holder.read { db in try db.statement("SELECT count(*) FROM t").firstRow { $0.int(at: 0) } } == 1)
  }

  @Test func theDataVersionChangesWhenAnotherConnectionCommitsAndNotForItsOwnWrites() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let path = folder.url.appendingPathComponent("db.sqlite").path
    let watcher = try SQLiteQueue(path: path)
    let writer = try SQLiteQueue(path: path)
    try watcher.write { db in try db.execute("CREATE TABLE t (x INTEGER)") }
    let start = try watcher.read { try $0.dataVersion() }
    try watcher.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    #expect(try watcher.read { try $0.dataVersion() } == start)
    try writer.write { db in try db.execute("INSERT INTO t VALUES (2)") }
    #expect(try watcher.read { try $0.dataVersion() } != start)
  }
}

struct SQLiteMigratorTests {
  static func migrator(failingSecond: Bool = false) -> SQLiteMigrator {
    var migrator = SQLiteMigrator()
    migrator.register("create notes") { db in
      try db.execute("CREATE TABLE notes (title TEXT NOT NULL)")
    }
    migrator.register("add size") { db in
      try db.execute("ALTER TABLE notes ADD COLUMN size INTEGER")
      if failingSecond { try db.execute("SELECT * FROM missing") }
    }
    return migrator
  }

  @Test func migrationsRunOnceEachInOrderAndAreRecorded() throws {
    let queue = try SQLiteQueue(path: ":memory:")
    #expect(try Self.migrator().migrate(queue) == ["create notes", "add size"])
    #expect(try Self.migrator().migrate(queue) == [])
    try queue.write { db in try db.execute("INSERT INTO notes (title, size) VALUES ('a', 1)") }
    #expect(try queue.read { try SQLiteMigrator.appliedMigrations(in: $0) } == ["create notes", "add size"])
    #expect(try queue.read { try $0.userVersion() } == 2)
  }

  @Test func aFailingMigrationChangesNothingAndIsNotRecorded() throws {
    let queue = try SQLiteQueue(path: ":memory:")
    #expect(throws: SQLiteError.self) { try Self.migrator(failingSecond: true).migrate(queue) }
    #expect(try queue.read { try SQLiteMigrator.appliedMigrations(in: $0) } == ["create notes"])
    let columns = try queue.read { db in
      try db.statement("SELECT name FROM pragma_table_info('notes')").rows { $0.text(at: 0) }
    }
    #expect(columns == ["title"])
    #expect(try Self.migrator().migrate(queue) == ["add size"])
  }

  @Test func aDatabaseWithMigrationsThisVersionDoesNotKnowIsRefusedUntouched() throws {
    let queue = try SQLiteQueue(path: ":memory:")
    var newer = Self.migrator()
    newer.register("add colour") { db in try db.execute("ALTER TABLE notes ADD COLUMN colour TEXT") }
    try newer.migrate(queue)
    let error = #expect(throws: SQLiteMigrationError.self) { try Self.migrator().migrate(queue) }
    #expect(error == .newerSchema(unknown: ["add colour"]))
    #expect(try queue.read { try SQLiteMigrator.appliedMigrations(in: $0) }.count == 3)
  }
}

/// The code the SQLite layer's doc comments show, compiled and run.
struct SQLiteDocSnippetTests {
  @Test func theConnectionSnippetRuns() throws {
    // snippet: sqlite-connection
    let connection = try SQLiteConnection(path: ":memory:")
    try connection.execute("CREATE TABLE notes (title TEXT NOT NULL, size INTEGER)")
    try connection.transaction {
      try connection.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
    }
    let count = try connection.statement("SELECT count(*) FROM notes").firstRow { $0.int(at: 0) }
    // snippet: end
    #expect(count == 1)
    // snippet: sqlite-value
    try connection.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
    // snippet: end
    try connection.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Big", 3])
    // snippet: sqlite-statement
    let statement = try connection.statement("SELECT title FROM notes WHERE size > ?")
    let titles = try statement.rows([2]) { row in row.text(at: 0) }
    // snippet: end
    #expect(titles == ["Big"])
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // snippet: sqlite-error
    do {
      try connection.execute("INSERT INTO missing VALUES (1)")
    } catch {
      print(error)  // SQLite error 1 (SQL logic error): no such table: missing, in "INSERT INTO …"
    }
    // snippet: end
    #expect(printed == [#"SQLite error 1 (SQL logic error): no such table: missing, in "INSERT INTO missing VALUES (1)""#])
  }

  @Test func theQueueAndMigratorSnippetsRun() throws {
    let queue = try SQLiteQueue(path: ":memory:")
    // snippet: sqlite-migrator
    var migrator = SQLiteMigrator()
    migrator.register("create notes") { db in
      try db.execute("CREATE TABLE notes (title TEXT NOT NULL)")
    }
    migrator.register("add size") { db in
      try db.execute("ALTER TABLE notes ADD COLUMN size INTEGER")
    }
    try migrator.migrate(queue)
    // snippet: end
    try queue.write { db in try db.execute("INSERT INTO notes (title, size) VALUES ('a', 1)") }
  }

  @Test func theQueueSnippetRuns() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let path = folder.url.appendingPathComponent("notes.sqlite").path
    try SQLiteQueue(path: path).write { db in
      try db.execute("CREATE TABLE notes (title TEXT NOT NULL, size INTEGER)")
    }
    // snippet: sqlite-queue
    let queue = try SQLiteQueue(path: path)
    try queue.write { db in
      try db.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
    }
    let count = try queue.read { db in
      try db.statement("SELECT count(*) FROM notes").firstRow { $0.int(at: 0) }
    }
    // snippet: end
    #expect(count == 1)
  }
}
