import Foundation

/// One notification in the feed.
///
/// ```swift
/// let notification = NotificationData(
///   id: "n1", type: .ping, title: "Ping", message: "Ada pinged you",
///   timestamp: Date(timeIntervalSince1970: 1_700_000_000),
///   target: .ping(pingID: "p1", contactID: "c1")
/// )
/// ```
public struct NotificationData: Identifiable, Sendable, Hashable {
  public var id: String
  public var type: NotificationType
  public var title: String
  public var message: String
  public var timestamp: Date
  public var isRead: Bool
  public var target: NotificationTarget
  public var details: NotificationDetails?
  public var threadID: String?
  public var priority: NotificationPriority
  /// A notice kept on the device only (never sent to the backend).
  public var isLocal: Bool

  public init(
    id: String,
    type: NotificationType,
    title: String,
    message: String,
    timestamp: Date,
    isRead: Bool = false,
    target: NotificationTarget = .none,
    details: NotificationDetails? = nil,
    threadID: String? = nil,
    priority: NotificationPriority = .regular,
    isLocal: Bool = false
  ) {
    self.id = id
    self.type = type
    self.title = title
    self.message = message
    self.timestamp = timestamp
    self.isRead = isRead
    self.target = target
    self.details = details
    self.threadID = threadID
    self.priority = priority
    self.isLocal = isLocal
  }
}

extension NotificationData {
  /// Newest first; ties broken by id so the order is total and stable.
  public static func isOrderedBefore(_ lhs: Self, _ rhs: Self) -> Bool {
    if lhs.timestamp != rhs.timestamp { return lhs.timestamp > rhs.timestamp }
    return lhs.id < rhs.id
  }
}
