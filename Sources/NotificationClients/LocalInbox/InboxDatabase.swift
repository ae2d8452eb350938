import Foundation
import Notifications

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The local inbox's store: notifications, the log of their changes and the settings, in one
/// SQLite database.
///
/// Every operation is one transaction, and each costs the same whatever the inbox holds:
///
/// - the first page walks the `(timestamp DESC, id)` index, the feed's own order;
/// - the unread count is a counter kept by triggers, not a scan;
/// - a change touches its row, the counter and one row of the change log;
/// - catching up reads the change log after a cursor (its primary key).
///
/// Several processes may use one inbox at once (the CLI, the dev server, a second CLI): the
/// database is journaled with WAL and a writer waits for another's lock (see ``SQLiteQueue``).
///
/// Schema (migrations "inbox 1" to "inbox 6"):
///
/// - `notifications(id PRIMARY KEY, type, timestamp, is_read, json, contact_id, alert_id,
///   ping_id, version)`: `timestamp` is the `Date`'s own `Double` (seconds since 2001), so it
///   reads back exactly; `json` is the notification's JSON shape, whose `isRead`, `timestamp`
///   and `version` the columns override; `contact_id`, `alert_id` and `ping_id` name the entity
///   it is about (a ping's contact too), and partial indexes on them list an entity's unread
///   notifications ("inbox 2"); `version` is the cursor of its last change ("inbox 3"; `NULL`
///   for a notification not changed since, or a cached one the remote gave none).
/// - Partial indexes `unread_by_date` and `unread_by_type` list the unread notifications (of a
///   type) in the feed's order, for filtered pages ("inbox 3").
/// - `applied_changes(id PRIMARY KEY, cursor)`: the cursor each change id was answered with,
///   for as long as the change log keeps its changes, so a retried change is applied once
///   ("inbox 3").
/// - `changes(cursor INTEGER PRIMARY KEY AUTOINCREMENT, kind, id, json)`: the newest
///   ``changeLogLimit`` changes; a cursor older than those catches up with a snapshot. The
///   partial index `deletions_by_id` finds a delete's cursor by id ("inbox 5").
/// - `cleared(id PRIMARY KEY, cursor)`: the notifications each clear-all deleted, at its cursor
///   (its change is a snapshot, which names none of them), for as long as the change log keeps
///   the cursor, so a look-up of one answers that it was deleted ("inbox 6").
/// - `counts(unread)`: one row, kept by the triggers on `notifications`.
/// - `settings(key PRIMARY KEY, value)`.
/// - `change_records(sequence INTEGER PRIMARY KEY AUTOINCREMENT, scope, id, json)`, unique by
///   `(scope, id)`: the records of the feature's ``ChangeLog`` of each scope (a server and
///   account), in the order of `sequence`, which saving a record again keeps; `id` is its change
///   id and `json` the record's JSON shape ("inbox 4", see `InboxDatabase+ChangeLog.swift`).
/// - `unlisted_notifications(scope, id, json, timestamp, received, PRIMARY KEY (scope, id))`:
///   the pushes the server has not listed and the local notices of each scope's log, each as
///   its JSON shape, whose `timestamp` the column overrides (as in `notifications`), with when
///   the device received it (a push; `NULL` for a notice), both the `Date`'s own `Double`
///   ("inbox 4").
package final class InboxDatabase: Sendable {
  /// The largest page served.
  package static let maximumPageSize = 1_000

  /// How many recent changes are kept for catching up.
  package static let changeLogLimit = 10_000

  let queue: SQLiteQueue
  /// The database file.
  package let url: URL
  /// Whether the file can only be read (this process may not write it or its folder): it is
  /// opened immutable, and every change fails saying it is read-only.
  package let isReadOnly: Bool

  /// Opens the inbox database at `url`, creating it (and its folder) or bringing its schema up
  /// to date.
  ///
  /// A new inbox is built beside `url` under a temporary name and linked into place, so no
  /// process ever finds it half made; a file of zero bytes at `url` is therefore not an inbox
  /// being made but an empty file, and is refused. A file this process may not write is opened
  /// read-only (``isReadOnly``).
  ///
  /// - Throws: ``InboxError/corrupt(path:reason:)`` when the file is not a database or is
  ///   damaged, ``InboxError/empty(path:)`` when it is empty,
  ///   ``InboxError/newerSchema(path:found:supported:)`` when a newer version wrote it,
  ///   ``InboxError/notWritable(path:reason:)`` when it cannot be created (or is read-only and
  ///   older than this version). None of them changes the file.
  package init(url: URL) throws(InboxError) {
    self.url = url
    let path = url.path
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw .notWritable(path: path, reason: InboxError.reason(for: error, path: path))
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw .notWritable(path: path, reason: "it is a folder, not a file")
    }
    do {
      if !FileManager.default.fileExists(atPath: path) {
        try Self.create(at: url)
      } else if Self.isEmptyFile(path) {
        throw InboxError.empty(path: path)
      }
      let (queue, isReadOnly) = try Self.open(path)
      self.queue = queue
      self.isReadOnly = isReadOnly
    } catch {
      throw Self.inboxError(error, path: path)
    }
  }

  /// Opens the database at `path` and brings its schema up to date; a file this process may
  /// not write is opened immutable instead, and must be up to date already.
  private static func open(_ path: String) throws -> (SQLiteQueue, isReadOnly: Bool) {
    do {
      let queue = try SQLiteQueue(path: path)
      try migrator.migrate(queue)
      return (queue, false)
    } catch let error as SQLiteError where error.isReadOnly {
      let queue = try SQLiteQueue(path: path, immutable: true)
      let applied = try queue.read { db in Set(try SQLiteMigrator.appliedMigrations(in: db)) }
      let unknown = applied.subtracting(migrator.names)
      if !unknown.isEmpty { throw SQLiteMigrationError.newerSchema(unknown: unknown.sorted()) }
      guard applied.isSuperset(of: migrator.names) else {
        throw InboxError.notWritable(
          path: path, reason: "it is read-only, and an older version wrote it, so it cannot be updated")
      }
      return (queue, true)
    }
  }

  /// Whether the file at `path` holds nothing: zero bytes, with no write-ahead log beside it
  /// (a database in WAL mode can keep its first changes there).
  private static func isEmptyFile(_ path: String) -> Bool {
    func size(_ path: String) -> Int? {
      (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
    return size(path) == 0 && (size(path + "-wal") ?? 0) == 0
  }

  /// Makes a new inbox at `url`: builds it beside `url` under a temporary name, closes it (its
  /// log written into the file), then links it into place. If another process made one there
  /// meanwhile, that one is kept.
  private static func create(at url: URL) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).new")
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary.path + suffix) }
    }
    do {
      let queue = try SQLiteQueue(path: temporary.path)
      try migrator.migrate(queue)
    }
    if link(temporary.path, url.path) != 0, errno != EEXIST {
      // A volume without hard links: moved instead (another process's inbox made meanwhile
      // would be replaced by this empty one, which is the same).
      guard rename(temporary.path, url.path) == 0 else {
        throw InboxError.notWritable(path: url.path, reason: String(cString: strerror(errno)))
      }
    }
  }

  package static let migrator: SQLiteMigrator = {
    var migrator = SQLiteMigrator()
    migrator.register("inbox 1") { db in
      try db.execute(
        """
        CREATE TABLE notifications (
          id TEXT PRIMARY KEY NOT NULL,
          type TEXT NOT NULL,
          timestamp REAL NOT NULL,
          is_read INTEGER NOT NULL,
          json BLOB NOT NULL
        );
        CREATE INDEX notifications_by_date ON notifications (timestamp DESC, id);
        CREATE INDEX notifications_by_type ON notifications (type, timestamp DESC, id);
        CREATE TABLE changes (
          cursor INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          id TEXT,
          json BLOB
        );
        CREATE TABLE counts (unread INTEGER NOT NULL);
        INSERT INTO counts (unread) VALUES (0);
        CREATE TRIGGER unread_on_insert AFTER INSERT ON notifications WHEN NEW.is_read = 0
        BEGIN UPDATE counts SET unread = unread + 1; END;
        CREATE TRIGGER unread_on_delete AFTER DELETE ON notifications WHEN OLD.is_read = 0
        BEGIN UPDATE counts SET unread = unread - 1; END;
        CREATE TRIGGER unread_on_update AFTER UPDATE OF is_read ON notifications
        WHEN OLD.is_read <> NEW.is_read
        BEGIN UPDATE counts SET unread = unread + (CASE NEW.is_read WHEN 0 THEN 1 ELSE -1 END); END;
        CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
        """)
    }
    migrator.register("inbox 2") { db in
      // The entity each notification is about, so opening one finds its unread notifications
      // without reading the others.
      try db.execute(
        """
        ALTER TABLE notifications ADD COLUMN contact_id TEXT;
        ALTER TABLE notifications ADD COLUMN alert_id TEXT;
        ALTER TABLE notifications ADD COLUMN ping_id TEXT;
        """)
      let rows = try db.statement("SELECT id, json FROM notifications").rows { row in
        (id: row.text(at: 0), json: row.data(at: 1))
      }
      let update = try db.prepare(
        "UPDATE notifications SET contact_id = ?, alert_id = ?, ping_id = ? WHERE id = ?")
      for row in rows {
        // A row whose JSON does not decode is reported when it is read, not here.
        guard let stored = try? JSONDecoder().decode(StoredTarget.self, from: row.json) else {
          continue
        }
        try update.run(entityColumns(of: stored.target ?? .none) + [.text(row.id)])
      }
      try db.execute(
        """
        CREATE INDEX unread_by_contact ON notifications (contact_id, timestamp DESC, id)
          WHERE is_read = 0 AND contact_id IS NOT NULL;
        CREATE INDEX unread_by_alert ON notifications (alert_id, timestamp DESC, id)
          WHERE is_read = 0 AND alert_id IS NOT NULL;
        CREATE INDEX unread_by_ping ON notifications (ping_id, timestamp DESC, id)
          WHERE is_read = 0 AND ping_id IS NOT NULL;
        """)
    }
    migrator.register("inbox 3") { db in
      // Each notification's version (the cursor of its last change), and the answer each change
      // id was given, so a retried change is applied once.
      try db.execute(
        """
        ALTER TABLE notifications ADD COLUMN version INTEGER;
        CREATE TABLE applied_changes (
          id TEXT PRIMARY KEY NOT NULL,
          cursor INTEGER NOT NULL
        );
        CREATE INDEX applied_changes_by_cursor ON applied_changes (cursor);
        CREATE INDEX unread_by_date ON notifications (timestamp DESC, id) WHERE is_read = 0;
        CREATE INDEX unread_by_type ON notifications (type, timestamp DESC, id) WHERE is_read = 0;
        """)
    }
    migrator.register("inbox 4") { db in
      // The feature's change log, a row per record and per unlisted notification, so that
      // processes sharing the inbox write what they changed and lose nothing of each other's.
      try db.execute(
        """
        CREATE TABLE change_records (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          scope TEXT NOT NULL,
          id TEXT NOT NULL,
          json BLOB NOT NULL,
          UNIQUE (scope, id)
        );
        CREATE TABLE unlisted_notifications (
          scope TEXT NOT NULL,
          id TEXT NOT NULL,
          json BLOB NOT NULL,
          timestamp REAL NOT NULL,
          received REAL,
          PRIMARY KEY (scope, id)
        ) WITHOUT ROWID;
        """)
    }
    migrator.register("inbox 5") { db in
      // The deletions by id, so a look-up of a deleted notification answers when it was
      // deleted (while the change log still holds the deletion).
      try db.execute(
        "CREATE INDEX deletions_by_id ON changes (id, cursor) WHERE kind = 'deleted'")
    }
    migrator.register("inbox 6") { db in
      // The notifications a clear-all deleted, by id, at its cursor: its change is a snapshot,
      // which names none of them, and a look-up of one (a push delivered again) must answer
      // that it was deleted, as for a delete. Kept as long as the change log keeps the cursor.
      try db.execute(
        """
        CREATE TABLE cleared (id TEXT PRIMARY KEY NOT NULL, cursor INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX cleared_by_cursor ON cleared (cursor);
        """)
    }
    return migrator
  }()

  /// The target of a stored notification's JSON, and nothing else of it.
  private struct StoredTarget: Decodable {
    var target: NotificationTarget?
  }

  /// The `contact_id`, `alert_id` and `ping_id` of a notification about `target`: a ping is
  /// about its contact too.
  private static func entityColumns(of target: NotificationTarget) -> [SQLiteValue] {
    switch target {
    case .none: [.null, .null, .null]
    case .contact(let contactID): [.text(contactID), .null, .null]
    case .alert(let alertID): [.null, .text(alertID), .null]
    case .ping(let pingID, let contactID): [.text(contactID), .null, .text(pingID)]
    }
  }

  // MARK: Reading

  /// The page of `limit` notifications right after `key` (from the newest without one), in
  /// the feed's order, with the feed's unread total and the cursor of the newest change it
  /// reflects. Its `nextCursor` is the key of its last notification (``PageKey``), so the next
  /// page starts right after it whatever is inserted or deleted meanwhile.
  ///
  /// The rows, the total and the cursor are read in one transaction, so they agree even when
  /// another process changes the inbox meanwhile: a catch-up from the page's cursor replays
  /// exactly the changes the page does not have.
  ///
  /// - Complexity: O(*limit* · log *n*): a walk of the `(timestamp DESC, id)` index from the key.
  package func page(
    after key: PageKey?, limit: Int, filter: NotificationFilter = .all, unreadOnly: Bool = false
  ) throws(InboxError) -> NotificationPage {
    guard (1...Self.maximumPageSize).contains(limit) else {
      throw .invalidRequest("The limit must be 1 to \(Self.maximumPageSize), not \(limit).")
    }
    // Each filter walks an index in the feed's order: `notifications_by_type` for a type,
    // `unread_by_date` and `unread_by_type` for unread ones ("inbox 3").
    var conditions: [String] = []
    var values: [SQLiteValue] = [.integer(Int64(limit) + 1)]
    if let key {
      conditions.append("(timestamp < ?2 OR (timestamp = ?2 AND id > ?3))")
      values += [.real(key.timestamp.timeIntervalSinceReferenceDate), .text(key.id)]
    }
    if case .type(let type) = filter {
      values.append(.text(type.rawValue))
      conditions.append("type = ?\(values.count)")
    }
    if unreadOnly { conditions.append("is_read = 0") }
    let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    return try reading { db in
      try db.transaction(.deferred) {
        // One more row than asked tells whether there is a next page without counting.
        var items = try db.statement(
          """
          SELECT json, timestamp, is_read, version FROM notifications \(condition)
          ORDER BY timestamp DESC, id LIMIT ?1
          """
        ).rows(values, Self.notification)
        let hasMore = items.count > limit
        if hasMore { items.removeLast() }
        return NotificationPage(
          items: items, nextCursor: hasMore ? items.last.map { PageKey(after: $0).cursor } : nil,
          hasMore: hasMore, unreadTotal: try Self.unreadCount(db),
          changeCursor: try Self.latestCursor(db))
      }
    }
  }

  /// The notification with `id`, or `nil`.
  package func notification(id: String) throws(InboxError) -> NotificationData? {
    try reading { db in
      try db.statement("SELECT json, timestamp, is_read, version FROM notifications WHERE id = ?")
        .firstRow([.text(id)], Self.notification)
    }
  }

  /// The cursor of the deletion of the notification `id` (by a delete or a clear-all), while
  /// the change log holds it; `nil` for one deleted longer ago, or never.
  ///
  /// - Complexity: O(log *n*): a look-up in the index of deletions.
  package func deletion(of id: String) throws(InboxError) -> ChangeCursor? {
    try reading { db in try Self.deletion(of: id, in: db) }
  }

  /// The cursor at which the notification with this id was deleted, if the log remembers it.
  private static func deletion(of id: String, in db: SQLiteConnection) throws -> ChangeCursor? {
    try db.statement(
      """
      SELECT max(cursor) FROM (
        SELECT cursor FROM changes WHERE kind = 'deleted' AND id = ?1
        UNION ALL SELECT cursor FROM cleared WHERE id = ?1)
      """
    )
    .firstRow([.text(id)]) { row in
      row.isNull(at: 0) ? nil : ChangeCursor(UInt64(row.int(at: 0)))
    } ?? nil
  }

  /// The unread notifications about `entity`, newest first: at most `limit` after `key` (from
  /// the newest without one), with the cursor of the next page (its last notification's
  /// `PageKey`) when there are more.
  ///
  /// - Complexity: O(*limit* · log *n*): a walk of the index of unread notifications by entity.
  package func unread(
    about entity: NotificationFeature.Entity, after key: PageKey? = nil,
    limit: Int = maximumPageSize
  ) throws(InboxError) -> NotificationPage {
    guard (1...Self.maximumPageSize).contains(limit) else {
      throw .invalidRequest("The limit must be 1 to \(Self.maximumPageSize), not \(limit).")
    }
    let (column, id) =
      switch entity {
      case .contact(let id): ("contact_id", id)
      case .alert(let id): ("alert_id", id)
      case .ping(let id): ("ping_id", id)
      }
    return try reading { db in
      let after = key == nil ? "" : "AND (timestamp < ?3 OR (timestamp = ?3 AND id > ?4))"
      var values: [SQLiteValue] = [.text(id), .integer(Int64(limit) + 1)]
      if let key {
        values += [.real(key.timestamp.timeIntervalSinceReferenceDate), .text(key.id)]
      }
      var items = try db.statement(
        """
        SELECT json, timestamp, is_read, version FROM notifications
        WHERE is_read = 0 AND \(column) = ?1 \(after) ORDER BY timestamp DESC, id LIMIT ?2
        """
      ).rows(values, Self.notification)
      let hasMore = items.count > limit
      if hasMore { items.removeLast() }
      return NotificationPage(
        items: items, nextCursor: hasMore ? items.last.map { PageKey(after: $0).cursor } : nil,
        hasMore: hasMore)
    }
  }

  /// Every unread notification about `entity`, newest first, read a page at a time.
  package func allUnread(about entity: NotificationFeature.Entity) throws(InboxError)
    -> [NotificationData]
  {
    var all: [NotificationData] = []
    var key: PageKey?
    repeat {
      let page = try unread(about: entity, after: key)
      all += page.items
      key = page.nextCursor.flatMap(PageKey.init(cursor:))
    } while key != nil
    return all
  }

  /// How many notifications are unread.
  ///
  /// - Complexity: O(1): a counter the database keeps.
  package func unreadCount() throws(InboxError) -> Int {
    try reading { db in try Self.unreadCount(db) }
  }

  /// How many notifications the inbox holds.
  package func count() throws(InboxError) -> Int {
    try reading { db in
      try db.statement("SELECT count(*) FROM notifications").firstRow { $0.int(at: 0) } ?? 0
    }
  }

  /// The cursor of the newest change (0 before any).
  package func latestCursor() throws(InboxError) -> ChangeCursor {
    try reading { db in try Self.latestCursor(db) }
  }

  /// The changes after `cursor`, oldest first. When the log no longer holds every change after
  /// it, or `cursor` is newer than any change (it came from another inbox, or one made again
  /// since), one snapshot of the whole feed instead.
  package func changes(since cursor: ChangeCursor) throws(InboxError) -> [NotificationEvent] {
    try reading { db in
      let latest = try Self.latestCursor(db)
      guard cursor != latest else { return [] }
      let oldest =
        try db.statement("SELECT min(cursor) FROM changes").firstRow { UInt64($0.int(at: 0)) }
        ?? latest.position
      if cursor.position + 1 < oldest || cursor > latest {
        let all = try db.statement(
          "SELECT json, timestamp, is_read, version FROM notifications ORDER BY timestamp DESC, id"
        ).rows([], Self.notification)
        return [NotificationEvent(.snapshot(all), cursor: latest)]
      }
      return try db.statement(
        "SELECT cursor, kind, id, json FROM changes WHERE cursor > ? ORDER BY cursor"
      ).rows([.integer(Int64(clamping: cursor.position))], Self.event)
    }
  }

  /// The value saved under `key`.
  package func setting(_ key: String) throws(InboxError) -> Data? {
    try reading { db in try Self.setting(key, in: db) }
  }

  /// A number that changes whenever another process commits a change to the inbox.
  package func dataVersion() throws(InboxError) -> Int64 {
    try reading { db in try db.dataVersion() }
  }

  // MARK: Changing

  /// Adds notifications, or replaces those with the same ids, logging each; each one's version
  /// is the cursor of its change.
  ///
  /// - Returns: The events logged, with their cursors.
  @discardableResult
  package func insert(_ notifications: [NotificationData]) throws -> [NotificationEvent] {
    try writing { db in
      var events: [NotificationEvent] = []
      for var notification in notifications {
        let cursor = try Self.nextCursor(db)
        notification.version = cursor
        try Self.upsert(notification, in: db)
        events.append(try Self.log(.inserted(notification), at: cursor, in: db))
      }
      return events
    }
  }

  /// Makes the change `request` asks for, in one transaction, once: a change id the inbox has
  /// answered (while its change log holds the changes since) is answered again with the same
  /// cursor, and changes nothing.
  ///
  /// - Returns: The cursor of the newest change right after it (see `NotificationClient.apply`)
  ///   and the events it logged.
  /// - Throws: `DeletedNotificationError` when the notification a read, unread or delete names
  ///   was deleted (while the change log holds the deletion), else `UserFacingError.notFound`
  ///   when the inbox has no notification with that id.
  package func apply(_ request: ChangeRequest) throws -> (cursor: ChangeCursor, events: [NotificationEvent]) {
    try writing { db in
      let key = SQLiteValue.text(request.id.uuidString)
      if let answered = try db.statement("SELECT cursor FROM applied_changes WHERE id = ?")
        .firstRow([key], { ChangeCursor(UInt64(clamping: max(0, $0.integer(at: 0)))) })
      {
        return (answered, [])
      }
      let events = try Self.make(request.intent, in: db)
      let cursor = try Self.latestCursor(db)
      try db.execute(
        "INSERT INTO applied_changes (id, cursor) VALUES (?, ?)",
        [key, .integer(Int64(clamping: cursor.position))])
      return (cursor, events)
    }
  }

  private static func make(_ intent: ChangeIntent, in db: SQLiteConnection) throws -> [NotificationEvent] {
    switch intent {
    case .markAsRead(let id): return try setRead(id, true, in: db)
    case .markAsUnread(let id): return try setRead(id, false, in: db)
    case .markAllAsRead(let ids):
      let unread: [NotificationData]
      if let ids {
        unread = try ids.compactMap { id in try notification(id, in: db) }.filter { !$0.isRead }
      } else {
        unread = try db.statement(
          "SELECT json, timestamp, is_read, version FROM notifications WHERE is_read = 0"
        ).rows([], notification)
      }
      var events: [NotificationEvent] = []
      for var notification in unread {
        notification.isRead = true
        let cursor = try nextCursor(db)
        notification.version = cursor
        try db.execute(
          "UPDATE notifications SET is_read = 1, version = ? WHERE id = ?",
          [.integer(Int64(clamping: cursor.position)), .text(notification.id)])
        events.append(try log(.updated(notification), at: cursor, in: db))
      }
      return events
    case .delete(let id):
      try db.execute("DELETE FROM notifications WHERE id = ?", [.text(id)])
      guard db.changes == 1 else { throw try missing(id, in: db) }
      return [try log(.deleted(id: id), in: db)]
    case .deleteAll(upTo: nil):
      let cursor = try nextCursor(db)
      try db.execute(
        "INSERT OR REPLACE INTO cleared (id, cursor) SELECT id, ? FROM notifications",
        [SQLiteValue(cursor)])
      try db.execute("DELETE FROM notifications")
      return [try log(.snapshot([]), at: cursor, in: db)]
    case .deleteAll(upTo: let bound?):
      // Logs the notifications left as a snapshot (none, usually: those that arrived after the
      // person cleared).
      let cursor = try nextCursor(db)
      try deleteNotifications(upTo: bound, rememberingAt: cursor, in: db)
      let left = try db.statement(
        "SELECT json, timestamp, is_read, version FROM notifications ORDER BY timestamp DESC, id"
      ).rows([], notification)
      return [try log(.snapshot(left), at: cursor, in: db)]
    }
  }

  /// The error for a change to a notification the inbox does not have: deleted, at the
  /// deletion's cursor, while its change log holds the deletion; else not found.
  private static func missing(_ id: String, in db: SQLiteConnection) throws -> any Error {
    guard let deletedAt = try deletion(of: id, in: db) else { return UserFacingError.notFound }
    return DeletedNotificationError(id: id, cursor: deletedAt)
  }

  private static func setRead(_ id: String, _ isRead: Bool, in db: SQLiteConnection) throws
    -> [NotificationEvent]
  {
    guard var notification = try notification(id, in: db) else { throw try missing(id, in: db) }
    guard notification.isRead != isRead else { return [] }
    notification.isRead = isRead
    let version = try nextCursor(db)
    notification.version = version
    try db.execute(
      "UPDATE notifications SET is_read = ?, version = ? WHERE id = ?",
      [.init(isRead), .integer(Int64(clamping: version.position)), .text(id)])
    return [try log(.updated(notification), at: version, in: db)]
  }

  /// Deletes what `bound` covers: the notifications older than its millisecond at once, and
  /// those within a millisecond of it as `FeedPosition.covers` decides (see its precision).
  /// With `clearedAt`, each one deleted is remembered as cleared at that cursor (see
  /// ``deletion(of:)``).
  private static func deleteNotifications(
    upTo bound: FeedPosition, notNewerThan cursor: ChangeCursor? = nil,
    rememberingAt clearedAt: ChangeCursor? = nil, in db: SQLiteConnection
  ) throws {
    let seconds = bound.timestamp.timeIntervalSinceReferenceDate
    // A notification whose version is newer than `cursor` came after the deletion: it stays.
    let version = SQLiteValue(cursor)
    let low = SQLiteValue.real(seconds - 0.002)
    let high = SQLiteValue.real(seconds + 0.002)
    let older = "timestamp < ?1 AND \(notNewer(than: 2))"
    if let clearedAt {
      try db.execute(
        "INSERT OR REPLACE INTO cleared (id, cursor) SELECT id, ?3 FROM notifications WHERE \(older)",
        [low, version, SQLiteValue(clearedAt)])
    }
    try db.execute("DELETE FROM notifications WHERE \(older)", [low, version])
    let near = try db.statement(
      "SELECT id, timestamp FROM notifications WHERE timestamp BETWEEN ?1 AND ?2 AND \(notNewer(than: 3))"
    ).rows([low, high, version]) { row throws(SQLiteError) in
      (id: row.text(at: 0), seconds: row.real(at: 1))
    }
    for (id, seconds) in near
    where bound.covers(timestamp: Date(timeIntervalSinceReferenceDate: seconds), id: id) {
      try db.execute("DELETE FROM notifications WHERE id = ?", [.text(id)])
      if let clearedAt {
        try db.execute(
          "INSERT OR REPLACE INTO cleared (id, cursor) VALUES (?, ?)",
          [.text(id), SQLiteValue(clearedAt)])
      }
    }
  }

  /// Saves `value` under `key`.
  package func saveSetting(_ value: Data, forKey key: String) throws {
    try writing { db in try Self.saveSetting(value, forKey: key, in: db) }
  }

  /// Replaces everything with `document`'s notifications, changes and settings: the import of
  /// an inbox file of the JSON format, in one transaction.
  package func importDocument(_ document: InboxDocument) throws {
    try writing { db in
      for notification in document.notifications {
        try Self.upsert(notification, in: db)
      }
      for (key, value) in document.settings {
        try Self.saveSetting(value, forKey: key, in: db)
      }
      // The file's cursors go on: a client that caught up from the file catches up from here.
      for change in document.changes {
        let (kind, id, json) = try Self.columns(of: change.change)
        try db.execute(
          "INSERT INTO changes (cursor, kind, id, json) VALUES (?, ?, ?, ?)",
          [.integer(Int64(change.cursor)), .text(kind), .init(id), .init(json)])
      }
      if document.cursor > 0 {
        try db.execute(
          "INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('changes', ?)",
          [.integer(Int64(document.cursor))])
      }
    }
  }

  // MARK: Caching a remote feed

  /// Applies a change the remote backend reported (or confirmed) to the cache, without logging
  /// it: the cache's log is the remote's, not its own.
  package func cache(_ changes: [NotificationChange]) throws {
    try writing { db in
      for change in changes { try Self.cache(change, in: db) }
    }
  }

  /// The settings key of the newest remote cursor the cache applied.
  static let remoteCursorKey = "loom.cache.remoteCursor"

  /// Applies the remote's events (its live stream, a catch-up) to the cache, as ``cache(_:)``
  /// does, except a replayed one: an event at or before the newest remote cursor the cache
  /// applied (or its first page reflected) is skipped, as the feature skips it (see
  /// `NotificationEvent.cursor`), unless it is a snapshot.
  package func cache(_ events: [NotificationEvent]) throws {
    try writing { db in
      var newest = try Self.setting(Self.remoteCursorKey, in: db).flatMap {
        ChangeCursor(String(decoding: $0, as: UTF8.self))
      }
      for event in events {
        if let cursor = event.cursor {
          if event.isReplay(upTo: newest) { continue }
          newest = cursor
        }
        try Self.cache(event.change, in: db)
      }
      if let newest {
        try Self.saveSetting(Data(newest.description.utf8), forKey: Self.remoteCursorKey, in: db)
      }
    }
  }

  private static func cache(_ change: NotificationChange, in db: SQLiteConnection) throws {
    switch change {
    case .inserted(let notification), .updated(let notification):
      try upsert(notification, in: db)
    case .deleted(let id):
      try db.execute("DELETE FROM notifications WHERE id = ?", [.text(id)])
    case .snapshot(let notifications):
      try db.execute("DELETE FROM notifications")
      for notification in notifications { try upsert(notification, in: db) }
    }
  }

  private static func setting(_ key: String, in db: SQLiteConnection) throws(SQLiteError) -> Data? {
    try db.statement("SELECT value FROM settings WHERE key = ?").firstRow([.text(key)]) {
      $0.data(at: 0)
    }
  }

  /// Applies to the cache a change the remote backend confirmed at `cursor` (its answer): the
  /// notifications it names are as it says at that cursor, unless the cache has a newer
  /// version of one already. Without a cursor (a remote that does not say), applied as it is.
  package func cacheApplied(_ intent: ChangeIntent, at cursor: ChangeCursor?) throws {
    try writing { db in
      // A notification is changed unless the version it has is newer than the answer's.
      let version = SQLiteValue(cursor)
      func setRead(_ ids: [String]?, _ isRead: Bool) throws {
        let set =
          "UPDATE notifications SET is_read = ?1, version = coalesce(?2, version) WHERE \(Self.notNewer(than: 2))"
        if let ids {
          for id in ids {
            try db.execute("\(set) AND id = ?3", [.init(isRead), version, .text(id)])
          }
        } else {
          try db.execute(set, [.init(isRead), version])
        }
      }
      switch intent {
      case .markAsRead(let id): try setRead([id], true)
      case .markAsUnread(let id): try setRead([id], false)
      case .markAllAsRead(let ids): try setRead(ids, true)
      case .delete(let id):
        try db.execute(
          "DELETE FROM notifications WHERE id = ?1 AND \(Self.notNewer(than: 2))", [.text(id), version])
      case .deleteAll(upTo: nil):
        try db.execute("DELETE FROM notifications WHERE \(Self.notNewer(than: 1))", [version])
      case .deleteAll(upTo: let bound?):
        try Self.deleteNotifications(upTo: bound, notNewerThan: cursor, in: db)
      }
    }
  }

  /// Stores a first page of the remote feed: what it lists replaces the cached copies, and a
  /// cached notification it would list but does not (deleted remotely) is removed, so the cache
  /// shows what the remote showed last.
  package func cacheFirstPage(_ page: NotificationPage) throws {
    try writing { db in
      let listed = Set(page.items.map(\.id))
      // A cached notification whose version is newer than the page (an event or an answer
      // copied after the remote read the page) is not stale: the page is older than it.
      let version = SQLiteValue(page.changeCursor)
      let stale: [String]
      if page.hasMore, let oldest = page.items.last {
        stale = try db.statement(
          "SELECT id FROM notifications WHERE timestamp >= ?1 AND \(Self.notNewer(than: 2))"
        ).rows([.real(oldest.timestamp.timeIntervalSinceReferenceDate), version]) { $0.text(at: 0) }
      } else {
        stale = try db.statement("SELECT id FROM notifications WHERE \(Self.notNewer(than: 1))")
          .rows([version]) { $0.text(at: 0) }
      }
      for id in stale where !listed.contains(id) {
        try db.execute("DELETE FROM notifications WHERE id = ?", [.text(id)])
      }
      for notification in page.items { try Self.upsert(notification, in: db) }
      // The page reflects the remote's changes up to its cursor: a replay of them is skipped.
      // (One the cache applied after the page, replayed, writes no older copy: see `upsert`.)
      if let cursor = page.changeCursor {
        try Self.saveSetting(Data(cursor.description.utf8), forKey: Self.remoteCursorKey, in: db)
      }
    }
  }

  // MARK: Rows

  private static func saveSetting(_ value: Data, forKey key: String, in db: SQLiteConnection)
    throws(SQLiteError)
  {
    try db.execute(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [.text(key), .blob(value)])
  }

  private static func upsert(_ notification: NotificationData, in db: SQLiteConnection) throws {
    try db.execute(
      """
      INSERT INTO notifications
        (id, type, timestamp, is_read, json, contact_id, alert_id, ping_id, version)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET type = excluded.type, timestamp = excluded.timestamp,
        is_read = excluded.is_read, json = excluded.json, contact_id = excluded.contact_id,
        alert_id = excluded.alert_id, ping_id = excluded.ping_id, version = excluded.version
      WHERE excluded.version IS NULL OR notifications.version IS NULL
        OR excluded.version >= notifications.version
      """,
      try row(notification))
  }

  private static func notification(_ row: SQLiteStatement) throws(SQLiteError) -> NotificationData {
    var notification: NotificationData
    do {
      notification = try JSONDecoder().decode(NotificationData.self, from: row.data(at: 0))
    } catch {
      throw SQLiteError(
        extendedCode: 11, message: "a stored notification is not valid JSON: \(error)")
    }
    notification.timestamp = Date(timeIntervalSinceReferenceDate: row.real(at: 1))
    notification.isRead = row.bool(at: 2)
    notification.version =
      row.isNull(at: 3) ? nil : ChangeCursor(UInt64(clamping: max(0, row.integer(at: 3))))
    return notification
  }

  private static func notification(_ id: String, in db: SQLiteConnection) throws(SQLiteError)
    -> NotificationData?
  {
    try db.statement("SELECT json, timestamp, is_read, version FROM notifications WHERE id = ?")
      .firstRow([.text(id)], notification)
  }

  private static func row(_ notification: NotificationData) throws -> [SQLiteValue] {
    [
      .text(notification.id), .text(notification.type.rawValue),
      .real(notification.timestamp.timeIntervalSinceReferenceDate), .init(notification.isRead),
      .blob(try JSONEncoder().encode(notification)),
    ] + entityColumns(of: notification.target)
      + [notification.version.map { .integer(Int64(clamping: $0.position)) } ?? .null]
  }

  private static func unreadCount(_ db: SQLiteConnection) throws(SQLiteError) -> Int {
    try db.statement("SELECT unread FROM counts").firstRow { $0.int(at: 0) } ?? 0
  }

  private static func latestCursor(_ db: SQLiteConnection) throws(SQLiteError) -> ChangeCursor {
    ChangeCursor(
      try db.statement("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
        .firstRow { UInt64(max(0, $0.int(at: 0))) } ?? 0)
  }

  /// The condition that a row's version is not newer than the cursor bound at parameter
  /// `index`: true for a row without a version, and for every row when the cursor is `NULL`
  /// (a remote that does not say).
  private static func notNewer(than index: Int) -> String {
    "(?\(index) IS NULL OR version IS NULL OR version <= ?\(index))"
  }

  /// The cursor the next change logged gets.
  private static func nextCursor(_ db: SQLiteConnection) throws(SQLiteError) -> ChangeCursor {
    ChangeCursor(try latestCursor(db).position + 1)
  }

  /// Logs a change at `cursor` (the next one when `nil`; a caller that gave a notification its
  /// version passes the cursor it took from ``nextCursor(_:)``), trims the log, and returns the
  /// change as an event with its cursor.
  private static func log(
    _ change: NotificationChange, at cursor: ChangeCursor? = nil, in db: SQLiteConnection
  ) throws -> NotificationEvent {
    let (kind, id, json) = try columns(of: change)
    let next = try cursor ?? nextCursor(db)
    let cursor = Int64(clamping: next.position)
    try db.execute(
      "INSERT INTO changes (cursor, kind, id, json) VALUES (?, ?, ?, ?)",
      [.integer(cursor), .text(kind), .init(id), .init(json)])
    if cursor % 100 == 0 {
      let oldest = SQLiteValue.integer(cursor - Int64(changeLogLimit))
      try db.execute("DELETE FROM changes WHERE cursor <= ?", [oldest])
      try db.execute("DELETE FROM applied_changes WHERE cursor <= ?", [oldest])
      try db.execute("DELETE FROM cleared WHERE cursor <= ?", [oldest])
    }
    return NotificationEvent(change, cursor: next)
  }

  private static func columns(of change: NotificationChange) throws -> (String, String?, Data?) {
    let encoder = JSONEncoder()
    switch change {
    case .inserted(let notification):
      return ("inserted", notification.id, try encoder.encode(notification))
    case .updated(let notification):
      return ("updated", notification.id, try encoder.encode(notification))
    case .deleted(let id):
      return ("deleted", id, nil)
    case .snapshot(let notifications):
      return ("snapshot", nil, try encoder.encode(notifications))
    }
  }

  private static func event(_ row: SQLiteStatement) throws(SQLiteError) -> NotificationEvent {
    let cursor = ChangeCursor(UInt64(max(0, row.int(at: 0))))
    let decoder = JSONDecoder()
    do {
      switch row.text(at: 1) {
      case "inserted":
        return NotificationEvent(
          .inserted(try decoder.decode(NotificationData.self, from: row.data(at: 3))), cursor: cursor)
      case "updated":
        return NotificationEvent(
          .updated(try decoder.decode(NotificationData.self, from: row.data(at: 3))), cursor: cursor)
      case "deleted":
        return NotificationEvent(.deleted(id: row.text(at: 2)), cursor: cursor)
      case "snapshot":
        return NotificationEvent(
          .snapshot(try decoder.decode([NotificationData].self, from: row.data(at: 3))),
          cursor: cursor)
      case let kind:
        throw SQLiteError(extendedCode: 11, message: "a logged change has the unknown kind \(kind)")
      }
    } catch let error as SQLiteError {
      throw error
    } catch {
      throw SQLiteError(extendedCode: 11, message: "a logged change is not valid JSON: \(error)")
    }
  }

  // MARK: Errors

  func reading<Result: Sendable>(
    _ body: (SQLiteConnection) throws -> Result
  ) throws(InboxError) -> Result {
    do {
      return try queue.read(body)
    } catch {
      throw Self.inboxError(error, path: url.path)
    }
  }

  /// A write transaction; a `UserFacingError` the body throws (not found) passes through, and
  /// so does a `DeletedNotificationError`.
  func writing<Result: Sendable>(
    _ body: (SQLiteConnection) throws -> Result
  ) throws -> Result {
    do {
      return try queue.write(body)
    } catch let error as UserFacingError {
      throw error
    } catch let error as DeletedNotificationError {
      throw error
    } catch {
      throw Self.inboxError(error, path: url.path)
    }
  }

  static func inboxError(_ error: any Error, path: String) -> InboxError {
    switch error {
    case let error as InboxError:
      return error
    case let error as SQLiteError where error.isCorrupt:
      return .corrupt(path: path, reason: error.message)
    case let error as SQLiteError where error.isReadOnly:
      return .notWritable(path: path, reason: "it is read-only")
    case let error as SQLiteError where error.isBusy:
      return .lockFailed(path: path, reason: "another process kept the inbox busy: \(error.message)")
    case let error as SQLiteError:
      return .notWritable(path: path, reason: error.description)
    case SQLiteMigrationError.newerSchema(let unknown):
      return .newerSchema(
        path: path, found: migrator.names.count + unknown.count, supported: migrator.names.count)
    default:
      return .unreadable(path: path, reason: "\(error)")
    }
  }
}

extension SQLiteValue {
  /// A change cursor as an integer column, or `NULL` without one.
  fileprivate init(_ cursor: ChangeCursor?) {
    self = cursor.map { .integer(Int64(clamping: $0.position)) } ?? .null
  }
}
