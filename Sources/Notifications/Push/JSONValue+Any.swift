import Foundation

extension JSONValue {
  /// The class of `NSNumber`s that hold booleans (`__NSCFBoolean` on Apple platforms and in
  /// current Linux Foundation), found once by asking Foundation itself.
  private static let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))

  /// Converts an Apple `userInfo` dictionary (or any value of one) without trapping.
  ///
  /// Accepted: `String`/`NSString`, Swift `Bool`, `NSNumber` booleans, any other `NSNumber`
  /// or Swift numeric type that bridges to it (finite only), `NSNull`, `nil` optionals (as
  /// `null`), arrays, and dictionaries with string keys, nested at most ``maximumDepth`` deep.
  ///
  /// ```swift
  /// let root = try JSONValue(any: userInfo)
  /// ```
  ///
  /// - Throws: ``PushParseError/invalidField(_:reason:)`` naming the path of the first value
  ///   that is not JSON (a `Date`, `Data`, a non-finite number, a non-string key);
  ///   ``PushParseError/nestedTooDeep(limit:)`` for a value nested too deeply.
  /// - Complexity: O(*n*) in the number of values.
  package init(any value: Any) throws(PushParseError) {
    self = try Self.convert(value, path: "", depth: 0)
  }

  private static func convert(_ value: Any, path: String, depth: Int) throws(PushParseError)
    -> JSONValue
  {
    guard depth <= maximumDepth else { throw .nestedTooDeep(limit: maximumDepth) }
    let shownPath = path.isEmpty ? "payload" : path
    if let string = value as? String { return .string(string) }
    if type(of: value) == Bool.self, let bool = value as? Bool { return .bool(bool) }
    if let number = value as? NSNumber { return try convert(number, path: shownPath) }
    if value is NSNull { return .null }
    if let array = value as? [Any] {
      var converted: [JSONValue] = []
      converted.reserveCapacity(array.count)
      for (index, element) in array.enumerated() {
        converted.append(try convert(element, path: "\(path)[\(index)]", depth: depth + 1))
      }
      return .array(converted)
    }
    if let dictionary = value as? [AnyHashable: Any] {
      var converted: [String: JSONValue] = [:]
      converted.reserveCapacity(dictionary.count)
      for (key, element) in dictionary {
        guard let key = key.base as? String else {
          throw .invalidField(shownPath, reason: "its key \(key) is not a string")
        }
        let childPath = path.isEmpty ? key : "\(path).\(key)"
        converted[key] = try convert(element, path: childPath, depth: depth + 1)
      }
      return .object(converted)
    }
    if isNilOptional(value) { return .null }
    throw .invalidField(shownPath, reason: "a value of type \(type(of: value)) is not JSON")
  }

  private static func convert(_ number: NSNumber, path: String) throws(PushParseError)
    -> JSONValue
  {
    if ObjectIdentifier(type(of: number)) == booleanNumberClass {
      return .bool(number.boolValue)
    }
    let double = number.doubleValue
    guard double.isFinite else {
      throw .invalidField(path, reason: "\(double) is not a finite number")
    }
    // Integers keep their exact value; `objCType` says which kind of number it holds.
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"),
      UInt8(ascii: "q"):
      return .number(double, exactInteger: number.int64Value, digits: nil)
    case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"),
      UInt8(ascii: "Q"):
      let integer = number.uint64Value
      return .number(
        double, exactInteger: integer <= UInt64(Int64.max) ? Int64(integer) : nil,
        digits: String(integer))
    default:
      return .number(double, exactInteger: Int64(exactly: double), digits: nil)
    }
  }

  private static func isNilOptional(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .optional && mirror.children.isEmpty
  }
}
