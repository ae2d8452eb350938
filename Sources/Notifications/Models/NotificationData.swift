import Foundation

/// One notification in the feed: what happened, when, and which screen it opens.
///
/// ```swift
/// let notification = NotificationData(
///   id: "n1", type: .ping, title: "Ping", message: "Ada pinged you",
///   timestamp: Date(timeIntervalSince1970: 1_700_000_000),
///   target: .ping(pingID: "p1", contactID: "c1")
/// )
/// ```
///
/// Its JSON shape, shared by the HTTP API and the inbox file, is written out in
/// `NotificationData+Codable.swift`.
public struct NotificationData: Identifiable, Sendable, Hashable {
  /// The backend's identifier, unique in the feed.
  ///
  /// ```swift
  /// feed[id: notification.id]
  /// ```
  public var id: String

  /// What the notification is about; it picks the icon, the colour and the target kind.
  ///
  /// ```swift
  /// notification.type.symbolName   // "bell.badge.fill" for a ping
  /// ```
  public var type: NotificationType

  /// A short headline.
  ///
  /// ```swift
  /// Text(notification.title)
  /// ```
  public var title: String

  /// The body text; may be empty.
  ///
  /// ```swift
  /// Text(notification.message)
  /// ```
  public var message: String

  /// When the notification was created.
  ///
  /// ```swift
  /// notification.timestamp.formatted(.relative(presentation: .named))
  /// ```
  public var timestamp: Date

  /// Whether the person has seen it.
  ///
  /// ```swift
  /// let unread = feed.filter { !$0.isRead }.count
  /// ```
  public var isRead: Bool

  /// The screen a tap opens.
  ///
  /// ```swift
  /// if case .contact(let contactID) = notification.target { open(contactID) }
  /// ```
  public var target: NotificationTarget

  /// Extra, typed information for the target's screen, if the backend sent any.
  ///
  /// ```swift
  /// if case .contact(let contact)? = notification.details { print(contact.name) }
  /// ```
  public var details: NotificationDetails?

  /// Groups related notifications (the APNs `thread-id`); `nil` for none.
  ///
  /// ```swift
  /// let threads = Dictionary(grouping: feed, by: \.threadID)
  /// ```
  public var threadID: String?

  /// How insistently the notification is presented.
  ///
  /// ```swift
  /// if notification.priority == .silent { return }   // no banner
  /// ```
  public var priority: NotificationPriority

  /// A notice kept on the device only: it is never sent to the backend.
  ///
  /// ```swift
  /// let syncable = feed.filter { !$0.isLocal }
  /// ```
  public var isLocal: Bool

  /// The cursor of the backend's last change to the notification (see ``ChangeCursor``): of
  /// two copies of one notification, the one with the later version is newer. `nil` when the
  /// backend does not say (a notification it was given and never changed, an older backend, a
  /// local notice).
  ///
  /// ```swift
  /// if incoming.version ?? .zero >= shown.version ?? .zero { shown = incoming }
  /// ```
  public var version: ChangeCursor?

  /// Creates a notification; everything after `timestamp` has a default.
  ///
  /// ```swift
  /// let notice = NotificationData(
  ///   id: "local-1", type: .system, title: "Saved", message: "", timestamp: .now,
  ///   priority: .silent, isLocal: true)
  /// ```
  ///
  /// - Parameters:
  ///   - isRead: Defaults to unread.
  ///   - target: Defaults to ``NotificationTarget/none``.
  ///   - details: Defaults to none.
  ///   - threadID: Defaults to no thread.
  ///   - priority: Defaults to ``NotificationPriority/regular``.
  ///   - isLocal: Defaults to `false`, a notification from the backend.
  ///   - version: Defaults to `nil`, unknown.
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
    isLocal: Bool = false,
    version: ChangeCursor? = nil
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
    self.version = version
  }
}

extension NotificationData {
  /// The feed order: newest first, ties broken by id so the order is total and stable.
  ///
  /// ```swift
  /// let feed = notifications.sorted(by: NotificationData.isOrderedBefore)
  /// ```
  public static func isOrderedBefore(_ lhs: Self, _ rhs: Self) -> Bool {
    if lhs.timestamp != rhs.timestamp { return lhs.timestamp > rhs.timestamp }
    return lhs.id < rhs.id
  }
}
