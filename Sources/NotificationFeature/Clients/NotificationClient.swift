import Foundation
import Loom

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
  public var changeCursor: String?

  public init(
    items: [NotificationData], nextCursor: String? = nil, hasMore: Bool = false,
    unreadTotal: Int? = nil, changeCursor: String? = nil
  ) {
    self.items = items
    self.nextCursor = nextCursor
    self.hasMore = hasMore
    self.unreadTotal = unreadTotal
    self.changeCursor = changeCursor
  }
}

/// A change to the feed reported by the live stream or a catch-up fetch.
public enum NotificationChange: Sendable, Hashable, Codable {
  case inserted(NotificationData)
  case updated(NotificationData)
  case deleted(id: String)
  /// The whole feed, replacing what the client had.
  case snapshot([NotificationData])
}

/// A change with the cursor after it, so a reconnecting client can catch up from there.
public struct NotificationEvent: Sendable, Hashable, Codable {
  public var change: NotificationChange
  /// Where the change is in the backend's log. Cursors are opaque, but the feature compares
  /// two that are whole numbers (as every client in NotificationClients gives) as numbers: a
  /// change at or before the newest cursor it has (a first page's ``NotificationPage/changeCursor``,
  /// or the last change it applied) is one it has already, and is skipped, unless it is a
  /// snapshot. Other cursors are only compared for equality.
  ///
  /// So a backend's whole-number cursors only ever increase; one that starts them again (a new
  /// database) answers a catch-up from a cursor newer than its newest change with a snapshot,
  /// as every backend in NotificationClients does.
  public var cursor: String?

  public init(_ change: NotificationChange, cursor: String? = nil) {
    self.change = change
    self.cursor = cursor
  }

  /// Whether this is a change one already has who has applied the changes up to `newest`: its
  /// cursor and `newest` are whole numbers and it is not after it. A snapshot never is: it is
  /// the whole feed, and a backend whose cursors started again (a new database) answers a
  /// catch-up from a cursor newer than its own with one (see ``cursor``).
  package func isReplay(upTo newest: String?) -> Bool {
    if case .snapshot = change { return false }
    guard let cursor, let newest, let position = UInt64(cursor), let newestPosition = UInt64(newest)
    else { return false }
    return position <= newestPosition
  }
}

