/// Why a push payload could not become a notification. Its ``description`` is a sentence that
/// names the field.
///
/// ```swift
/// PushParseError.missingField("id").description   // "The push payload has no \"id\"."
/// ```
public enum PushParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The payload is larger than ``PushPayloadParser/maximumSize``.
  case tooLarge(byteCount: Int, limit: Int)
  /// The bytes are not JSON (or not UTF-8).
  case notJSON
  /// The JSON nests values more than `limit` levels deep (the root being level 0). Real push
  /// payloads nest two or three levels; the limit keeps a hostile payload from exhausting the
  /// stack. Reported for any payload that deep, valid JSON or not.
  case nestedTooDeep(limit: Int)
  /// The JSON is an array, a string or another value instead of an object.
  case notAnObject
  /// A required field is missing, `null` or empty.
  case missingField(String)
  /// A field is present but unusable; `reason` says why. The field may be a path such as
  /// `aps.sound` when a `userInfo` value is not JSON.
  case invalidField(String, reason: String)

  /// A sentence for logs and diagnostics.
  ///
  /// ```swift
  /// logger.warning("Dropped a push: \(error)")
  /// ```
  public var description: String {
    switch self {
    case .tooLarge(let byteCount, let limit):
      "The push payload is \(byteCount) bytes; the limit is \(limit)."
    case .notJSON: "The push payload is not valid JSON."
    case .nestedTooDeep(let limit):
      "The push payload is nested too deep: more than \(limit) levels."
    case .notAnObject: "The push payload is not a JSON object."
    case .missingField(let field): "The push payload has no \"\(field)\"."
    case .invalidField(let field, let reason):
      "The push payload's \"\(field)\" is invalid: \(reason)."
    }
  }
}
