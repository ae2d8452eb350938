import Foundation

extension PushPayloadParser {
  /// Makes text safe to show, in one pass that stops at `limit`:
  ///
  /// - whitespace of any kind (spaces, tabs, newlines, line and paragraph separators) and
  ///   control characters (such as BEL or NUL) become one space, runs of them collapse, and
  ///   none is left at either end, so a multi-line message becomes a single line;
  /// - invisible format characters standing alone (a zero-width space, a byte order mark, a
  ///   bidirectional override) are removed; inside a larger character, such as the joiner of
  ///   an emoji sequence, they stay;
  /// - the result has at most `limit` whole `Character`s, so an emoji or accented letter is
  ///   never split.
  ///
  /// ```swift
  /// PushPayloadParser.clean("  Hello\n\tworld\u{7} ", limit: 120)   // "Hello world"
  /// ```
  ///
  /// - Complexity: O(*n*) in the characters read, at most `limit` kept ones plus the ones
  ///   dropped before them.
  package static func clean(_ text: String, limit: Int) -> String {
    guard limit > 0 else { return "" }
    var result = ""
    var count = 0
    var pendingSpace = false
    for character in text {
      switch CharacterKind(character) {
      case .space:
        pendingSpace = count > 0
      case .invisible:
        continue
      case .visible:
        if pendingSpace {
          // A space is only worth keeping with room for a character after it.
          guard count + 2 <= limit else { return result }
          result.append(" ")
          count += 1
          pendingSpace = false
        }
        result.append(character)
        count += 1
        if count == limit { return result }
      }
    }
    return result
  }

  /// A validated notification id (see ``parse(_:receivedAt:)`` for the rules).
  static func parseID(_ value: JSONValue?) throws(PushParseError) -> String {
    let raw: String
    switch value {
    case nil, .null?:
      throw .missingField("id")
    case .string(let text)?:
      raw = text.trimmingCharacters(in: .whitespacesAndNewlines)
    case .number(_, let integer?, _)?:
      raw = String(integer)
    case .number(let number, nil, _)?:
      guard number.rounded() == number else {
        throw .invalidField("id", reason: "a number id must be a whole number")
      }
      throw .invalidField("id", reason: "a number id must fit in 64 bits; send it as a string")
    case .bool?, .array?, .object?:
      throw .invalidField("id", reason: "it must be a string or a whole number")
    }
    guard !raw.isEmpty else { throw .missingField("id") }
    guard raw.count <= maximumIDLength else {
      throw .invalidField("id", reason: "it is longer than \(maximumIDLength) characters")
    }
    guard raw.utf8.allSatisfy(isIDByte) else {
      throw .invalidField("id", reason: "only letters, digits and _ : . - are allowed")
    }
    do {
      try NotificationData.checkID(raw)
    } catch {
      throw .invalidField("id", reason: error.description)
    }
    return raw
  }

  /// Whether `byte` is one of `[A-Za-z0-9_:.-]`.
  private static func isIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"),
      UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  /// An optional text field, cleaned; `nil` when missing or empty after cleaning.
  static func cleanText(_ value: JSONValue?, limit: Int) -> String? {
    guard let text = value?.text else { return nil }
    let cleaned = clean(text, limit: limit)
    return cleaned.isEmpty ? nil : cleaned
  }
}

/// How ``PushPayloadParser/clean(_:limit:)`` treats a character.
private enum CharacterKind {
  case space, invisible, visible

  init(_ character: Character) {
    if character.isWhitespace {
      self = .space
      return
    }
    var allControl = true
    var allInvisible = true
    for scalar in character.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control: break
      case .format: allControl = false
      default:
        allControl = false
        allInvisible = false
      }
    }
    self = allControl ? .space : allInvisible ? .invisible : .visible
  }
}
