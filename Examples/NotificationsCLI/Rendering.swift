import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import AppShell
import Notifications

/// Turns state into terminal output.
struct Renderer {
  var useColor: Bool
  var now: Date

  init(
    now: Date = Date(), environment: [String: String] = ProcessInfo.processInfo.environment,
    isTerminal: Bool = isatty(STDOUT_FILENO) == 1
  ) {
    self.now = now
    self.useColor = Self.usesColor(environment: environment, isTerminal: isTerminal)
  }

  /// Colour only on a terminal, and not when `NO_COLOR` is set to something (an empty
  /// `NO_COLOR` does not count, as no-color.org says) or the terminal is `dumb`.
  static func usesColor(environment: [String: String], isTerminal: Bool) -> Bool {
    isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  /// `items` joined with commas, the first `limit` of them and how many more.
  /// An id as a message names it: as it is, or quoted when a reader could not see where it
  /// begins or ends (empty, blank, or with spaces at an end).
  static func id(_ id: String) -> String {
    let isPlain =
      !id.isEmpty && id.first?.isWhitespace == false && id.last?.isWhitespace == false
      && !id.contains(where: { $0.isNewline || $0 == "\"" })
    return isPlain ? id : String(reflecting: id)
  }

  static func list(_ items: [String], limit: Int) -> String {
    guard items.count > limit else { return items.joined(separator: ", ") }
    return items.prefix(limit).joined(separator: ", ") + " and \(items.count - limit) more"
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
      let glyph = paint(
        glyph(for: notification.type), notification.type.colorRole == .critical ? "31" : "36")
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
    let heading = [notification.title, notification.message].filter { !$0.isEmpty }
    return """
      \(heading.joined(separator: "\n"))

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

  /// The screen the app shell pushed: "ping p1 of contact c1".
  static func screen(_ screen: DetailFeature.State) -> String {
    switch screen {
    case .contact(let contactID): "contact \(contactID)"
    case .alert(let alertID): "alert \(alertID)"
    case .ping(let pingID, let contactID): "ping \(pingID) of contact \(contactID)"
    }
  }

  func describe(_ entity: NotificationFeature.Entity) -> String {
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
    let text = String(decoding: data, as: UTF8.self)
    // Foundation on Linux pretty-prints an empty array as "[\n\n]".
    return text.filter { !$0.isWhitespace } == "[]" ? "[]" : text
  }
}
