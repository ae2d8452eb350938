import Foundation
import Loom

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
  public var updates: @Sendable (_ since: ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>
  /// Every change after a cursor, to catch up after a reconnect.
  public var changesSince: @Sendable (ChangeCursor) async throws -> [NotificationEvent]
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
    updates: @escaping @Sendable (ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>,
    changesSince: @escaping @Sendable (ChangeCursor) async throws -> [NotificationEvent],
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
