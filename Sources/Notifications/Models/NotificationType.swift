/// What a notification is about. Unknown server types become ``unknown(_:)`` and keep their
/// raw string, so a newer server never breaks an older client and nothing is lost on the way
/// back.
///
/// ```swift
/// NotificationType(rawValue: "check_in")   // .checkIn
/// NotificationType(rawValue: "poll")       // .unknown("poll")
/// NotificationType.ping.symbolName         // "bell.badge.fill"
/// ```
///
/// | Type | Wire form | Symbol | Colour role |
/// |---|---|---|---|
/// | `alert` | `alert` | `exclamationmark.triangle.fill` | critical |
/// | `ping` | `ping` | `bell.badge.fill` | accent |
/// | `role` | `role` | `person.badge.key.fill` | info |
/// | `added` | `added` | `person.badge.plus` | positive |
/// | `removed` | `removed` | `person.badge.minus` | warning |
/// | `checkIn` | `check_in` (`checkIn` is read too) | `checkmark.circle.fill` | positive |
/// | `system` | `system` | `info.circle.fill` | neutral |
/// | `unknown` | its raw string | `bell` | neutral |
public enum NotificationType: Sendable, Hashable, CustomStringConvertible {
  /// An alert raised about something that needs attention.
  case alert
  /// Someone pinged the person.
  case ping
  /// A contact's role changed.
  case role
  /// A contact was removed.
  case removed
  /// A contact was added.
  case added
  /// A contact checked in.
  case checkIn
  /// A message from the system itself; the type of a payload that names none.
  case system
  /// A type this client does not know, with its wire form kept as is.
  case unknown(String)

  /// The known types, in display order (for a filter menu, say).
  ///
  /// ```swift
  /// let menu = [NotificationFilter.all] + NotificationType.knownCases.map { .type($0) }
  /// ```
  public static let knownCases: [NotificationType] = [
    .alert, .ping, .role, .added, .removed, .checkIn, .system,
  ]

  /// Creates a type from its wire form; `"checkIn"` is accepted as well as `"check_in"`, and
  /// anything else (including other spellings or case) is ``unknown(_:)``.
  ///
  /// ```swift
  /// NotificationType(rawValue: "alert")   // .alert
  /// NotificationType(rawValue: "Alert")   // .unknown("Alert")
  /// ```
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

  /// The wire form of the type; an unknown type gives back its raw string.
  ///
  /// ```swift
  /// NotificationType.checkIn.rawValue         // "check_in"
  /// NotificationType.unknown("poll").rawValue // "poll"
  /// ```
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
  ///
  /// ```swift
  /// Image(systemName: notification.type.symbolName)
  /// ```
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
  ///
  /// ```swift
  /// NotificationType.alert.colorRole   // .critical
  /// ```
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

  /// A name a person can read; an unknown type shows its raw string (or "Notification" when
  /// that is empty).
  ///
  /// ```swift
  /// NotificationType.checkIn.displayName   // "Check-in"
  /// ```
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

  /// The wire form, for logs.
  ///
  /// ```swift
  /// print(NotificationType.checkIn)   // check_in
  /// ```
  public var description: String { rawValue }
}
