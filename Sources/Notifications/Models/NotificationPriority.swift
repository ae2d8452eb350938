/// How insistently a notification is presented. Ordered: `silent < regular < high`.
///
/// ```swift
/// NotificationPriority.high > .regular                 // true
/// NotificationPriority(rawValue: "silent")             // .silent
/// ```
///
/// Its JSON form is the raw string (`"silent"`, `"regular"`, `"high"`).
public enum NotificationPriority: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
  /// A quiet confirmation (such as "Message sent"): never announced as a banner.
  case silent
  /// The default.
  case regular
  /// Announced even when its type is muted, unless it is a system notification.
  case high

  private var rank: Int {
    switch self {
    case .silent: 0
    case .regular: 1
    case .high: 2
    }
  }

  /// Orders by insistence.
  ///
  /// ```swift
  /// let loudest = feed.map(\.priority).max()
  /// ```
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
