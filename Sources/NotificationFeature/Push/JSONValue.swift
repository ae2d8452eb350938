import Foundation

/// A JSON value, decoded without `JSONSerialization` so booleans and numbers stay distinct on
/// every platform.
enum JSONValue: Sendable, Hashable, Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Converts a `userInfo`-style dictionary; `nil` when a value is not JSON-like.
  init?(any value: Any) {
    switch value {
    case let value as String: self = .string(value)
    case let value as Bool where type(of: value) == Bool.self: self = .bool(value)
    case let value as Int: self = .number(Double(value))
    case let value as Double: self = .number(value)
    case let value as NSNumber: self = .number(value.doubleValue)
    case is NSNull: self = .null
    case let value as [Any]:
      var array: [JSONValue] = []
      for element in value {
        guard let converted = JSONValue(any: element) else { return nil }
        array.append(converted)
      }
      self = .array(array)
    case let value as [AnyHashable: Any]:
      var object: [String: JSONValue] = [:]
      for (key, element) in value {
        guard let key = key.base as? String, let converted = JSONValue(any: element) else {
          return nil
        }
        object[key] = converted
      }
      self = .object(object)
    default:
      return nil
    }
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }
}
