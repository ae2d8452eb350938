/// Extra, typed information a notification may carry for its screen.
///
/// ```swift
/// let details = NotificationDetails.contact(.init(name: "Ada", role: "Admin", action: "added"))
/// ```
public enum NotificationDetails: Sendable, Hashable {
  /// About a contact.
  case contact(ContactDetails)
  /// About an alert.
  case alert(AlertDetails)
  /// About a ping.
  case ping(PingDetails)

  /// About a contact: who, their role, and what happened.
  ///
  /// ```swift
  /// NotificationDetails.ContactDetails(name: "Ada", role: "Admin", action: "added")
  /// ```
  public struct ContactDetails: Sendable, Hashable, Codable {
    /// The contact's name as shown.
    public var name: String
    /// Their role, if the notification is about one.
    public var role: String?
    /// What happened, such as `"added"`.
    public var action: String?

    /// Creates contact details.
    ///
    /// ```swift
    /// let ada = NotificationDetails.ContactDetails(name: "Ada")
    /// ```
    public init(name: String, role: String? = nil, action: String? = nil) {
      self.name = name
      self.role = role
      self.action = action
    }
  }

  /// About an alert: how severe, and where.
  ///
  /// ```swift
  /// NotificationDetails.AlertDetails(severity: "high", location: "Gate 4")
  /// ```
  public struct AlertDetails: Sendable, Hashable, Codable {
    /// How severe, in the backend's words.
    public var severity: String?
    /// Where it happened.
    public var location: String?

    /// Creates alert details.
    ///
    /// ```swift
    /// let details = NotificationDetails.AlertDetails(severity: "low")
    /// ```
    public init(severity: String? = nil, location: String? = nil) {
      self.severity = severity
      self.location = location
    }
  }

  /// About a ping: who sent it and their note.
  ///
  /// ```swift
  /// NotificationDetails.PingDetails(contactName: "Ada", note: "Call me")
  /// ```
  public struct PingDetails: Sendable, Hashable, Codable {
    /// The sender's name.
    public var contactName: String?
    /// The sender's note.
    public var note: String?

    /// Creates ping details.
    ///
    /// ```swift
    /// let details = NotificationDetails.PingDetails(note: "Call me")
    /// ```
    public init(contactName: String? = nil, note: String? = nil) {
      self.contactName = contactName
      self.note = note
    }
  }
}
