/// Details are an object with a `kind` discriminator and the case's fields under `value`
/// (optional fields that are `nil` are left out):
///
/// ```json
/// {"kind":"contact","value":{"name":"Ada","role":"Admin","action":"added"}}
/// {"kind":"alert","value":{"severity":"high","location":"Gate 4"}}
/// {"kind":"ping","value":{"contactName":"Ada","note":"Call me"}}
/// ```
///
/// An unknown `kind` is a decoding error.
extension NotificationDetails: Codable {
  private enum CodingKeys: String, CodingKey { case kind, value }

  /// Decodes the shape above.
  ///
  /// ```swift
  /// let json = Data(#"{"kind":"ping","value":{"note":"Hi"}}"#.utf8)
  /// try JSONDecoder().decode(NotificationDetails.self, from: json)   // .ping(.init(note: "Hi"))
  /// ```
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "contact": self = .contact(try container.decode(ContactDetails.self, forKey: .value))
    case "alert": self = .alert(try container.decode(AlertDetails.self, forKey: .value))
    case "ping": self = .ping(try container.decode(PingDetails.self, forKey: .value))
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "Unknown details kind \"\(kind.prefix(40))\"")
    }
  }

  /// Encodes the shape above.
  ///
  /// ```swift
  /// try JSONEncoder().encode(NotificationDetails.alert(.init(severity: "high")))
  /// // {"kind":"alert","value":{"severity":"high"}}
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .contact(let value):
      try container.encode("contact", forKey: .kind)
      try container.encode(value, forKey: .value)
    case .alert(let value):
      try container.encode("alert", forKey: .kind)
      try container.encode(value, forKey: .value)
    case .ping(let value):
      try container.encode("ping", forKey: .kind)
      try container.encode(value, forKey: .value)
    }
  }
}
