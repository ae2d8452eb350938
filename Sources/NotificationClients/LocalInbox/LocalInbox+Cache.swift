import Foundation
import Notifications

extension LocalInbox {
  /// A client for a remote backend that keeps a copy of its feed in this inbox: an offline
  /// cache.
  ///
  /// ```swift
  /// let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
  ///   withDependencies: {
  ///     $0.notificationClient = cache.caching(.live(baseURL: serverURL, token: token))
  ///     $0.settingsClient = cache.settingsClient
  ///     $0.changeLogStore = cache.changeLogStore(scope: serverURL.absoluteString)
  ///   }
  /// ```
  ///
  /// - At launch the feature shows the cached first page at once (`cachedPage`), then the
  ///   remote's, which replaces it.
  /// - Every page, live change, catch-up and confirmed change the remote sends is copied into
  ///   the cache, off the caller's executor; a first page also removes what the remote no
  ///   longer lists before its oldest item (or at all, when it is the whole feed). A replayed
  ///   change, at or before the newest remote cursor the cache applied or its first page
  ///   reflected, is not copied: it would write an older state over a newer one.
  /// - When the remote cannot be reached (a retryable error), pages are served from the cache,
  ///   so the list still shows; changes still go to the remote (the feature's change log keeps
  ///   them until the remote applies them).
  /// - The settings live in the same database when ``settingsClient`` is used with it, and the
  ///   feature's change log (with the pushes it keeps) when ``changeLogStore(scope:)`` is.
  ///
  /// where `cache` is a `LocalInbox`, usually at ``defaultURL(environment:)``.
  public func caching(_ remote: NotificationClient) -> NotificationClient {
    NotificationClient(
      fetchPage: { request in
        // A cursor names the last notification of a page (`PageKey`), in the cache as in the
        // remote: a cached page's cursor asks the remote for what comes after it.
        do {
          let page = try await remote.fetchPage(request)
          // A filtered first page is not the feed's: what it does not list is not gone.
          let isFirst = request.cursor == nil && request.filter == .all && !request.unreadOnly
          try? await self.cacheOffCaller {
            try isFirst ? $0.cacheFirstPage(page) : $0.cache(page.items.map { .updated($0) })
          }
          return page
        } catch let error as UserFacingError where error.isRetryable {
          // Offline: the cached pages, if there are any.
          guard let cached = try? await Self.offCaller({ try self.cachedPage(request) }),
            !cached.items.isEmpty
          else { throw error }
          return cached
        }
      },
      updates: { since in
        let stream = try await remote.updates(since)
        let (copy, continuation) = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
        // Writes to the database: `@concurrent`, off the caller's executor.
        let forward = Task { @concurrent in
          do {
            for try await event in stream {
              try? self.cacheDatabase { try $0.cache([event]) }
              continuation.yield(event)
            }
            continuation.finish()
          } catch {
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in forward.cancel() }
        return copy
      },
      changesSince: { cursor in
        let events = try await remote.changesSince(cursor)
        try? await self.cacheOffCaller { try $0.cache(events) }
        return events
      },
      apply: { request in
        let cursor = try await remote.apply(request)
        try? await self.cacheOffCaller { try $0.cacheApplied(request.intent, at: cursor) }
        return cursor
      },
      fetchNotification: { id in
        do {
          let notification = try await remote.fetchNotification(id)
          try? await self.cacheOffCaller { try $0.cache([.updated(notification)]) }
          return notification
        } catch let error as UserFacingError where error.isRetryable {
          guard let cached = try? await self.cacheOffCaller({ try $0.notification(id: id) }) else {
            throw error
          }
          return cached
        }
      },
      fetchUnread: { entity in
        do {
          let unread = try await remote.fetchUnread(entity)
          try? await self.cacheOffCaller { try $0.cache(unread.map { .updated($0) }) }
          return unread
        } catch let error as UserFacingError where error.isRetryable {
          // Offline: what the cache holds about it, marked read here and sent later.
          guard let cached = try? await self.cacheOffCaller({ try $0.allUnread(about: entity) })
          else {
            throw error
          }
          return cached
        }
      },
      cachedPage: { request in
        let page = try await Self.offCaller { try self.cachedPage(request) }
        return page.items.isEmpty ? nil : page
      }
    )
  }

  /// Runs `body` with the database off the caller's executor (see `offCaller(_:)`): the
  /// remote's calls may run on the caller, the cache's writes and reads never do.
  nonisolated(nonsending) private func cacheOffCaller<Result: Sendable>(
    _ body: @Sendable (InboxDatabase) throws -> Result
  ) async throws -> Result {
    try await Self.offCaller { try self.cacheDatabase(body) }
  }

  /// The cached page after the request's cursor. Its next cursor names its last notification,
  /// as the remote's do, so loading more reads on in the cache, or asks the remote once it
  /// answers.
  private func cachedPage(_ request: PageRequest) throws -> NotificationPage {
    let key = request.cursor.flatMap(PageKey.init(cursor:))
    let limit = min(max(1, request.limit), InboxDatabase.maximumPageSize)
    var page = try cacheDatabase {
      try $0.page(after: key, limit: limit, filter: request.filter, unreadOnly: request.unreadOnly)
    }
    // The cache's own change log is not the remote's: catching up from its cursor would ask
    // the remote for the wrong changes.
    page.changeCursor = nil
    return page
  }
}
