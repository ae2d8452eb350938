import Foundation

/// Shared helpers of the model tests: JSON text in and out, keys sorted so it can be compared
/// exactly.
enum ModelJSON {
  /// `value` as compact JSON text with sorted keys.
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Decodes `json` as a `T`.
  static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.utf8))
  }
}