/// The backend of the notification feed. Endpoints throw ``UserFacingError``.
///
/// ```swift
/// let backend = InMemoryNotificationBackend(seed: notifications)
/// let store = Store(initialState: NotificationsFeature.State()) { NotificationsFeature() }
///   withDependencies: { $0.notificationClient = backend.client }
/// ```
///
/// `InMemoryNotificationBackend`, the local inbox and the HTTP client are in the
/// NotificationClients module.
public struct NotificationClient: Sendable {
  /// Fetches a page of the feed.
  public var fetchPage: @Sendable (PageRequest) async throws -> NotificationPage
  /// Opens the live stream and returns once it is open (throwing if it cannot be opened): the
  /// changes after a cursor (`nil` for "from now"), until cancelled or failed.
  ///
  /// Returning is the signal that the connection is up, so a quiet stream still counts as
  /// connected. A backend that can replay starts the stream with the changes after `since`; the
  /// feature also catches up with ``changesSince`` on every connect and skips a replayed change
  /// it already has (same cursor), so a backend that cannot replay is correct too.
  public var updates: @Sendable (_ since: String?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>
  /// Every change after a cursor, to catch up after a reconnect.
  public var changesSince: @Sendable (String) async throws -> [NotificationEvent]
  public var markAsRead: @Sendable (String) async throws -> Void
  public var markAsUnread: @Sendable (String) async throws -> Void
  /// Marks the given ids read, or every notification when `nil`.
  public var markAllAsRead: @Sendable ([String]?) async throws -> Void
  public var delete: @Sendable (String) async throws -> Void
  /// Deletes every notification, those that arrived a moment ago too. The feature's clear-all
  /// uses ``deleteAllUpTo`` instead, unless it has no bound.
  public var deleteAll: @Sendable () async throws -> Void
  /// Deletes the notifications a clear-all covers: the one at the bound and every one after it
  /// in the feed's order (see ``FeedPosition``), sparing the newer ones, also when the
  /// clear-all is sent long after the person cleared.
  ///
  /// > Important: A client made without it deletes everything with ``deleteAll``, newer
  /// > notifications included. Every client in NotificationClients provides it.
  public var deleteAllUpTo: @Sendable (FeedPosition) async throws -> Void
  /// The notification with an id, whether or not a page listed it; `UserFacingError.notFound`
  /// when the backend has none (the default, for a backend that cannot look one up).
  public var fetchNotification: @Sendable (String) async throws -> NotificationData
  /// The unread notifications about an entity (see ``NotificationsFeature/Entity/matches(_:)``),
  /// newest first, whether or not a page listed them: what opening the entity's screen marks
  /// read beyond the pages the feature has loaded.
  ///
  /// > Note: A client made without it pages through ``fetchPage`` to find them, which costs a
  /// > request per page. Every client in NotificationClients asks its backend at once.
  public var fetchUnread: @Sendable (NotificationsFeature.Entity) async throws -> [NotificationData]
  /// The page a cache on the device holds for `request`, shown at launch before the backend
  /// answers; `nil` when there is no cache or it is empty (the default).
  public var cachedPage: @Sendable (PageRequest) async throws -> NotificationPage?

  public init(
    fetchPage: @escaping @Sendable (PageRequest) async throws -> NotificationPage,
    updates: @escaping @Sendable (String?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>,
    changesSince: @escaping @Sendable (String) async throws -> [NotificationEvent],
    markAsRead: @escaping @Sendable (String) async throws -> Void,
    markAsUnread: @escaping @Sendable (String) async throws -> Void,
    markAllAsRead: @escaping @Sendable ([String]?) async throws -> Void,
    delete: @escaping @Sendable (String) async throws -> Void,
    deleteAll: @escaping @Sendable () async throws -> Void,
    deleteAllUpTo: (@Sendable (FeedPosition) async throws -> Void)? = nil,
    fetchNotification: @escaping @Sendable (String) async throws -> NotificationData = { _ in
      throw UserFacingError.notFound
    },
    fetchUnread: (@Sendable (NotificationsFeature.Entity) async throws -> [NotificationData])? = nil,
    cachedPage: @escaping @Sendable (PageRequest) async throws -> NotificationPage? = { _ in nil }
  ) {
    self.fetchPage = fetchPage
    self.updates = updates
    self.changesSince = changesSince
    self.markAsRead = markAsRead
    self.markAsUnread = markAsUnread
    self.markAllAsRead = markAllAsRead
    self.delete = delete
    self.deleteAll = deleteAll
    self.deleteAllUpTo = deleteAllUpTo ?? { _ in try await deleteAll() }
    self.fetchNotification = fetchNotification
    self.fetchUnread = fetchUnread ?? { entity in
      try await Self.unread(about: entity, pagingThrough: fetchPage)
    }
    self.cachedPage = cachedPage
  }

  /// The unread notifications about `entity`, found by fetching every page: how a client made
  /// without ``fetchUnread`` answers it, and the HTTP client against a server without the route.
  package static func unread(
    about entity: NotificationsFeature.Entity,
    pagingThrough fetchPage: @Sendable (PageRequest) async throws -> NotificationPage
  ) async throws -> [NotificationData] {
    var unread: [NotificationData] = []
    var request = PageRequest(limit: NotificationsFeature.pageSize)
    var cursors: Set<String> = []
    while true {
      let page = try await fetchPage(request)
      unread += page.items.filter { !$0.isRead && entity.matches($0.target) }
      // A backend that says there is more but gives no way there (or a cursor it gave
      // before) has been read to its end.
      guard page.hasMore, let next = page.nextCursor, cursors.insert(next).inserted else {
        return unread
      }
      request = PageRequest(limit: NotificationsFeature.pageSize, cursor: next)
    }
  }
}

extension NotificationClient {
  /// A client whose every endpoint fails the test naming it. Override the endpoints a test
  /// expects.
  public static let unimplemented = NotificationClient(
    fetchPage: Loom.unimplemented("NotificationClient.fetchPage"),
    updates: Loom.unimplemented("NotificationClient.updates"),
    changesSince: Loom.unimplemented("NotificationClient.changesSince"),
    markAsRead: Loom.unimplemented("NotificationClient.markAsRead"),
    markAsUnread: Loom.unimplemented("NotificationClient.markAsUnread"),
    markAllAsRead: Loom.unimplemented("NotificationClient.markAllAsRead"),
    delete: Loom.unimplemented("NotificationClient.delete"),
    deleteAll: Loom.unimplemented("NotificationClient.deleteAll"),
    deleteAllUpTo: Loom.unimplemented("NotificationClient.deleteAllUpTo"),
    fetchNotification: Loom.unimplemented("NotificationClient.fetchNotification"),
    fetchUnread: Loom.unimplemented("NotificationClient.fetchUnread")
  )

  /// A client that fails every call saying no backend is configured: the live value until an
  /// app shell provides the local inbox or the HTTP client.
  public static let unconfigured: NotificationClient = {
    let error = UserFacingError.operationFailed(
      message: "No notification backend is configured.")
    return NotificationClient(
      fetchPage: { _ in throw error },
      updates: { _ in throw error },
      changesSince: { _ in throw error },
      markAsRead: { _ in throw error },
      markAsUnread: { _ in throw error },
      markAllAsRead: { _ in throw error },
      delete: { _ in throw error },
      deleteAll: { throw error },
      deleteAllUpTo: { _ in throw error },
      fetchNotification: { _ in throw error },
      fetchUnread: { _ in throw error }
    )
  }()
}

private enum NotificationClientKey: DependencyKey {
  static let liveValue = NotificationClient.unconfigured
  static let testValue = NotificationClient.unimplemented
}

extension DependencyValues {
  /// The notification backend.
  public var notificationClient: NotificationClient {
    get { self[NotificationClientKey.self] }
    set { self[NotificationClientKey.self] = newValue }
  }
}
