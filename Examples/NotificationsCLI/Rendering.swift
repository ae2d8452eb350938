import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import AppShell
import NotificationFeature

/// Turns state into terminal output.
struct Renderer {
  var useColor: Bool
  var now: Date

  init(now: Date = Date(), environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.now = now
    self.useColor = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil
  }

  func glyph(for type: NotificationType) -> String {
    switch type {
    case .alert: "!"
    case .ping: "@"
    case .role: "R"
    case .added: "+"
    case .removed: "-"
    case .checkIn: "✓"
    case .system: "i"
    case .unknown: "?"
    }
  }

  func relative(_ date: Date) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    switch seconds {
    case ..<60: return "now"
    case ..<3_600: return "\(seconds / 60)m ago"
    case ..<86_400: return "\(seconds / 3_600)h ago"
    default: return "\(seconds / 86_400)d ago"
    }
  }

  func paint(_ text: String, _ code: String) -> String {
    useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func table(_ notifications: some Collection<NotificationData>) -> String {
    guard !notifications.isEmpty else { return "No notifications." }
    return notifications.map { notification in
      let dot = notification.isRead ? " " : paint("●", "34")
      let priority = notification.priority == .high ? paint("!!", "31") : "  "
      let glyph = paint(glyph(for: notification.type), notification.type.colorRole == .critical ? "31" : "36")
      let time = relative(notification.timestamp).padding(toLength: 7, withPad: " ", startingAt: 0)
      let local = notification.isLocal ? "  (local)" : ""
      return "\(dot) \(priority) \(glyph) \(time) \(notification.id)  \(notification.title)\(local)"
    }.joined(separator: "\n")
  }

  /// The banner the shell shows, on one line.
  func banner(_ banner: AppFeature.Banner) -> String {
    "\(banner.notification.title) — \(banner.notification.message)"
  }

  func detail(_ notification: NotificationData) -> String {
    """
    \(notification.title)
    \(notification.message)

    id:        \(notification.id)
    type:      \(notification.type.displayName)
    received:  \(relative(notification.timestamp))
    read:      \(notification.isRead ? "yes" : "no")
    priority:  \(notification.priority.rawValue)
    opens:     \(describe(notification.target))
    """
  }

  func describe(_ target: NotificationTarget) -> String {
    switch target {
    case .none: "nothing"
    case .contact(let contactID): "contact \(contactID)"
    case .alert(let alertID): "alert \(alertID)"
    case .ping(let pingID, let contactID): "ping \(pingID) of contact \(contactID)"
    }
  }

  func describe(_ entity: NotificationsFeature.Entity) -> String {
    switch entity {
    case .contact(let id): "contact \(id)"
    case .alert(let id): "alert \(id)"
    case .ping(let id): "ping \(id)"
    }
  }

  static func json<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let data = try? encoder.encode(value) else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }
}
