import Foundation
import Loom
import Notifications

/// The embedded default backend: a notification client and a settings client over one SQLite
/// database, so a new user gets a working notification center with zero set-up.
///
/// ```swift
/// let inbox = LocalInbox(url: LocalInbox.defaultURL())
/// let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
///   withDependencies: {
///     $0.notificationClient = inbox.notificationClient
///     $0.settingsClient = inbox.settingsClient
///     $0.changeLogStore = inbox.changeLogStore(scope: "local")
///   }
/// ```
///
/// Each operation costs the same whatever the inbox holds (the first page, marking one read,
/// the unread count, catching up), and several processes may use one inbox at once.
///
/// **Moving from the JSON inbox.** An inbox file of the earlier JSON format (`inbox.json`
/// beside the database, or the file `url` names when it ends in `.json`) is imported the first
/// time the inbox opens, and then renamed, never deleted: `inbox.json.imported`.
///
/// Errors reaching the database reach the feature as `UserFacingError.operationFailed`
/// carrying the ``InboxError``'s description, which names the file and what is wrong. A
/// corrupt database is never overwritten.
public final class LocalInbox: Sendable {
  /// The database file.
  public let url: URL
  /// The inbox file of the JSON format that is imported on first open, if there is one.
  public let legacyURL: URL
  private let clock: any Clock<Duration>
  private let pollInterval: Duration
  private let opened = LockedState<InboxDatabase?>(nil)
  private let broadcast = ChangeBroadcast()
  /// The change log stores' database work, one call at a time in the order called (see
  /// ``inCallOrder(_:)``).
  private let changeLogWork = ChangeLogWork()
  /// The change log writes waiting for ``changeLogWork`` to apply them together.
  let changeLogWrites = ChangeLogWrites()

  /// Creates an inbox over the database at `url` (opened on first use). The live stream
  /// notices other processes' changes by checking the database every `pollInterval` on `clock`.
  ///
  /// A `url` ending in `.json` names an inbox of the earlier JSON format: the database is the
  /// file beside it with the extension `.sqlite`, and the JSON file is imported into it.
  public init(
    url: URL, clock: any Clock<Duration> = ContinuousClock(), pollInterval: Duration = .seconds(1)
  ) {
    if url.pathExtension == "json" {
      self.url = url.deletingPathExtension().appendingPathExtension("sqlite")
      self.legacyURL = url
    } else {
      self.url = url
      self.legacyURL = url.deletingPathExtension().appendingPathExtension("json")
    }
    self.clock = clock
    self.pollInterval = pollInterval
  }

