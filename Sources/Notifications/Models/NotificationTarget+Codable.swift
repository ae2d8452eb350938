/// A target is an object with a `kind` and the ids that kind needs:
///
/// ```json
/// {"kind":"none"}
/// {"kind":"contact","contactId":"c1"}
/// {"kind":"alert","alertId":"a1"}
/// {"kind":"ping","pingId":"p1","contactId":"c1"}
/// ```
///
/// Decoding reads a missing or unknown `kind` as `none` (a newer server's new screens are not
/// an error), but a known kind must carry its ids.
extension NotificationTarget: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, contactId, alertId, pingId
  }

  /// Decodes the shape above.
  ///
  /// ```swift
  /// let json = Data(#"{"kind":"alert","alertId":"a1"}"#.utf8)
  /// try JSONDecoder().decode(NotificationTarget.self, from: json)   // .alert(alertID: "a1")
  /// ```
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decodeIfPresent(String.self, forKey: .kind) {
    case "contact":
      self = .contact(contactID: try container.decode(String.self, forKey: .contactId))
    case "alert":
      self = .alert(alertID: try container.decode(String.self, forKey: .alertId))
    case "ping":
      self = .ping(
        pingID: try container.decode(String.self, forKey: .pingId),
        contactID: try container.decode(String.self, forKey: .contactId))
    default:
      self = .none
    }
  }

  /// Encodes the shape above, always with a `kind`.
  ///
  /// ```swift
  /// try JSONEncoder().encode(NotificationTarget.contact(contactID: "c1"))
  /// // {"kind":"contact","contactId":"c1"}
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .none:
      try container.encode("none", forKey: .kind)
    case .contact(let contactID):
      try container.encode("contact", forKey: .kind)
      try container.encode(contactID, forKey: .contactId)
    case .alert(let alertID):
      try container.encode("alert", forKey: .kind)
      try container.encode(alertID, forKey: .alertId)
    case .ping(let pingID, let contactID):
      try container.encode("ping", forKey: .kind)
      try container.encode(pingID, forKey: .pingId)
      try container.encode(contactID, forKey: .contactId)
    }
  }
}
