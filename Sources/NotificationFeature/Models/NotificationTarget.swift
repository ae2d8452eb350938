/// The screen a notification opens when tapped.
///
/// ```swift
/// let target = NotificationTarget.ping(pingID: "p1", contactID: "c1")
/// ```
public enum NotificationTarget: Sendable, Hashable, Codable {
  case none
  case contact(contactID: String)
  case alert(alertID: String)
  case ping(pingID: String, contactID: String)

  private enum CodingKeys: String, CodingKey {
    case kind, contactId, alertId, pingId
  }

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
