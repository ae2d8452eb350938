import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// `fetchUnread`: the unread notifications about an entity, whether or not a page listed them,
/// as every client answers it.
struct EntityUnreadTests {
  /// A feed about a few entities, newest first: c1 has a contact notification and a ping (one
  /// read), a1 an alert, and one is about nothing.
  static let feed: [NotificationData] = [
    notification("contact", at: 9, target: .contact(contactID: "c1")),
    notification("ping", at: 8, target: .ping(pingID: "p1", contactID: "c1")),
    notification("alert", at: 7, target: .alert(alertID: "a1")),
    notification("read ping", at: 6, isRead: true, target: .ping(pingID: "p1", contactID: "c1")),
    notification("other contact", at: 5, target: .contact(contactID: "c2")),
    notification("nothing", at: 4, target: .none),
    notification("old ping", at: 3, target: .ping(pingID: "p2", contactID: "c1")),
  ]

  static func notification(
    _ id: String, at seconds: Double, isRead: Bool = false, target: NotificationTarget
  ) -> NotificationData {
    NotificationData(
      id: id, type: .ping, title: "T \(id)", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 + seconds), isRead: isRead,
      target: target)
  }

  /// What each entity's screen marks read.
  static let expected: [(NotificationFeature.Entity, [String])] = [
    (.contact("c1"), ["contact", "ping", "old ping"]),
    (.ping("p1"), ["ping"]),
    (.ping("p2"), ["old ping"]),
    (.alert("a1"), ["alert"]),
    (.contact("c2"), ["other contact"]),
    (.contact("nobody"), []),
  ]

  static func check(_ client: NotificationClient, _ name: String) async throws {
    for (entity, ids) in expected {
      #expect(try await client.fetchUnread(entity).map(\.id) == ids, "\(name): \(entity)")
    }
  }

  @Test func theInMemoryBackendTheLocalInboxAndTheDefaultAgree() async throws {
    let backend = InMemoryNotificationBackend(seed: Self.feed)
    try await Self.check(backend.client, "in memory")

    let folder = TemporaryFolder()
    defer { folder.remove() }
    let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
    try inbox.insert(Self.feed)
    try await Self.check(inbox.notificationClient, "local inbox")

    // A client made without `fetchUnread` pages through `fetchPage`, here 2 at a time.
    let paged = NotificationClient(
      fetchPage: { request in
        try await backend.client.fetchPage(PageRequest(limit: 2, cursor: request.cursor))
      },
      updates: { _ in AsyncThrowingStream { $0.finish() } }, changesSince: { _ in [] },
      markAsRead: { _ in }, markAsUnread: { _ in }, markAllAsRead: { _ in }, delete: { _ in },
      deleteAll: {})
    try await Self.check(paged, "paging")
  }

  @Test func theDefaultStopsAtABackendThatPagesInACircle() async throws {
    let pages = LockedState(0)
    let circular = NotificationClient(
      fetchPage: { _ in
        pages.withLock { $0 += 1 }
        return NotificationPage(items: [Self.feed[0]], nextCursor: "again", hasMore: true)
      },
      updates: { _ in AsyncThrowingStream { $0.finish() } }, changesSince: { _ in [] },
      markAsRead: { _ in }, markAsUnread: { _ in }, markAllAsRead: { _ in }, delete: { _ in },
      deleteAll: {})
    let unread = try await circular.fetchUnread(.contact("c1"))
    // The first page, then the page at "again", which gives "again" once more.
    #expect(unread.map(\.id) == ["contact", "contact"])
    #expect(pages.withLock { $0 } == 2)
  }

  @Test func theInboxFollowsChangesAndUsesItsEntityIndexes() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    let inbox = LocalInbox(url: url)
    try inbox.insert(Self.feed)
    let client = inbox.notificationClient
    try await client.markAsRead("contact")
    try await client.markAsUnread("read ping")
    try await client.delete("old ping")
    // A notification replaced with another target moves to that entity.
    var moved = Self.feed[2]
    moved.target = .contact(contactID: "c1")
    try inbox.insert([moved])
    #expect(try await client.fetchUnread(.contact("c1")).map(\.id) == ["ping", "alert", "read ping"])
    #expect(try await client.fetchUnread(.alert("a1")).isEmpty)

    let db = try SQLiteConnection(path: url.path, readOnly: true)
    for (column, index) in [
      ("contact_id", "unread_by_contact"), ("alert_id", "unread_by_alert"),
      ("ping_id", "unread_by_ping"),
    ] {
      let plan = try db.statement(
        """
        EXPLAIN QUERY PLAN SELECT json, timestamp, is_read FROM notifications
        WHERE is_read = 0 AND \(column) = ? ORDER BY timestamp DESC, id
        """
      ).rows([.text("x")]) { $0.text(at: 3) }
      #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan)")
      #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "sorted by the index: \(plan)")
    }
  }

  @Test func anInboxWrittenBeforeTheEntityIndexesFindsThemAfterItsMigration() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let url = folder.url.appendingPathComponent("inbox.sqlite")
    do {
      // The schema of "inbox 1", as the version before this one wrote it.
      let db = try SQLiteConnection(path: url.path)
      try db.execute(
        """
        CREATE TABLE loom_migrations (name TEXT PRIMARY KEY NOT NULL) STRICT;
        INSERT INTO loom_migrations (name) VALUES ('inbox 1');
        PRAGMA user_version = 1;
        CREATE TABLE notifications (
          id TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, timestamp REAL NOT NULL,
          is_read INTEGER NOT NULL, json BLOB NOT NULL);
        CREATE INDEX notifications_by_date ON notifications (timestamp DESC, id);
        CREATE INDEX notifications_by_type ON notifications (type, timestamp DESC, id);
        CREATE TABLE changes (
          cursor INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT, json BLOB);
        CREATE TABLE counts (unread INTEGER NOT NULL);
        INSERT INTO counts (unread) VALUES (6);
        CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
        """)
      for notification in Self.feed {
        try db.execute(
          "INSERT INTO notifications (id, type, timestamp, is_read, json) VALUES (?, ?, ?, ?, ?)",
          [
            .text(notification.id), .text(notification.type.rawValue),
            .real(notification.timestamp.timeIntervalSinceReferenceDate),
            .init(notification.isRead), .blob(try JSONEncoder().encode(notification)),
          ])
      }
      // A row whose JSON is damaged does not stop the migration.
      try db.execute(
        "INSERT INTO notifications (id, type, timestamp, is_read, json) VALUES ('bad', 'ping', 1, 0, x'00')")
    }
    let inbox = LocalInbox(url: url)
    try await Self.check(inbox.notificationClient, "migrated")
    #expect(try inbox.count() == Self.feed.count + 1)
  }

  @Test func theOfflineCacheAsksTheRemoteAndFallsBackToWhatItCached() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let backend = InMemoryNotificationBackend(seed: Self.feed)
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let client = cache.caching(backend.client)
    // Online: the remote answers, and what it sent is cached.
    try await Self.check(client, "online")
    // Offline: the cache answers with what it holds.
    backend.failNext(1, with: .network)
    #expect(try await client.fetchUnread(.contact("c1")).map(\.id) == ["contact", "ping", "old ping"])
    // A refusal is not hidden.
    backend.failNext(1, with: .unauthorized)
    await #expect(throws: UserFacingError.unauthorized) {
      try await client.fetchUnread(.contact("c1"))
    }
  }
}
