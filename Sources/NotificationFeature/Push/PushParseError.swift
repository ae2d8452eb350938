/// Why a push payload could not become a notification.
///
/// ```swift
/// PushParseError.missingField("id").description   // "The push payload has no \"id\"."
/// ```
public enum PushParseError: Error, Sendable, Hashable, CustomStringConvertible {
  case tooLarge(byteCount: Int, limit: Int)
  case notJSON
  case notAnObject
  case missingField(String)
  case invalidField(String, reason: String)

  public var description: String {
    switch self {
    case .tooLarge(let byteCount, let limit):
      "The push payload is \(byteCount) bytes; the limit is \(limit)."
    case .notJSON: "The push payload is not valid JSON."
    case .notAnObject: "The push payload is not a JSON object."
    case .missingField(let field): "The push payload has no \"\(field)\"."
    case .invalidField(let field, let reason): "The push payload's \"\(field)\" is invalid: \(reason)."
    }
  }
}
