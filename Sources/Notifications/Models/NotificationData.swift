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
///
/// A value type like any other. Its fields that hold references of their own (the texts, the
/// type, the target, the details, the thread) are kept in one box that copies share until one
/// of them is written, so a copy retains two references, not ten: a `markAsRead` copied a
/// notification ~40 times, and those copies cost more than the rest of the feature's reducer.
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
  public var type: NotificationType {
    get { content.fields.type }
    _modify {
      makeContentUnique()
      yield &content.fields.type
    }
  }

  /// A short headline.
  ///
  /// ```swift
  /// Text(notification.title)
  /// ```
  public var title: String {
    get { content.fields.title }
    _modify {
      makeContentUnique()
      yield &content.fields.title
    }
  }

  /// The body text; may be empty.
  ///
  /// ```swift
  /// Text(notification.message)
  /// ```
  public var message: String {
    get { content.fields.message }
    _modify {
      makeContentUnique()
      yield &content.fields.message
    }
  }

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
  public var target: NotificationTarget {
    get { content.fields.target }
    _modify {
      makeContentUnique()
      yield &content.fields.target
    }
  }

  /// Extra, typed information for the target's screen, if the backend sent any.
  ///
  /// ```swift
  /// if case .contact(let contact)? = notification.details { print(contact.name) }
  /// ```
  public var details: NotificationDetails? {
    get { content.fields.details }
    _modify {
      makeContentUnique()
      yield &content.fields.details
    }
  }

  /// Groups related notifications (the APNs `thread-id`); `nil` for none.
  ///
  /// ```swift
  /// let threads = Dictionary(grouping: feed, by: \.threadID)
  /// ```
  public var threadID: String? {
    get { content.fields.threadID }
    _modify {
      makeContentUnique()
      yield &content.fields.threadID
    }
  }

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

  /// The fields with references of their own, shared by copies until one is written.
  private var content: Content

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
    self.timestamp = timestamp
    self.isRead = isRead
    self.priority = priority
    self.isLocal = isLocal
    self.version = version
    content = Content(
      Content.Fields(
        type: type, title: title, message: message, target: target, details: details,
        threadID: threadID))
  }

  /// Gives this value a box of its own before one of the boxed fields is written.
  private mutating func makeContentUnique() {
    if !isKnownUniquelyReferenced(&content) { content = Content(content.fields) }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.timestamp == rhs.timestamp && lhs.isRead == rhs.isRead
      && lhs.priority == rhs.priority && lhs.isLocal == rhs.isLocal && lhs.version == rhs.version
      && (lhs.content === rhs.content || lhs.content.fields == rhs.content.fields)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(timestamp)
    hasher.combine(isRead)
    hasher.combine(priority)
    hasher.combine(isLocal)
    hasher.combine(version)
    hasher.combine(content.fields)
  }
}

extension NotificationData {
  /// The box of a notification's fields that hold references of their own.
  private final class Content: @unchecked Sendable {
    // Safe to send where the notification is: a box is written only through
    // `NotificationData`'s accessors, after `makeContentUnique` made it the only value's that
    // holds it (so no other thread can be reading it); once shared, a box is never written
    // again, as with an array's storage. No access overlaps another either (the value that
    // writes is held `inout`), so the run-time exclusivity check would only cost.
    @exclusivity(unchecked) var fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }

    struct Fields: Hashable, Sendable {
      var type: NotificationType
      var title: String
      var message: String
      var target: NotificationTarget
      var details: NotificationDetails?
      var threadID: String?
    }
  }
}

extension NotificationData: CustomReflectable {
  /// Its fields, as a struct's are reflected (dumps and test failures show them, not the box).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "id": id, "type": type, "title": title, "message": message, "timestamp": timestamp,
        "isRead": isRead, "target": target, "details": details as Any, "threadID": threadID as Any,
        "priority": priority, "isLocal": isLocal, "version": version as Any,
      ],
      displayStyle: .struct)
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
