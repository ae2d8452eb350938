/// What a notification is about. Unknown server types decode to ``unknown(_:)`` so a newer
/// server never breaks an older client.
///
/// ```swift
/// NotificationType(rawValue: "check_in")   // .checkIn
/// NotificationType(rawValue: "poll")       // .unknown("poll")
/// ```
public enum NotificationType: Sendable, Hashable, Codable, CustomStringConvertible {
  case alert, ping, role, removed, added, checkIn, system
  case unknown(String)

  /// The known types, in display order.
  public static let knownCases: [NotificationType] = [
    .alert, .ping, .role, .added, .removed, .checkIn, .system,
  ]

  /// Creates a type from its wire form (`"check_in"`; `"checkIn"` is accepted too).
  public init(rawValue: String) {
    switch rawValue {
    case "alert": self = .alert
    case "ping": self = .ping
    case "role": self = .role
    case "removed": self = .removed
    case "added": self = .added
    case "check_in", "checkIn": self = .checkIn
    case "system": self = .system
    default: self = .unknown(rawValue)
    }
  }

  /// The wire form of the type.
  public var rawValue: String {
    switch self {
    case .alert: "alert"
    case .ping: "ping"
    case .role: "role"
    case .removed: "removed"
    case .added: "added"
    case .checkIn: "check_in"
    case .system: "system"
    case .unknown(let raw): raw
    }
  }

  /// The SF Symbol a shell shows for the type.
  public var symbolName: String {
    switch self {
    case .alert: "exclamationmark.triangle.fill"
    case .ping: "bell.badge.fill"
    case .role: "person.badge.key.fill"
    case .added: "person.badge.plus"
    case .removed: "person.badge.minus"
    case .checkIn: "checkmark.circle.fill"
    case .system: "info.circle.fill"
    case .unknown: "bell"
    }
  }

  /// The colour role a shell renders the type with.
  public var colorRole: ColorRole {
    switch self {
    case .alert: .critical
    case .ping: .accent
    case .role: .info
    case .added, .checkIn: .positive
    case .removed: .warning
    case .system, .unknown: .neutral
    }
  }

  /// A name a person can read.
  public var displayName: String {
    switch self {
    case .alert: "Alert"
    case .ping: "Ping"
    case .role: "Role changed"
    case .added: "Added"
    case .removed: "Removed"
    case .checkIn: "Check-in"
    case .system: "System"
    case .unknown(let raw): raw.isEmpty ? "Notification" : raw
    }
  }

  public var description: String { rawValue }

  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// The colour roles shells map to their palette.
public enum ColorRole: String, Sendable, Hashable, Codable {
  case critical, accent, info, positive, warning, neutral
}
