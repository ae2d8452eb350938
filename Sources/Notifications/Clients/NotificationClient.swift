import Foundation
import Loom

/// The backend of the notification feed. Endpoints throw ``UserFacingError``.
///
/// ```swift
/// let backend = InMemoryNotificationBackend(seed: notifications)
/// let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
///   withDependencies: {
///     $0.notificationClient = backend.client
///     $0.changeLogStore = .inMemory()
///   }
/// ```
///
/// `InMemoryNotificationBackend`, the local inbox and the HTTP client are in the
/// NotificationClients module.
///
/// Every endpoint is `nonisolated(nonsending)`: it runs on its caller's executor, so an effect
/// on the main actor calls it without leaving the main actor (a client that answers from memory
/// answers in the effect's own turn). A client whose work blocks (a database, a file, decoding
/// a large answer) moves that work off the caller itself, with `@concurrent` functions, as the
/// local inbox and the HTTP client do.
///
/// > Important: Build endpoints from closure literals without a capture list, or from local
/// > functions declared `@Sendable nonisolated(nonsending) func`. Swift 6.3 does not infer a
/// > closure literal with a capture list (`{ [backend] id in … }`) passed as an argument to be
/// > `nonisolated(nonsending)`: it runs on the global executor, and the call leaves the main
/// > actor.
public struct NotificationClient: Sendable {
  /// Fetches a page of the feed.
  public var fetchPage: nonisolated(nonsending) @Sendable (PageRequest) async throws -> NotificationPage
  /// Opens the live stream and returns once it is open (throwing if it cannot be opened): the
  /// changes after a cursor (`nil` for "from now"), until cancelled or failed.
  ///
  /// Returning is the signal that the connection is up, so a quiet stream still counts as
  /// connected. A backend that can replay starts the stream with the changes after `since`; the
  /// feature also catches up with ``changesSince`` on every connect and skips a replayed change
  /// it already has (same cursor), so a backend that cannot replay is correct too.
  public var updates: nonisolated(nonsending) @Sendable (_ since: ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>
  /// Every change after a cursor, to catch up after a reconnect.
  public var changesSince: nonisolated(nonsending) @Sendable (ChangeCursor) async throws -> [NotificationEvent]
  /// Makes a change the person asked for, once per change id (a retry after a lost answer
  /// changes nothing more), and answers with the cursor of the backend's log right after it:
  /// the notifications the change names are as it says at that cursor, so what the backend said
  /// of them before it is older and what it says after it is newer. `nil` when the backend does
  /// not say. Throws `UserFacingError.notFound` for an id the backend does not have (read,
  /// unread, delete).
  ///
  /// ```swift
  /// let cursor = try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n1")))
  /// ```
  ///
  /// The endpoints ``markAsRead``, ``markAsUnread``, ``markAllAsRead``, ``delete``,
  /// ``deleteAll`` and ``deleteAllUpTo`` are this one, for one intent each, with a new change
  /// id; setting one of them makes `apply` call it for its intent (and answer `nil`), so a test
  /// overrides just the call it expects.
  public var apply: nonisolated(nonsending) @Sendable (ChangeRequest) async throws -> ChangeCursor?
  /// The notification with an id, whether or not a page listed it; ``DeletedNotificationError``
  /// when the backend deleted it, `UserFacingError.notFound` when it has none (the default, for
  /// a backend that cannot look one up).
  public var fetchNotification: nonisolated(nonsending) @Sendable (String) async throws -> NotificationData
  /// The unread notifications about an entity (see ``NotificationFeature/Entity/matches(_:)``),
  /// newest first, whether or not a page listed them: what opening the entity's screen marks
  /// read beyond the pages the feature has loaded.
  ///
  /// > Note: A client made without it pages through ``fetchPage`` to find them, which costs a
  /// > request per page. Every client in NotificationClients asks its backend at once.
  public var fetchUnread: nonisolated(nonsending) @Sendable (NotificationFeature.Entity) async throws -> [NotificationData]
  /// The page a cache on the device holds for `request`, shown at launch before the backend
  /// answers; `nil` when there is no cache or it is empty (the default).
  public var cachedPage: nonisolated(nonsending) @Sendable (PageRequest) async throws -> NotificationPage?

  /// Creates a client whose changes all go through `apply`.
  public init(
    fetchPage: nonisolated(nonsending) @escaping @Sendable (PageRequest) async throws -> NotificationPage,
    updates: nonisolated(nonsending) @escaping @Sendable (ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>,
    changesSince: nonisolated(nonsending) @escaping @Sendable (ChangeCursor) async throws -> [NotificationEvent],
    apply: nonisolated(nonsending) @escaping @Sendable (ChangeRequest) async throws -> ChangeCursor?,
    fetchNotification: nonisolated(nonsending) @escaping @Sendable (String) async throws -> NotificationData = { _ in
      throw UserFacingError.notFound
    },
    fetchUnread: (nonisolated(nonsending) @Sendable (NotificationFeature.Entity) async throws -> [NotificationData])? = nil,
    cachedPage: nonisolated(nonsending) @escaping @Sendable (PageRequest) async throws -> NotificationPage? = { _ in nil }
  ) {
    self.fetchPage = fetchPage
    self.updates = updates
    self.changesSince = changesSince
    self.apply = apply
    self.fetchNotification = fetchNotification
    @Sendable nonisolated(nonsending) func unreadByPaging(
      about entity: NotificationFeature.Entity
    ) async throws -> [NotificationData] {
      try await Self.unread(about: entity, pagingThrough: fetchPage)
    }
    self.fetchUnread = fetchUnread ?? unreadByPaging
    self.cachedPage = cachedPage
  }

  /// Creates a client with one closure per kind of change, for a backend that does not answer
  /// with cursors or take change ids (a fake, say): ``apply`` calls the closure of its intent
  /// and answers `nil`.
  public init(
    fetchPage: nonisolated(nonsending) @escaping @Sendable (PageRequest) async throws -> NotificationPage,
    updates: nonisolated(nonsending) @escaping @Sendable (ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error>,
    changesSince: nonisolated(nonsending) @escaping @Sendable (ChangeCursor) async throws -> [NotificationEvent],
    markAsRead: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Void,
    markAsUnread: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Void,
    markAllAsRead: nonisolated(nonsending) @escaping @Sendable ([String]?) async throws -> Void,
    delete: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Void,
    deleteAll: nonisolated(nonsending) @escaping @Sendable () async throws -> Void,
    deleteAllUpTo: (nonisolated(nonsending) @Sendable (FeedPosition) async throws -> Void)? = nil,
    fetchNotification: nonisolated(nonsending) @escaping @Sendable (String) async throws -> NotificationData = { _ in
      throw UserFacingError.notFound
    },
    fetchUnread: (nonisolated(nonsending) @Sendable (NotificationFeature.Entity) async throws -> [NotificationData])? = nil,
    cachedPage: nonisolated(nonsending) @escaping @Sendable (PageRequest) async throws -> NotificationPage? = { _ in nil }
  ) {
    @Sendable nonisolated(nonsending) func apply(_ request: ChangeRequest) async throws
      -> ChangeCursor?
    {
      switch request.intent {
      case .markAsRead(let id): try await markAsRead(id)
      case .markAsUnread(let id): try await markAsUnread(id)
      case .markAllAsRead(let ids): try await markAllAsRead(ids)
      case .delete(let id): try await delete(id)
      case .deleteAll(upTo: nil): try await deleteAll()
      case .deleteAll(upTo: let bound?):
        if let deleteAllUpTo { try await deleteAllUpTo(bound) } else { try await deleteAll() }
      }
      return nil
    }
    self.init(
      fetchPage: fetchPage, updates: updates, changesSince: changesSince, apply: apply,
      fetchNotification: fetchNotification, fetchUnread: fetchUnread, cachedPage: cachedPage)
  }

  // MARK: One intent each

  /// Marks a notification read: ``apply`` with a new change id.
  public var markAsRead: nonisolated(nonsending) @Sendable (String) async throws -> Void {
    get { applying { .markAsRead($0) } }
    set { route { if case .markAsRead(let id) = $0 { { try await newValue(id) } } else { nil } } }
  }

  /// Marks a notification unread: ``apply`` with a new change id.
  public var markAsUnread: nonisolated(nonsending) @Sendable (String) async throws -> Void {
    get { applying { .markAsUnread($0) } }
    set { route { if case .markAsUnread(let id) = $0 { { try await newValue(id) } } else { nil } } }
  }

  /// Marks the given ids read, or every notification when `nil`: ``apply`` with a new change
  /// id.
  public var markAllAsRead: nonisolated(nonsending) @Sendable ([String]?) async throws -> Void {
    get { applying { .markAllAsRead($0) } }
    set {
      route { if case .markAllAsRead(let ids) = $0 { { try await newValue(ids) } } else { nil } }
    }
  }

  /// Deletes a notification: ``apply`` with a new change id.
  public var delete: nonisolated(nonsending) @Sendable (String) async throws -> Void {
    get { applying { .delete($0) } }
    set { route { if case .delete(let id) = $0 { { try await newValue(id) } } else { nil } } }
  }

  /// Deletes every notification, those that arrived a moment ago too: ``apply`` with a new
  /// change id. The feature's clear-all uses ``deleteAllUpTo`` instead, unless it has no bound.
  public var deleteAll: nonisolated(nonsending) @Sendable () async throws -> Void {
    get {
      let apply = apply
      @Sendable nonisolated(nonsending) func deleteAll() async throws {
        _ = try await apply(ChangeRequest(id: UUID(), .deleteAll(upTo: nil)))
      }
      return deleteAll
    }
    set { route { if case .deleteAll(upTo: nil) = $0 { { try await newValue() } } else { nil } } }
  }

  /// Deletes the notifications a clear-all covers: the one at the bound and every one after it
  /// in the feed's order (see ``FeedPosition``), sparing the newer ones, also when the
  /// clear-all is sent long after the person cleared: ``apply`` with a new change id.
  public var deleteAllUpTo: nonisolated(nonsending) @Sendable (FeedPosition) async throws -> Void {
    get { applying { .deleteAll(upTo: $0) } }
    set {
      route { if case .deleteAll(upTo: let bound?) = $0 { { try await newValue(bound) } } else { nil } }
    }
  }

  /// ``apply`` with a new change id, for the intent `intent` makes of the argument.
  private func applying<Argument: Sendable>(
    _ intent: @escaping @Sendable (Argument) -> ChangeIntent
  ) -> nonisolated(nonsending) @Sendable (Argument) async throws -> Void {
    let apply = apply
    // A local function rather than a closure literal: declared `nonisolated(nonsending)`, it
    // runs on the caller's executor whatever Swift infers for closures.
    @Sendable nonisolated(nonsending) func call(_ argument: Argument) async throws {
      _ = try await apply(ChangeRequest(id: UUID(), intent(argument)))
    }
    return call
  }

  /// Makes ``apply`` run the call `call` gives for a request (answering `nil`), and what it
  /// did before for the requests it gives none.
  private mutating func route(
    _ call: @escaping @Sendable (ChangeIntent) -> (nonisolated(nonsending) @Sendable () async throws -> Void)?
  ) {
    let previous = apply
    @Sendable nonisolated(nonsending) func routed(_ request: ChangeRequest) async throws
      -> ChangeCursor?
    {
      guard let overridden = call(request.intent) else { return try await previous(request) }
      try await overridden()
      return nil
    }
    apply = routed
  }

  /// The unread notifications about `entity`, found by fetching every page: how a client made
  /// without ``fetchUnread`` answers it, and the HTTP client against a server without the route.
  nonisolated(nonsending) package static func unread(
    about entity: NotificationFeature.Entity,
    pagingThrough fetchPage: nonisolated(nonsending) @Sendable (PageRequest) async throws
      -> NotificationPage
  ) async throws -> [NotificationData] {
    var unread: [NotificationData] = []
    var request = PageRequest(limit: NotificationFeature.pageSize)
    var cursors: Set<String> = []
    while true {
      let page = try await fetchPage(request)
      unread += page.items.filter { !$0.isRead && entity.matches($0.target) }
      // A backend that says there is more but gives no way there (or a cursor it gave
      // before) has been read to its end.
      guard page.hasMore, let next = page.nextCursor, cursors.insert(next).inserted else {
        return unread
      }
      request = PageRequest(limit: NotificationFeature.pageSize, cursor: next)
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
