import Foundation

/// Serialises every use of one ``SQLiteConnection``: the `Sendable` way to share a database
/// between tasks and threads.
///
/// ```swift
/// let queue = try SQLiteQueue(path: path)
/// try queue.write { db in
///   try db.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
/// }
/// let count = try queue.read { db in
///   try db.statement("SELECT count(*) FROM notes").firstRow { $0.int(at: 0) }
/// }
/// ```
///
/// Other processes (another CLI, the dev server) may use the same file at once: the queue's
/// connection waits for their locks up to its busy timeout, and WAL journaling lets readers go
/// on while one of them writes.
///
/// > Important: `body` must not keep the connection (or a statement of it) after it returns.
package final class SQLiteQueue: Sendable {
  /// Held while `connection` is used. An `NSLock` (a `pthread` mutex) rather than
  /// `Synchronization.Mutex`, which the thread sanitizer does not understand on Linux.
  private let lock = NSLock()
  /// Used only inside `lock.withLock`, by `read` and `write` below (nothing else in the
  /// module reads it), so one thread at a time uses the connection and its statements. The
  /// closures it is lent to are non-escaping, and `SQLiteConnection` and `SQLiteStatement`
  /// are explicitly not `Sendable`, so neither can be handed to another task or thread; a
  /// body could still copy the reference into a local of its caller, which the documentation
  /// above forbids (as GRDB's `DatabaseQueue` does). Mutex<SQLiteConnection> cannot express
  /// this: lending its non-Sendable value to a closure is rejected by region checking.
  private nonisolated(unsafe) let connection: SQLiteConnection
  /// The database file's path.
  package let path: String

  /// Opens the database at `path` (creating it unless `readOnly` or `immutable`) with WAL
  /// journaling and a disk sync at every commit; see ``SQLiteConnection`` for `immutable`.
  package init(
    path: String, readOnly: Bool = false, immutable: Bool = false,
    busyTimeout: Duration = .seconds(5)
  ) throws(SQLiteError) {
    let connection = try SQLiteConnection(
      path: path, readOnly: readOnly, immutable: immutable, busyTimeout: busyTimeout)
    if !readOnly, !immutable, path != ":memory:" {
      try connection.execute("PRAGMA journal_mode = WAL")
      // Every commit is synced to disk before it returns, so a change survives a power cut too
      // (NORMAL would only survive the app crashing). W10 measures what that costs.
      try connection.execute("PRAGMA synchronous = FULL")
    }
    self.path = path
    self.connection = connection
  }

  /// Runs `body` with the connection, alone.
  package func read<Result: Sendable>(
    _ body: (SQLiteConnection) throws -> Result
  ) throws -> Result {
    try lock.withLock { () throws -> Result in try body(connection) }
  }

  /// Runs `body` with the connection in one immediate transaction: every change it makes is
  /// committed together, or none is when it throws.
  package func write<Result: Sendable>(
    _ body: (SQLiteConnection) throws -> Result
  ) throws -> Result {
    try lock.withLock { () throws -> Result in
      try connection.transaction(.immediate) { try body(connection) }
    }
  }
}
