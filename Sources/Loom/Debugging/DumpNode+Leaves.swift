import Foundation

extension DumpNode {
  /// The text of values that are shown as they are rather than opened up: strings, numbers,
  /// Booleans, and the Foundation values whose stored properties mean nothing to a reader.
  static func leafText(_ value: Any) -> String? {
    switch value {
    case let string as String: quoted(string)
    case let substring as Substring: quoted(String(substring))
    case let character as Character: quoted(String(character))
    case let bool as Bool: bool ? "true" : "false"
    case let number as any BinaryInteger: "\(number)"
    case let number as any FloatingPoint: "\(number)"
    case let date as Date: iso8601(date)
    case let uuid as UUID: uuid.uuidString
    case let url as URL: url.absoluteString
    case let data as Data: describe(data)
    case let duration as Duration: "\(duration)"
    case let type as Any.Type: "\(typeName(type)).self"
    default: nil
    }
  }

  /// The `description` of a value that has nothing more readable to show: a type with no
  /// stored properties, or a Foundation type (`Decimal`, `Locale`) whose stored properties are
  /// implementation details.
  static func describedLeafText(_ value: Any, hasFields: Bool) -> String? {
    guard let described = value as? any CustomStringConvertible else { return nil }
    if !hasFields { return described.description }
    let module = String(reflecting: type(of: value)).prefix { $0 != "." }
    return foundationModules.contains(module) ? described.description : nil
  }

  private static let foundationModules: Set<Substring> = [
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation",
  ]

  /// A string in double quotes, with quotes, backslashes and control characters escaped the
  /// way a Swift literal spells them.
  static func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default:
        if scalar.properties.generalCategory == .control {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// ISO 8601 in UTC, with as many fractional-second digits (up to six) as the date needs:
  /// `2024-03-01T12:00:00Z`, `2024-03-01T12:00:00.25Z`.
  static func iso8601(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    guard interval.isFinite else { return "\(date)" }
    var seconds = interval.rounded(.down)
    var micros = ((interval - seconds) * 1_000_000).rounded()
    if micros >= 1_000_000 {
      seconds += 1
      micros = 0
    }
    let whole = Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    guard micros > 0, whole.hasSuffix("Z") else { return whole }
    var digits = String(Int(micros))
    digits = String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole.dropLast()).\(digits)Z"
  }

  /// Small data in hex, so that different bytes read differently; large data by size.
  private static func describe(_ data: Data) -> String {
    if data.isEmpty { return "Data()" }
    guard data.count <= 32 else { return "Data(\(data.count) bytes)" }
    let hex = data.map { byte in
      let digits = String(byte, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "Data(0x\(hex.joined()))"
  }
}
