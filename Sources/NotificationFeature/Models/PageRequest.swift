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
/// ```
public struct PageRequest: Sendable, Hashable, Codable {
  /// How many notifications the page holds at most.
  public var limit: Int
  /// The `nextCursor` of the page before; `nil` for the first page.
  public var cursor: String?

  public init(limit: Int, cursor: String? = nil) {
    self.limit = limit
    self.cursor = cursor
  }
}
