import Foundation
import Loom

extension NotificationFeature {
  /// The state of the live-updates connection.
  public enum ConnectionState: Sendable, Hashable {
    case connecting
    case live
    case reconnecting(attempt: Int)
    case offline
  }

  /// Something notifications are about, which a shell shows as a row.
  ///
  /// ```swift
  /// NotificationFeature.Entity.contact("c1").matches(.ping(pingID: "p1", contactID: "c1"))   // true
  /// ```
  public enum Entity: Sendable, Hashable {
    case contact(String)
    case alert(String)
    case ping(String)

    /// Whether `target` is about this entity (a ping is about its contact too).
    public func matches(_ target: NotificationTarget) -> Bool {
      switch (self, target) {
      case (.contact(let id), .contact(let contactID)): id == contactID
      case (.contact(let id), .ping(_, let contactID)): id == contactID
      case (.alert(let id), .alert(let alertID)): id == alertID
      case (.ping(let id), .ping(let pingID, _)): id == pingID
      default: false
      }
    }
  }

  /// A group of the list by day.
  public struct DaySection: Sendable, Hashable {
    public enum Day: Sendable, Hashable { case today, yesterday, earlier }
    public var day: Day
    public var notifications: [NotificationData]
  }

  /// What a tap did.
  public enum TapOutcome: Sendable, Hashable {
    case navigated(id: String)
    /// The notification has no screen to open.
    case nothingToOpen(id: String)
    /// No notification has this id.
    case notFound(id: String)
  }

  /// How a shell's foreground-presentation hook should present a push.
  public struct BannerOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let banner = BannerOptions(rawValue: 1 << 0)
    public static let sound = BannerOptions(rawValue: 1 << 1)
    public static let badge = BannerOptions(rawValue: 1 << 2)
  }

  /// The saved filter choice.
  public struct SavedFilter: Sendable, Hashable, Codable {
    public var filter: NotificationFilter
    public var unreadOnly: Bool

    public init(filter: NotificationFilter, unreadOnly: Bool) {
      self.filter = filter
      self.unreadOnly = unreadOnly
    }
  }

  /// The settings keys the feature uses.
  public enum SettingsKey {
    public static let filter = "notifications.filter"
    /// An earlier version's outbox (``SavedOutbox``), moved into the change log by the first
    /// launch that finds it.
    public static let outbox = "notifications.outbox"
    /// An earlier version's pushes the backend's feed had not listed, and its local notices
    /// (``SavedPushes``), moved into the change log by the first launch that finds them.
    public static let pushes = "notifications.pushes"
  }

  /// Exponential backoff with jitter: 2^attempt seconds (at most 60), times 0.5 to 1, the
  /// jitter drawn from `random`. The live stream's reconnects, the first page's retries and
  /// the push registration's retries use it.
  static func backoff(attempt: Int, random: WithRandomNumberGenerator) -> Duration {
    let base = min(60.0, pow(2.0, Double(attempt)))
    let jitter = random { Double.random(in: 0.5..<1.0, using: &$0) }
    return .milliseconds(Int((base * jitter * 1_000).rounded()))
  }
}
