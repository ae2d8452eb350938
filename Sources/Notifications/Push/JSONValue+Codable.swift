import Foundation

extension JSONValue: Codable {
  /// Decodes any JSON value, trying `Bool` before numbers so `true` never becomes `1`, and an
  /// exact `Int64` before `Double` so large whole numbers keep their digits.
  ///
  /// - Throws: ``PushParseError/nestedTooDeep(limit:)`` when nested deeper than
  ///   ``maximumDepth``; decoding errors for anything that is not JSON.
  package init(from decoder: any Decoder) throws {
    guard decoder.codingPath.count <= Self.maximumDepth else {
      throw PushParseError.nestedTooDeep(limit: Self.maximumDepth)
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      self = .number(Double(integer), exactInteger: integer, digits: nil)
    } else if let number = try? container.decode(Double.self) {
      guard number.isFinite else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "A number too large for a Double")
      }
      self = .number(number, exactInteger: Int64(exactly: number), digits: nil)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else {
      // Not `try?`: an error from inside the array (too deep) must reach the caller.
      do {
        self = .array(try container.decode([JSONValue].self))
      } catch DecodingError.typeMismatch {
        self = .object(try container.decode([String: JSONValue].self))
      }
    }
  }

  /// Encodes the value back to JSON (an exact integer as its digits).
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .number(_, let integer?, _): try container.encode(integer)
    case .number(let number, nil, _): try container.encode(number)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }

  /// Decodes JSON bytes, strictly (see ``read(_:)``).
  ///
  /// ```swift
  /// let root = try JSONValue.decode(data)
  /// ```
  ///
  /// - Throws: ``PushParseError/nestedTooDeep(limit:)`` for bytes that nest deeper than
  ///   ``maximumDepth``, whether or not they are valid JSON (checked first);
  ///   ``PushParseError/invalidField(_:reason:)`` for a key an object gives twice (its path);
  ///   ``PushParseError/notJSON`` for other bytes that are not JSON (a trailing comma, text that
  ///   is not UTF-8…).
  /// - Complexity: O(*n*) in the size of `data`.
  package static func decode(_ data: Data) throws(PushParseError) -> JSONValue {
    guard !nestsTooDeep(data) else { throw .nestedTooDeep(limit: maximumDepth) }
    do {
      return try read(data)
    } catch {
      switch error {
      case .notJSON: throw .notJSON
      case .nestedTooDeep: throw .nestedTooDeep(limit: maximumDepth)
      case .duplicateKey(let path): throw .invalidField(path, reason: "it is given more than once")
      }
    }
  }

  /// The size in bytes of the value's compact JSON encoding (slashes unescaped, as APNs
  /// counts them); `nil` if it cannot be encoded.
  var encodedByteCount: Int? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return try? encoder.encode(self).count
  }
}
