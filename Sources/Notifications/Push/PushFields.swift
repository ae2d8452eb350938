import Foundation

/// The keys of a push payload, wherever the sender put them: custom keys at the top level or
/// inside `data` (FCM, or APNs senders that nest them), plus the `aps` dictionary and FCM's
/// `notification` dictionary.
///
/// ```swift
/// let fields = PushFields(root)
/// fields.text("contactId")   // "c1", from the top level or from "data"
/// ```
package struct PushFields {
  /// The top-level object.
  let root: [String: JSONValue]
  /// The `data` object, if there is one.
  let data: [String: JSONValue]?
  /// The APNs `aps` object, if there is one.
  let aps: [String: JSONValue]?
  /// FCM's `notification` object (`title`, `body`), if there is one.
  let notification: [String: JSONValue]?

  package init(_ root: [String: JSONValue]) {
    self.root = root
    self.data = root["data"]?.objectValue
    self.aps = root["aps"]?.objectValue
    self.notification = root["notification"]?.objectValue
  }

  /// The first non-`null` value of `key`: at the top level, else inside `data`.
  func value(_ key: String) -> JSONValue? {
    if let value = root[key], value != .null { return value }
    if let value = data?[key], value != .null { return value }
    return nil
  }

  /// The value of the first of `keys` that has a non-`null` one (for aliases).
  func value(anyOf keys: [String]) -> JSONValue? {
    for key in keys {
      if let value = value(key) { return value }
    }
    return nil
  }

  /// A string or number as text (see ``JSONValue/text``); `nil` for anything else.
  package func text(_ key: String) -> String? {
    value(key)?.text
  }

  /// A string or number as text; `nil` when missing or `null`.
  ///
  /// - Throws: ``PushParseError/invalidField(_:reason:)`` for a boolean, array or object.
  func requiredText(_ key: String) throws(PushParseError) -> String? {
    guard let value = value(key) else { return nil }
    guard let text = value.text else { throw .invalidField(key, reason: "it must be a string") }
    return text
  }

  /// A boolean: `true`/`false`, the numbers `1`/`0`, or the strings `"true"`, `"false"`,
  /// `"1"`, `"0"`, `"yes"`, `"no"` in any case with surrounding spaces.
  ///
  /// - Returns: `nil` when the key is missing or `null`.
  /// - Throws: ``PushParseError/invalidField(_:reason:)`` for any other value.
  func bool(_ key: String) throws(PushParseError) -> Bool? {
    switch value(key) {
    case nil, .null?: return nil
    case .bool(let bool)?: return bool
    case .number(_, let integer?, _)? where integer == 0 || integer == 1: return integer == 1
    case .string(let text)?:
      switch text.trimmingCharacters(in: .whitespaces).lowercased() {
      case "true", "1", "yes": return true
      case "false", "0", "no": return false
      default: throw .invalidField(key, reason: "\"\(text.prefix(20))\" is not a boolean")
      }
    case .number?, .array?, .object?:
      throw .invalidField(key, reason: "it is not a boolean")
    }
  }
}
