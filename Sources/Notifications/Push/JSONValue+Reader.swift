import Foundation

/// Why bytes could not be read as JSON by ``JSONValue/read(_:)``.
package enum JSONReadError: Error, Sendable, Hashable {
  /// The bytes are not JSON as RFC 8259 writes it: a trailing comma, a comment, a bare word, a
  /// number like `01` or `.5`, text that is not UTF-8, a control character in a string…
  case notJSON
  /// The value nests deeper than ``JSONValue/maximumDepth``.
  case nestedTooDeep
  /// An object names one key twice; `path` is the key's path (`aps.alert.title`).
  case duplicateKey(path: String)
}

extension JSONValue {
  /// Reads JSON bytes strictly, as RFC 8259 writes JSON: a trailing comma, a comment, a key
  /// given twice in one object, or a nesting deeper than ``maximumDepth`` is refused (Foundation's
  /// reader accepts the first three). A number keeps its digits (``text`` of a whole number too
  /// long for an `Int64` is those digits, not a rounded `Double`).
  ///
  /// ```swift
  /// let value = try JSONValue.read(Data(#"{"id": "n1", "title": 12345678901234567890123}"#.utf8))
  /// value["title"]?.text   // "12345678901234567890123"
  /// let trailingComma = try? JSONValue.read(Data(#"{"a": 1,}"#.utf8))   // nil: not JSON
  /// ```
  ///
  /// - Complexity: O(*n*) in the size of `data`.
  package static func read(_ data: Data) throws(JSONReadError) -> JSONValue {
    var reader = Reader(bytes: Array(data))
    reader.skipWhitespace()
    let value = try reader.value(depth: 0, path: "")
    reader.skipWhitespace()
    guard reader.isAtEnd else { throw .notJSON }
    return value
  }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct Reader {
  let bytes: [UInt8]
  var index = 0

  var isAtEnd: Bool { index == bytes.count }

  mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  mutating func expect(_ byte: UInt8) throws(JSONReadError) {
    guard index < bytes.count, bytes[index] == byte else { throw .notJSON }
    index += 1
  }

  /// The value at `depth` (the root is 0): as deep as ``JSONValue/maximumDepth``, so a
  /// container there must be empty.
  mutating func value(depth: Int, path: String) throws(JSONReadError) -> JSONValue {
    guard depth <= JSONValue.maximumDepth else { throw .nestedTooDeep }
    guard index < bytes.count else { throw .notJSON }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      return try object(depth: depth + 1, path: path)
    case UInt8(ascii: "["):
      return try array(depth: depth + 1, path: path)
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try word("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try word("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try word("null")
      return .null
    default:
      return try number()
    }
  }

  mutating func word(_ text: String) throws(JSONReadError) {
    for byte in text.utf8 { try expect(byte) }
  }

  mutating func object(depth: Int, path: String) throws(JSONReadError) -> JSONValue {
    try expect(UInt8(ascii: "{"))
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .notJSON }
      let key = try string()
      let keyPath = path.isEmpty ? key : "\(path).\(key)"
      guard members[key] == nil else { throw .duplicateKey(path: keyPath) }
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      members[key] = try value(depth: depth, path: keyPath)
      skipWhitespace()
      guard index < bytes.count else { throw .notJSON }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "}"))
      return .object(members)
    }
  }

  mutating func array(depth: Int, path: String) throws(JSONReadError) -> JSONValue {
    try expect(UInt8(ascii: "["))
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value(depth: depth, path: "\(path)[\(elements.count)]"))
      skipWhitespace()
      guard index < bytes.count else { throw .notJSON }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "]"))
      return .array(elements)
    }
  }

  /// A string, its escapes resolved; the bytes between the quotes must be UTF-8.
  mutating func string() throws(JSONReadError) -> String {
    try expect(UInt8(ascii: "\""))
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() throws(JSONReadError) {
      guard !run.isEmpty else { return }
      guard let text = String(validating: run, as: UTF8.self) else { throw .notJSON }
      scalars.append(contentsOf: text.unicodeScalars)
      run.removeAll(keepingCapacity: true)
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        try flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flush()
        scalars.append(try escape())
      case 0x00..<0x20:
        throw .notJSON
      default:
        run.append(byte)
      }
    }
    throw .notJSON
  }

  mutating func escape() throws(JSONReadError) -> Unicode.Scalar {
    guard index < bytes.count else { throw .notJSON }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try hexQuad()
      if (0xD800..<0xDC00).contains(first) {
        // A high surrogate must be followed by an escaped low one.
        try expect(UInt8(ascii: "\\"))
        try expect(UInt8(ascii: "u"))
        let second = try hexQuad()
        guard (0xDC00..<0xE000).contains(second),
          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        else { throw .notJSON }
        return scalar
      }
      guard let scalar = Unicode.Scalar(first) else { throw .notJSON }
      return scalar
    default:
      throw .notJSON
    }
  }

  mutating func hexQuad() throws(JSONReadError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw .notJSON }
    var value: UInt32 = 0
    for byte in bytes[index..<(index + 4)] {
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw .notJSON
      }
      value = value * 16 + digit
    }
    index += 4
    return value
  }

  /// A number as RFC 8259 writes one: `-`? then `0` or a digit 1–9 and digits, then an
  /// optional fraction and exponent.
  mutating func number() throws(JSONReadError) -> JSONValue {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw .notJSON }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    var isWhole = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw .notJSON }
      skipDigits()
      isWhole = false
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw .notJSON }
      skipDigits()
      isWhole = false
    }
    let literal = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let double = Double(literal), double.isFinite else { throw .notJSON }
    let exact = isWhole ? Int64(literal) : Int64(exactly: double)
    return .number(double, exactInteger: exact, digits: isWhole ? literal : nil)
  }

  func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

  mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }
}
