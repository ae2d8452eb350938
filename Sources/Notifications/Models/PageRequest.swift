import Foundation

/// Which page of the feed to fetch: the first, or the one after a page's `nextCursor`.
///
/// A cursor names the last notification of the page before (its timestamp and id), never an
/// offset: the next page starts right after that notification, so one inserted or deleted
/// meanwhile moves no other between pages.
///
/// ```swift
/// let first = PageRequest(limit: 50)
/// let next = PageRequest(limit: 50, cursor: page.nextCursor)
/// let unreadAlerts = PageRequest(limit: 50, filter: .type(.alert), unreadOnly: true)
/// ```
///
/// A filtered request pages through the notifications that pass it alone, in the feed's
/// order: its cursors name the last of them listed, and it costs what its page holds, however
/// many notifications do not pass.
public struct PageRequest: Sendable, Hashable, Codable {
  /// How many notifications the page holds at most.
  public var limit: Int
  /// The `nextCursor` of the page before; `nil` for the first page.
  public var cursor: String?
  /// Only the notifications `filter` passes; ``NotificationFilter/all`` (the default) for every
  /// one.
  public var filter: NotificationFilter
  /// Only the unread notifications (`false`, the default, for read and unread ones).
  public var unreadOnly: Bool

  public init(
    limit: Int, cursor: String? = nil, filter: NotificationFilter = .all, unreadOnly: Bool = false
  ) {
    self.limit = limit
    self.cursor = cursor
    self.filter = filter
    self.unreadOnly = unreadOnly
  }

  /// Whether `notification` is one the request pages through.
  public func passes(_ notification: NotificationData) -> Bool {
    filter.matches(notification) && !(unreadOnly && notification.isRead)
  }
}
