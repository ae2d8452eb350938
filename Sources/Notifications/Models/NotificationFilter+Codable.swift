/// A filter is saved as `{"kind":"all"}` or `{"kind":"type","type":"check_in"}`.
///
/// Decoding also reads the shape Swift synthesized before this was written out
/// (`{"all":{}}`, `{"type":{"_0":"ping"}}`), so a filter saved by an older build restores.
extension NotificationFilter: Codable {
  private enum CodingKeys: String, CodingKey { case kind, type, all }
  private enum LegacyTypeKeys: String, CodingKey { case value = "_0" }

  /// Decodes the shape above.
  ///
  /// ```swift
  /// let json = Data(#"{"kind":"type","type":"alert"}"#.utf8)
  /// try JSONDecoder().decode(NotificationFilter.self, from: json)   // .type(.alert)
  /// ```
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decodeIfPresent(String.self, forKey: .kind) {
    case "all"?:
      self = .all
    case "type"?:
      self = .type(try container.decode(NotificationType.self, forKey: .type))
    case let kind?:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "Unknown filter kind \"\(kind.prefix(40))\"")
    case nil:
      if container.contains(.all) {
        self = .all
      } else {
        let legacy = try container.nestedContainer(keyedBy: LegacyTypeKeys.self, forKey: .type)
        self = .type(try legacy.decode(NotificationType.self, forKey: .value))
      }
    }
  }

  /// Encodes the shape above.
  ///
  /// ```swift
  /// try JSONEncoder().encode(NotificationFilter.type(.checkIn))
  /// // {"kind":"type","type":"check_in"}
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .all:
      try container.encode("all", forKey: .kind)
    case .type(let type):
      try container.encode("type", forKey: .kind)
      try container.encode(type, forKey: .type)
    }
  }
}
