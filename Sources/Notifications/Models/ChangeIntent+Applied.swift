import Foundation

extension ChangeIntent {
  /// `notification` as the backend has it once the change is applied, or `nil` when the change
  /// deletes it.
  func applied(to notification: NotificationData) -> NotificationData? {
    var notification = notification
    switch self {
    case .markAsRead(let id) where id == notification.id: notification.isRead = true
    case .markAsUnread(let id) where id == notification.id: notification.isRead = false
    case .markAllAsRead(let ids) where ids?.contains(notification.id) ?? true:
      notification.isRead = true
    case .delete, .deleteAll: if deletes(notification) { return nil }
    default: break
    }
    return notification
  }

  /// Whether the change deletes `notification` on the backend. Local notices are never on it.
  func deletes(_ notification: NotificationData) -> Bool {
    switch self {
    case .delete(let id): id == notification.id
    case .deleteAll(let bound): !notification.isLocal && (bound?.covers(notification) ?? true)
    case .markAsRead, .markAsUnread, .markAllAsRead: false
    }
  }
}
