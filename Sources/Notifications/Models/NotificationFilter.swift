/// Which notifications the list shows: all of them, or those of one type.
///
/// ```swift
/// let visible = feed.filter(NotificationFilter.type(.alert).matches)
/// ```
public enum NotificationFilter: Sendable, Hashable {
  /// Every notification.
  case all
  /// Only notifications of this type (an ``NotificationType/unknown(_:)`` type matches the
  /// same raw string).
  case type(NotificationType)

  /// Whether `notification` passes the filter.
  ///
  /// ```swift
  /// NotificationFilter.type(.ping).matches(notification)
  /// ```
  ///
  /// - Complexity: O(1) for known types; O(*n*) in the raw string's length for unknown ones.
  public func matches(_ notification: NotificationData) -> Bool {
    switch self {
    case .all: true
    case .type(let type): notification.type == type
    }
  }
}
