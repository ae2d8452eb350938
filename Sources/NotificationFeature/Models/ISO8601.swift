import Foundation

/// ISO-8601 dates as the API writes and reads them.
///
/// ```swift
/// ISO8601.date(from: "2023-11-14T23:13:20+01:00")   // 2023-11-14 22:13:20 UTC
/// ISO8601.string(from: date)                       // "2023-11-14T22:13:20.000Z"
/// ```
package enum ISO8601 {
  /// Parses `2023-11-14T22:13:20Z`, `2023-11-14T22:13:20.123Z` or either with a `±hh:mm`
  /// offset; `nil` for anything else (a date alone, a missing offset, a space for the `T`).
  ///
  /// ```swift
  /// ISO8601.date(from: "2023-11-14T22:13:20.5Z")
  /// ```
  package static func date(from text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }

  /// Formats in UTC with milliseconds, as `2023-11-14T22:13:20.250Z`.
  ///
  /// ```swift
  /// ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000.25))
  /// ```
  package static func string(from date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}
