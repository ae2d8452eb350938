/// Extra, typed information a notification may carry for its screen.
///
/// ```swift
/// let details = NotificationDetails.contact(.init(name: "Ada", role: "Admin", action: "added"))
/// ```
public enum NotificationDetails: Sendable, Hashable, Codable {
  case contact(ContactDetails)
  case alert(AlertDetails)
  case ping(PingDetails)

  /// About a contact: who, their role, and what happened.
  public struct ContactDetails: Sendable, Hashable, Codable {
    public var name: String
    public var role: String?
    public var action: String?

    public init(name: String, role: String? = nil, action: String? = nil) {
      self.name = name
      self.role = role
      self.action = action
    }
  }

  /// About an alert.
  public struct AlertDetails: Sendable, Hashable, Codable {
    public var severity: String?
    public var location: String?

    public init(severity: String? = nil, location: String? = nil) {
      self.severity = severity
      self.location = location
    }
  }

  /// About a ping.
  public struct PingDetails: Sendable, Hashable, Codable {
    public var contactName: String?
    public var note: String?

    public init(contactName: String? = nil, note: String? = nil) {
      self.contactName = contactName
      self.note = note
    }
  }

  private enum CodingKeys: String, CodingKey { case kind, value }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "contact": self = .contact(try container.decode(ContactDetails.self, forKey: .value))
    case "alert": self = .alert(try container.decode(AlertDetails.self, forKey: .value))
    case "ping": self = .ping(try container.decode(PingDetails.self, forKey: .value))
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "Unknown details kind \"\(kind)\"")
    }
  }

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
