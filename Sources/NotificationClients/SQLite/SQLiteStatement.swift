import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A compiled SQL statement of one connection: bind values, step through the rows, read columns.
///
/// ```swift
/// let statement = try connection.statement("SELECT title FROM notes WHERE size > ?")
/// let titles = try statement.rows([2]) { row in row.text(at: 0) }
/// ```
///
/// A statement belongs to its connection and is used by one thread at a time, under the
/// ``SQLiteQueue`` that owns the connection; it is not `Sendable`.
package final class SQLiteStatement {
  /// The handle, valid until deinit.
  let handle: OpaquePointer
  /// The SQL the statement was compiled from.
  package let sql: String
  private unowned let connection: SQLiteConnection

  init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
    self.handle = handle
    self.sql = sql
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Resets the statement and binds `values` to its parameters, in order.
  package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == expected else {
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "the statement takes \(expected) values, \(values.count) were given", sql: sql)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let result: Int32
      switch value {
      case .null: result = sqlite3_bind_null(handle, index)
      case .integer(let integer): result = sqlite3_bind_int64(handle, index, integer)
      case .real(let real): result = sqlite3_bind_double(handle, index, real)
      case .text(let text): result = sqlite3_bind_text(handle, index, text, -1, transientDestructor)
      case .blob(let data):
        result = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), transientDestructor)
        }
      }
      guard result == SQLITE_OK else { throw connection.error(result, sql: sql) }
    }
  }

  /// Runs the statement to its next row.
  ///
  /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
  @discardableResult
  package func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let result:
      sqlite3_reset(handle)
      throw connection.error(result, sql: sql)
    }
  }

  /// Binds `values` and runs the statement to its end, ignoring any rows.
  package func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    try bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Binds `values` and transforms every row.
  package func rows<Element>(
    _ values: [SQLiteValue] = [], _ transform: (SQLiteStatement) throws(SQLiteError) -> Element
  ) throws(SQLiteError) -> [Element] {
    try bind(values)
    defer { sqlite3_reset(handle) }
    var elements: [Element] = []
    while try step() { elements.append(try transform(self)) }
    return elements
  }

  /// Binds `values` and transforms the first row, if there is one.
  package func firstRow<Element>(
    _ values: [SQLiteValue] = [], _ transform: (SQLiteStatement) throws(SQLiteError) -> Element
  ) throws(SQLiteError) -> Element? {
    try bind(values)
    defer { sqlite3_reset(handle) }
    return try step() ? transform(self) : nil
  }

  // MARK: Columns of the current row

  /// Whether the column holds null.
  package func isNull(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  package func integer(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  package func int(at column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  package func bool(at column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

  package func real(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// The column as text ("" for null).
  package func text(at column: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The column as text, or `nil` for null.
  package func optionalText(at column: Int32) -> String? {
    isNull(at: column) ? nil : text(at: column)
  }

  /// The column as bytes (empty for null).
  package func data(at column: Int32) -> Data {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}

/// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies a bound text or blob before
/// the bind call returns, so Swift's temporary buffer may go away after it.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
