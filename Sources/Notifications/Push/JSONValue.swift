/// A JSON value, the parser's view of a push payload.
///
/// Booleans and numbers stay distinct on every platform: bytes are decoded with
/// `JSONDecoder` trying `Bool` before any number, and `userInfo` values are classified by
/// their dynamic type (see `JSONValue+Any.swift`), never through `JSONSerialization`'s
/// `NSNumber`, which on Linux answers to both.
///
/// ```swift
/// let value = try JSONValue.decode(Data(#"{"id":42,"isRead":true}"#.utf8))
/// value["id"]       // .number(42, exactInteger: 42, digits: "42")
/// value["isRead"]   // .bool(true)
/// ```
package enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A finite number. `exactInteger` is the number as an `Int64` when it is a whole number
  /// that fits, taken from the original digits, so an id such as `9007199254740993` (beyond a
  /// `Double`'s 53 bits) keeps every digit; `nil` otherwise. `digits` is the literal of a whole
  /// number read from JSON bytes (`12345678901234567890123`), so ``text`` keeps every digit of
  /// one too long for an `Int64`; `nil` otherwise.
  case number(Double, exactInteger: Int64?, digits: String?)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; duplicate keys keep one of their values.
  case object([String: JSONValue])

  /// The deepest nesting accepted (the root object is level 0). Real push payloads nest two
  /// or three levels; the limit keeps a hostile or cyclic `userInfo` from exhausting the stack.
  static let maximumDepth = 64

  /// The member named `key` of an object; `nil` for a missing key or a value that is not an
  /// object.
  ///
  /// ```swift
  /// root["aps"]?["alert"]
  /// ```
  package subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The members of an object; `nil` for any other value.
  package var objectValue: [String: JSONValue]? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The value as text when it is a string or a number: a string as is, a whole number
  /// without a fraction (`42`), another number in Swift's shortest form (`42.5`); `nil` for
  /// `null`, booleans, arrays and objects.
  package var text: String? {
    switch self {
    case .string(let text): text
    case .number(_, let integer?, _): String(integer)
    case .number(_, nil, let digits?): digits
    case .number(let number, nil, nil): String(number)
    case .null, .bool, .array, .object: nil
    }
  }
}
