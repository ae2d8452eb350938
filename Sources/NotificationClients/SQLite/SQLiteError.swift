#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A failure reported by SQLite: its result code, its message and the statement that failed.
///
/// The values bound to the statement are kept out of ``description`` so that logs do not leak
/// what the user stored.
///
/// ```swift
/// do {
///   try connection.execute("INSERT INTO missing VALUES (1)")
/// } catch {
///   print(error)  // SQLite error 1 (SQL logic error): no such table: missing, in "INSERT INTO …"
/// }
/// ```
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_CONSTRAINT_UNIQUE`, …).
  package var extendedCode: Int32
  /// SQLite's message for the failure.
  package var message: String
  /// The SQL that failed, when a statement did.
  package var sql: String?

  package init(extendedCode: Int32, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
  package var code: Int32 { extendedCode & 0xff }

  /// The file is not a database, or its content is damaged.
  package var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
  /// Another connection held a lock for longer than the busy timeout.
  package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
  /// The database cannot be written (the file, its folder or its volume is read-only).
  package var isReadOnly: Bool { code == SQLITE_READONLY }
  /// A constraint (unique, not null, check, foreign key) was violated.
  package var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

  package var description: String {
    let reason = String(cString: sqlite3_errstr(extendedCode))
    var text = "SQLite error \(code) (\(reason)): \(message)"
    if let sql { text += ", in \"\(sql)\"" }
    return text
  }
}
