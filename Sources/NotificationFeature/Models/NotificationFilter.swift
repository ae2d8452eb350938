/// Which notifications the list shows: all of them, or one type.
///
/// ```swift
/// NotificationFilter.type(.alert).matches(notification)
/// ```
public enum NotificationFilter: Sendable, Hashable, Codable {
  case all
  case type(NotificationType)

  /// Whether `notification` passes the filter.
  public func matches(_ notification: NotificationData) -> Bool {
    switch self {
    case .all: true
    case .type(let type): notification.type == type
    }
  }
}
