import Foundation

extension JSONValue {
  /// Whether JSON bytes nest a value deeper than ``maximumDepth`` (the root being level 0), read
  /// without decoding: Foundation's JSON reader stops at 512 levels with an error that cannot be
  /// told from broken JSON, so the depth is checked first.
  ///
  /// A value starts at the level of the containers open around it, so an empty array may open
  /// at level 64 but nothing may sit inside it. Brackets inside strings (escaped quotes
  /// included) do not count. The bytes need not be valid JSON.
  ///
  /// - Complexity: O(*n*) in the size of `data`.
  static func nestsTooDeep(_ data: Data) -> Bool {
    var open = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
        UInt8(ascii: ","), UInt8(ascii: ":"):
        continue
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        open = max(open - 1, 0)
        continue
      default:
        // Any other byte starts a value (or a key, whose value sits at the same level).
        guard open <= maximumDepth else { return true }
      }
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "{"): open += 1
      case UInt8(ascii: "\""): inString = true
      default: break
      }
    }
    return false
  }
}
