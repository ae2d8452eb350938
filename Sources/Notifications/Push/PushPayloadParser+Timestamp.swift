import Foundation

extension PushPayloadParser {
  /// Numbers below this are seconds since 1970 (10^11 s is the year 5138).
  static let secondsBelow = 1e11
  /// Numbers from ``secondsBelow`` up to this are milliseconds (10^14 ms is the year 5138);
  /// numbers from here on are microseconds.
  static let millisecondsBelow = 1e14
  /// How far past the receive time a timestamp may lie before it is taken for a wrong clock.
  static let allowedClockSkew: TimeInterval = 24 * 60 * 60

  /// The notification's time (see ``parse(_:receivedAt:)`` for the rules). Zero counts as
  /// missing: it is the default of an unset number field (protobuf, a database column), and no
  /// notification was sent at the first second of 1970; an ISO-8601 1970 date is kept.
  static func parseTimestamp(_ value: JSONValue?, receivedAt: Date) throws(PushParseError)
    -> Date
  {
    let date: Date
    switch value {
    case nil, .null?:
      return receivedAt
    case .number(let number, _, _)?:
      if number == 0 { return receivedAt }
      date = try dateFromNumber(number)
    case .string(let text)?:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty {
        return receivedAt
      } else if let number = decimalNumber(trimmed) {
        if number == 0 { return receivedAt }
        date = try dateFromNumber(number)
      } else if let parsed = ISO8601.date(from: trimmed) {
        guard parsed.timeIntervalSince1970 >= 0 else {
          throw .invalidField("timestamp", reason: "\"\(trimmed.prefix(40))\" is before 1970")
        }
        date = parsed
      } else {
        throw .invalidField("timestamp", reason: "\"\(trimmed.prefix(40))\" is not a date")
      }
    case .bool?, .array?, .object?:
      throw .invalidField("timestamp", reason: "it must be a string or a number")
    }
    return date > receivedAt.addingTimeInterval(allowedClockSkew) ? receivedAt : date
  }

  /// Seconds below 10^11, milliseconds below 10^14, microseconds from there on.
  static func dateFromNumber(_ number: Double) throws(PushParseError) -> Date {
    guard number.isFinite, number >= 0 else {
      throw .invalidField("timestamp", reason: "\(number) is before 1970")
    }
    let seconds =
      number < secondsBelow ? number : number < millisecondsBelow ? number / 1e3 : number / 1e6
    return Date(timeIntervalSince1970: seconds)
  }

  /// A plain decimal number such as `1700000000`, `-5` or `1.7e9`; `nil` for anything else,
  /// including the forms `Double.init` also reads (`nan`, `inf`, hexadecimal).
  static func decimalNumber(_ text: String) -> Double? {
    var sawDigit = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"),
        UInt8(ascii: "E"):
        break
      default: return nil
      }
    }
    guard sawDigit, let number = Double(text), number.isFinite else { return nil }
    return number
  }
}
