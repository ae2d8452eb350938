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

  /// The seconds since 1970 that have a four-digit year: 0000-01-01 up to the end of 9999.
  static let representableSeconds: ClosedRange<TimeInterval> = -62_167_219_200...253_402_300_799

  /// Formats in UTC with milliseconds, as `2023-11-14T22:13:20.250Z`, rounding to the
  /// nearest millisecond; `nil` for a date without a four-digit year (not finite, or outside
  /// the years 0000 to 9999), which ISO-8601 text cannot carry.
  ///
  /// ```swift
  /// ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000.25))
  /// ```
  ///
  /// Rounding (rather than the format style's truncation) makes formatting a parsed date give
  /// back the same text: `.999` parses to a `Date` a hair below it, which truncation would
  /// write as `.998`, so every save of a file would move its timestamps back a millisecond.
  package static func string(from date: Date) -> String? {
    let secondsSince1970 = date.timeIntervalSince1970
    guard representableSeconds.contains(secondsSince1970) else { return nil }  // NaN too
    // In range, so the conversion is exact and cannot overflow.
    let total = Int64((secondsSince1970 * 1_000).rounded())
    var (seconds, fraction) = total.quotientAndRemainder(dividingBy: 1_000)
    if fraction < 0 {
      seconds -= 1
      fraction += 1_000
    }
    // Whole seconds are exact, so the format style has nothing to truncate.
    let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
      .formatted(Date.ISO8601FormatStyle())
    guard whole.hasSuffix("Z") else { return nil }
    let digits = String(fraction)
    return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }
}
