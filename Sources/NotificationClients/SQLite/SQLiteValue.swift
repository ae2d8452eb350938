import Foundation

/// A value SQLite stores: what a statement binds and what a column holds.
///
/// ```swift
/// try connection.execute("INSERT INTO notes (title, size) VALUES (?, ?)", ["Hi", 2])
/// ```
package enum SQLiteValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
  package init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
  package init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByNilLiteral {
  package init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
  package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue {
  /// An integer, or `nil` for null.
  package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
  /// A text, or `nil` for null.
  package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
  /// A boolean as 0 or 1.
  package init(_ value: Bool) { self = .integer(value ? 1 : 0) }
  /// A real, or `nil` for null.
  package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
  /// A blob, or `nil` for null.
  package init(_ value: Data?) { self = value.map { .blob($0) } ?? .null }
}
