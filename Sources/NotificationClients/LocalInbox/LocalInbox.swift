import Foundation
import Loom
import NotificationFeature

/// The embedded default backend: a notification client and a settings client over one JSON
/// file, so a new user gets a working notification center with zero set-up.
///
/// ```swift
/// let inbox = LocalInbox(url: LocalInbox.defaultURL())
/// let store = Store(initialState: NotificationsFeature.State()) { NotificationsFeature() }
///   withDependencies: {
///     $0.notificationClient = inbox.notificationClient
///     $0.settingsClient = inbox.settingsClient
///   }
/// ```
///
/// Errors reading or writing the file reach the feature as
/// `UserFacingError.operationFailed` carrying the ``InboxError``'s description, which names the
/// file and what is wrong.
public final class LocalInbox: Sendable {
  public let file: InboxFile
  private let clock: any Clock<Duration>
  private let pollInterval: Duration
  private let listeners = LockedState<[UUID: AsyncThrowingStream<NotificationEvent, any Error>.Continuation]>([:])

  /// Creates an inbox over the file at `url`. The live stream notices other processes' writes
  /// by checking the file every `pollInterval` on `clock`.
  public init(
    url: URL, clock: any Clock<Duration> = ContinuousClock(), pollInterval: Duration = .seconds(1)
  ) {
    self.file = InboxFile(url: url)
    self.clock = clock
    self.pollInterval = pollInterval
  }

  /// `$XDG_DATA_HOME/loom-notifications/inbox.json`, or `~/.local/share/…` without it.
  public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    let base: URL
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      base = URL(fileURLWithPath: data, isDirectory: true)
    } else {
      let home = environment["HOME"] ?? NSHomeDirectory()
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    }
    return base.appendingPathComponent("loom-notifications/inbox.json")
  }

  /// Changes the document and tells live listeners about the changes `body` records.
  @discardableResult
  public func update<T>(_ body: (inout InboxDocument) throws -> T) throws -> T {
    var recorded: [InboxDocument.LoggedChange] = []
    let result = try file.update { document -> T in
      let before = document.cursor
      let result = try body(&document)
      recorded = document.changes.filter { $0.cursor > before }
      return result
    }
    let continuations = listeners.withLock { Array($0.values) }
    for change in recorded {
      for continuation in continuations {
        continuation.yield(NotificationEvent(change.change, cursor: String(change.cursor)))
      }
    }
    return result
  }

  /// Adds notifications as if they had arrived (used by `seed` and `push`).
  public func insert(_ notifications: [NotificationData]) throws {
    try update { document in
      for notification in notifications {
        document.notifications.removeAll { $0.id == notification.id }
        document.notifications.append(notification)
        document.record(.inserted(notification))
      }
      document.notifications.sort(by: NotificationData.isOrderedBefore)
    }
  }

  /// The notification client over the file.
  public var notificationClient: NotificationClient {
    NotificationClient(
      fetchPage: { request in
        let document = try Self.mapping { try self.file.read() }
        let start = request.cursor.flatMap(Int.init) ?? request.offset ?? 0
        let items = Array(document.notifications.dropFirst(start).prefix(request.limit))
        let end = start + items.count
        let hasMore = end < document.notifications.count
        return NotificationPage(
          items: items, nextCursor: hasMore ? String(end) : nil, hasMore: hasMore,
          unreadTotal: document.notifications.count(where: { !$0.isRead }))
      },
      // Opening is immediate and the stream starts from now: the feature catches up with
      // `changesSince` on every connect.
      updates: { _ in self.updates() },
      changesSince: { cursor in
        let document = try Self.mapping { try self.file.read() }
        let since = Int(cursor) ?? 0
        return document.changes.filter { $0.cursor > since }.map {
          NotificationEvent($0.change, cursor: String($0.cursor))
        }
      },
      markAsRead: { id in try self.set(id) { $0.isRead = true } },
      markAsUnread: { id in try self.set(id) { $0.isRead = false } },
      markAllAsRead: { ids in
        try Self.mapping {
          try self.update { document in
            for index in document.notifications.indices
            where !document.notifications[index].isRead
              && (ids?.contains(document.notifications[index].id) ?? true)
            {
              document.notifications[index].isRead = true
              document.record(.updated(document.notifications[index]))
            }
          }
        }
      },
      delete: { id in
        try Self.mapping {
          try self.update { document in
            guard document.notifications.contains(where: { $0.id == id }) else {
              throw UserFacingError.notFound
            }
            document.notifications.removeAll { $0.id == id }
            document.record(.deleted(id: id))
          }
        }
      },
      deleteAll: {
        try Self.mapping {
          try self.update { document in
            document.notifications.removeAll()
            document.record(.snapshot([]))
          }
        }
      }
    )
  }

  /// The settings client over the file.
  public var settingsClient: SettingsClient {
    SettingsClient(
      loadData: { key in try Self.mapping { try self.file.read().settings[key] } },
      saveData: { data, key in try Self.mapping { try self.update { $0.settings[key] = data } } }
    )
  }

  private func set(_ id: String, _ change: (inout NotificationData) -> Void) throws {
    try Self.mapping {
      try update { document in
        guard let index = document.notifications.firstIndex(where: { $0.id == id }) else {
          throw UserFacingError.notFound
        }
        change(&document.notifications[index])
        document.record(.updated(document.notifications[index]))
      }
    }
  }

  /// Changes made through this inbox as they happen, and a snapshot whenever another process
  /// changed the file.
  private func updates() -> AsyncThrowingStream<NotificationEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
    let id = UUID()
    listeners.withLock { $0[id] = continuation }
    let file = file
    let clock = clock
    let interval = pollInterval
    let poller = Task {
      var stamp = file.modificationStamp()
      var seenCursor = (try? file.read().cursor) ?? 0
      while !Task.isCancelled {
        do {
          try await clock.sleep(for: interval)
        } catch {
          return
        }
        let current = file.modificationStamp()
        guard current != stamp else { continue }
        stamp = current
        guard let document = try? file.read(), document.cursor != seenCursor else { continue }
        seenCursor = document.cursor
        continuation.yield(NotificationEvent(.snapshot(document.notifications), cursor: String(document.cursor)))
      }
    }
    continuation.onTermination = { [listeners] _ in
      poller.cancel()
      _ = listeners.withLock { $0.removeValue(forKey: id) }
    }
    return stream
  }

  /// Maps file errors to user-facing ones; user-facing errors pass through.
  static func mapping<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as UserFacingError {
      throw error
    } catch let error as InboxError {
      throw UserFacingError.operationFailed(message: error.description)
    } catch {
      throw UserFacingError.operationFailed(message: "\(error)")
    }
  }
}
