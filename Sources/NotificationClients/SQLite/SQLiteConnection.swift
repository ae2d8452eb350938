import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// One connection to a SQLite database file: executes SQL, caches compiled statements and runs
/// transactions.
///
/// ```swift
/// let connection = try SQLiteConnection(path: ":memory:")
/// try connection.execute("CREATE TABLE notes (title TEXT NOT NULL, size INTEGER)")
/// try connection.transaction {
///   try connection.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
/// }
/// let count = try connection.statement("SELECT count(*) FROM notes").firstRow { $0.int(at: 0) }
/// ```
///
/// A connection is used by one thread at a time: ``SQLiteQueue`` owns one and serialises its
/// use. It is not `Sendable`.
package final class SQLiteConnection {
  /// The handle, valid until deinit.
  let handle: OpaquePointer
  /// The database file's path (":memory:" for a private in-memory database).
  package let path: String
  /// Compiled statements by SQL, reused: compiling costs more than running a small query.
  private var cache: [String: SQLiteStatement] = [:]

  /// Opens (and, unless `readOnly`, creates) the database at `path`.
  ///
  /// The connection reports extended result codes and waits up to `busyTimeout` for a lock
  /// another connection holds before failing with a busy error. An `immutable` connection (read
  /// only) takes no lock and needs no `-shm` file: the way to read a WAL database in a file and
  /// folder this process may not write, which SQLite otherwise refuses even to read.
  package init(
    path: String, readOnly: Bool = false, immutable: Bool = false,
    busyTimeout: Duration = .seconds(5)
  ) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags =
      (readOnly || immutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
    let target =
      immutable
      ? "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1"
      : path
    let result = sqlite3_open_v2(target, &handle, flags, nil)
    guard result == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      throw SQLiteError(extendedCode: result, message: "\(message) (\(path))")
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    let milliseconds = busyTimeout.components.seconds * 1_000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
  }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements separated by semicolons, with no values bound.
  package func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(handle, sql, nil, nil, &message)
    guard result == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Runs one statement with `values` bound to its parameters, through the statement cache.
  package func execute(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
    try statement(sql).run(values)
  }

  /// The compiled statement for `sql`, from the cache or compiled now and cached.
  package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let cached = cache[sql] { return cached }
    let statement = try prepare(sql)
    cache[sql] = statement
    return statement
  }

  /// Compiles `sql` into a statement that is not cached.
  package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard result == SQLITE_OK, let statement else {
      throw error(result == SQLITE_OK ? SQLITE_MISUSE : result, sql: sql)
    }
    return SQLiteStatement(handle: statement, sql: sql, connection: self)
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  ///
  /// An immediate transaction (the default) takes the write lock at once, so a write never
  /// fails half-way because another connection started writing first.
  package func transaction<Result>(
    _ kind: TransactionKind = .immediate, _ body: () throws -> Result
  ) throws -> Result {
    try execute(kind.begin)
    let result: Result
    do {
      result = try body()
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    return result
  }

  /// How a transaction takes its locks.
  package enum TransactionKind: Sendable {
    /// Takes the write lock at the first write.
    case deferred
    /// Takes the write lock at once.
    case immediate

    var begin: String {
      switch self {
      case .deferred: "BEGIN DEFERRED"
      case .immediate: "BEGIN IMMEDIATE"
      }
    }
  }

  /// The number of rows the last INSERT, UPDATE or DELETE changed.
  package var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the last row inserted.
  package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The database's `user_version`.
  package func userVersion() throws(SQLiteError) -> Int {
    try statement("PRAGMA user_version").firstRow { $0.int(at: 0) } ?? 0
  }

  /// A number that changes whenever another connection commits a change to the database, so
  /// a watcher can tell that something changed without reading the data.
  package func dataVersion() throws(SQLiteError) -> Int64 {
    try statement("PRAGMA data_version").firstRow { $0.integer(at: 0) } ?? 0
  }

  /// The error SQLite reports for `result` on this connection.
  func error(_ result: Int32, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    return SQLiteError(
      extendedCode: extended & 0xff == result & 0xff ? extended : result,
      message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
