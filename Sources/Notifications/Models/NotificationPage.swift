import Foundation

/// One page of the feed, newest first, with the number of unread notifications the whole feed
/// holds.
///
/// ```swift
/// let page = try await client.fetchPage(PageRequest(limit: 50))
/// let unread = page.unreadTotal  // the whole feed's: 120, though the page holds 50
/// ```
public struct NotificationPage: Sendable, Hashable, Codable {
  public var items: [NotificationData]
  public var nextCursor: String?
  public var hasMore: Bool
  /// How many notifications of the whole feed are unread when the page is made, the ones on
  /// later pages included; `nil` when the backend does not say (a page encoded without it
  /// decodes as `nil`). The feature's unread count is this total, adjusted by the changes it
  /// has made that the backend has not confirmed yet; without it, the count is of the
  /// notifications loaded.
  public var unreadTotal: Int?
  /// The cursor of the newest change the page reflects: the backend's newest change cursor
  /// (the one ``NotificationEvent/cursor`` and ``NotificationClient/changesSince`` use) when
  /// it read the page. `nil` when the backend does not say (a page encoded without it decodes
  /// as `nil`).
  ///
  /// A first page replaces the list, so the feature catches up from here on its next
  /// (re)connect, and a catch-up asked for earlier skips the changes up to this one: a change
  /// the page already has is not applied twice.
  public var changeCursor: ChangeCursor?

  public init(
    items: [NotificationData], nextCursor: String? = nil, hasMore: Bool = false,
    unreadTotal: Int? = nil, changeCursor: ChangeCursor? = nil
  ) {
    self.items = items
    self.nextCursor = nextCursor
    self.hasMore = hasMore
    self.unreadTotal = unreadTotal
    self.changeCursor = changeCursor
  }
}