  /// `$XDG_DATA_HOME/loom-notifications/inbox.sqlite`, or `~/.local/share/…` without it.
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
    return base.appendingPathComponent("loom-notifications/inbox.sqlite")
  }

  /// Opens the database now (it otherwise opens on first use), importing an inbox of the JSON
  /// format first.
  ///
  /// ```swift
  /// do { try inbox.open() } catch { print(error) }
  /// // "The inbox file …/inbox.sqlite is corrupt: file is not a database. It was left untouched; …"
  /// ```
  public func open() throws(InboxError) {
    _ = try database()
  }

  /// Adds notifications as if they had arrived (used by `seed`, notices and tests).
  public func insert(_ notifications: [NotificationData]) throws {
    try broadcast.change { ((), try database().insert(notifications)) }
  }

  /// The number of unread notifications.
  ///
  /// - Complexity: O(1): a counter the database keeps as notifications change.
  public func unreadCount() throws(InboxError) -> Int {
    try database().unreadCount()
  }

  /// The number of notifications the inbox holds.
  public func count() throws(InboxError) -> Int {
    try database().count()
  }

  /// Moves a corrupt (or empty) inbox aside so that a fresh one starts; leaves a healthy one
  /// alone.
  ///
  /// - Returns: Where the corrupt file was moved, or `nil` when nothing was corrupt.
  public func recover() throws(InboxError) -> URL? {
    let path: String
    do {
      try open()
      return nil
    } catch .corrupt(let corruptPath, _) {
      path = corruptPath
    } catch .empty(let emptyPath) {
      path = emptyPath
    }
    do {
      let corrupt = URL(fileURLWithPath: path)
      let destination = Self.asideURL(for: corrupt, suffix: "corrupt")
      do {
        try FileManager.default.moveItem(at: corrupt, to: destination)
        for sidecar in ["-wal", "-shm"] {
          let file = URL(fileURLWithPath: path + sidecar)
          if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.moveItem(
              at: file, to: URL(fileURLWithPath: destination.path + sidecar))
          }
        }
      } catch {
        throw .notWritable(path: path, reason: InboxError.reason(for: error, path: path))
      }
      return destination
    }
  }

  /// A page of the unread notifications about `entity` (what the server's `/unread` answers):
  /// at most `limit` after the page cursor `cursor`.
  package func unreadPage(
    about entity: NotificationFeature.Entity, cursor: String?, limit: Int
  ) throws -> NotificationPage {
    let key = try cursor.map(Self.pageKey)
    return try Self.mapping { () throws(InboxError) in
      try self.database().unread(about: entity, after: key, limit: limit)
    }
  }

  /// The notification client over the inbox. Each call does its database work off the caller's
  /// executor.
  public var notificationClient: NotificationClient {
    NotificationClient(
      fetchPage: { request in
        try await Self.offCaller {
          let key = try request.cursor.map(Self.pageKey)
          return try Self.mapping { () throws(InboxError) in
            try self.database().page(
              after: key, limit: request.limit, filter: request.filter,
              unreadOnly: request.unreadOnly)
          }
        }
      },
      // Opening is immediate: the stream starts with the changes after `since`, read with
      // its opening, so none made between a page and the stream is missed.
      updates: { since in try await Self.offCaller { try self.updates(since: since) } },
      changesSince: { cursor in
        try await Self.offCaller {
          try Self.mapping { () throws(InboxError) in try self.database().changes(since: cursor) }
        }
      },
      apply: { request in try await Self.offCaller { try self.change { try $0.apply(request) } } },
      fetchNotification: { id in
        let (notification, deletion) = try await Self.offCaller {
          try Self.mapping { () throws(InboxError) in
            let database = try self.database()
            let notification = try database.notification(id: id)
            return (notification, notification == nil ? try database.deletion(of: id) : nil)
          }
        }
        if let notification { return notification }
        if let deletion { throw DeletedNotificationError(id: id, cursor: deletion) }
        throw UserFacingError.notFound
      },
      fetchUnread: { entity in
        try await Self.offCaller {
          try Self.mapping { () throws(InboxError) in
            try self.database().allUnread(about: entity)
          }
        }
      }
    )
  }

  /// The key a page cursor names (see `PageKey`).
  static func pageKey(_ cursor: String) throws(UserFacingError) -> PageKey {
    guard let key = PageKey(cursor: cursor) else {
      throw UserFacingError(
        InboxError.invalidRequest("The cursor \"\(cursor.prefix(40))\" is not one this inbox gave.")
      )
    }
    return key
  }

  /// The settings client over the inbox: settings live in the same database, read and written
  /// off the caller's executor in the order of the calls, with the change log's (see
  /// ``inCallOrder(_:)``).
  public var settingsClient: SettingsClient {
    SettingsClient(
      loadData: { key in
        try await self.inCallOrder {
          try Self.mapping { () throws(InboxError) in try self.database().setting(key) }
        }
      },
      saveData: { data, key in
        try await self.inCallOrder {
          try self.change { database in
            try database.saveSetting(data, forKey: key)
            return ((), [])
          }
        }
      }
    )
  }

  /// Runs `body`, the synchronous database work of one call, on the global concurrent executor,
  /// never on the caller's: the clients' endpoints may run on their caller's executor (the main
  /// actor in an app; see `NotificationClient`), and this work must not. A commit waits for the
  /// disk (every commit is synced), and any statement may wait up to the busy timeout (5 s) for
  /// another process's lock.
  ///
  /// A `@concurrent` function rather than an actor or a serial executor of the inbox's own:
  /// ``SQLiteQueue`` already serialises the connection with its lock, and the inbox's
  /// synchronous API (`insert`, `unreadCount`, the server's pages) must keep working from any
  /// thread, so a queue in front of that lock would order nothing more. What it costs: calls
  /// made at the same time wait for the lock on threads of the shared pool; each is short
  /// (W10: under a millisecond).
  @concurrent
  static func offCaller<Result: Sendable>(_ body: @Sendable () throws -> Result) async throws
    -> Result
  {
    try body()
  }

  /// Runs `body` off the caller's executor after every body this inbox's change log stores
  /// called before it, and waits for it: a write a reducer starts per action lands in the order
  /// of the actions, though nothing waits for one write before starting the next, and a load
  /// sees every write called before it.
  ///
  /// Unlike ``offCaller(_:)``, whose calls take the database's lock in whatever order the pool's
  /// threads reach it: a record saved by one action and removed by the next was saved again
  /// when the first write came last. Here each call is a job of one actor, ``ChangeLogWork``,
  /// enqueued when the caller hops to it: the endpoints are `nonisolated(nonsending)`, so the
  /// hop is made by the caller, in the order of its calls, and an actor runs the jobs of one
  /// priority in the order they were enqueued.
  nonisolated(nonsending) func inCallOrder<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await changeLogWork.run(body)
  }

  // MARK: Opening

  /// Runs `body` with the database (the offline cache's way in).
  func cacheDatabase<Result>(_ body: (InboxDatabase) throws -> Result) throws -> Result {
    try body(try database())
  }

  private func database() throws(InboxError) -> InboxDatabase {
    let result = opened.withLock { opened -> Result<InboxDatabase, InboxError> in
      if let opened { return .success(opened) }
      do throws(InboxError) {
        let database = try InboxDatabase(url: url)
        try importLegacyFile(into: database)
        opened = database
        return .success(database)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Imports the JSON inbox, if there is one, and renames it; removes the temporary files an
  /// interrupted write of that format left.
  private func importLegacyFile(into database: InboxDatabase) throws(InboxError) {
    let folder = legacyURL.deletingLastPathComponent()
    let temporaryPrefix = ".\(legacyURL.lastPathComponent)."
    if let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
      for name in names where name.hasPrefix(temporaryPrefix) && name.hasSuffix(".tmp") {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
    }
    guard FileManager.default.fileExists(atPath: legacyURL.path) else { return }
    let document = try InboxFile(url: legacyURL).read()
    do {
      try database.importDocument(document)
      try FileManager.default.moveItem(
        at: legacyURL, to: Self.asideURL(for: legacyURL, suffix: "imported"))
      try? FileManager.default.removeItem(at: legacyURL.appendingPathExtension("lock"))
    } catch {
      throw .notWritable(path: legacyURL.path, reason: "\(error)")
    }
  }

  /// `file.suffix`, or `file.suffix-2`, … when taken.
  private static func asideURL(for file: URL, suffix: String) -> URL {
    var destination = file.appendingPathExtension(suffix)
    var counter = 1
    while FileManager.default.fileExists(atPath: destination.path) {
      counter += 1
      destination = file.appendingPathExtension("\(suffix)-\(counter)")
    }
    return destination
  }

  // MARK: Changes and the live stream

  /// Makes a change and tells live listeners about the events it logged.
  private func change<Result>(
    _ body: (InboxDatabase) throws -> (Result, events: [NotificationEvent])
  ) throws -> Result {
    do {
      return try broadcast.change { try body(try database()) }
    } catch let error as UserFacingError {
      throw error
    } catch let error as DeletedNotificationError {
      throw error
    } catch let error as InboxError {
      throw UserFacingError(error)
    } catch {
      throw UserFacingError.operationFailed(message: "\(error)")
    }
  }

  /// The changes after `since` (from now without one), then changes made through this inbox as
  /// they happen, and those other processes made, noticed by checking the database's data
  /// version every `pollInterval`.
  private func updates(since: ChangeCursor?) throws
    -> AsyncThrowingStream<NotificationEvent, any Error>
  {
    let database = try Self.mapping { () throws(InboxError) in try self.database() }
    let id = UUID()
    let clock = clock
    let interval = pollInterval
    let broadcast = broadcast
    // Read before the stream's cursor: another process's change made in between moves the
    // version on, and is caught up.
    let start = (try? database.dataVersion()) ?? 0
    let poller = Task {
      var version = start
      while !Task.isCancelled {
        do {
          try await clock.sleep(for: interval)
        } catch {
          return
        }
        guard let current = try? database.dataVersion(), current != version else { continue }
        version = current
        broadcast.catchUp(id) { seen in try? database.changes(since: seen) }
      }
    }
    do {
      return try broadcast.open(id) {
        try Self.mapping { () throws(InboxError) in
          let latest = try database.latestCursor()
          guard let since, since != latest else { return (latest, []) }
          // A cursor newer than the log's (another inbox's) is answered with a snapshot at the
          // newest change: the stream starts before it so that it is sent.
          return (min(since, latest), try database.changes(since: since))
        }
      } onTermination: {
        poller.cancel()
      }
    } catch {
      poller.cancel()
      throw error
    }
  }

  /// Maps inbox errors to user-facing ones.
  static func mapping<T>(_ body: () throws(InboxError) -> T) throws(UserFacingError) -> T {
    do {
      return try body()
    } catch {
      throw UserFacingError(error)
    }
  }
}

extension UserFacingError {
  /// The inbox's error as the feature shows it: the description, which names the file.
  init(_ error: InboxError) {
    self = .operationFailed(message: error.description)
  }
}

/// The change log stores' database work: an actor, so that its calls run one at a time, in the
/// order they were made, off the caller's executor (see ``LocalInbox/inCallOrder(_:)``).
actor ChangeLogWork {
  func run<Value: Sendable>(_ body: @Sendable () throws -> Value) throws -> Value {
    try body()
  }
}
