import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A change goes through `apply`, once per change id, on every backend: it stamps each
/// notification it changes with the cursor of the event that logged it (its version), and
/// answers the cursor of the backend's log right after it. A retry of a change whose answer was
/// lost (the same id) answers as the first time and changes nothing: without change ids, a
/// retried mark-unread undid a mark-read made since, and a retried delete failed as not found.
struct ChangeRequestTests {
  enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, localInbox
    var testDescription: String { rawValue }
  }

  /// n0 to n3, newest first, unread.
  static let feed = (0..<4).map { index in
    NotificationData(
      id: "n\(index)", type: .ping, title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)))
  }

  /// A backend holding ``feed``, inserted in order (so n0 has version 1, n3 version 4, and the
  /// newest cursor is 4), a way to insert more, and what to remove when done.
  func client(_ backend: Backend) throws
    -> (NotificationClient, insert: (NotificationData) throws -> Void, done: () -> Void)
  {
    switch backend {
    case .inMemory:
      let memory = InMemoryNotificationBackend()
      for notification in Self.feed { memory.insert(notification) }
      return (memory.client, { memory.insert($0) }, {})
    case .localInbox:
      let folder = TemporaryFolder()
      let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
      try inbox.insert(Self.feed)
      return (inbox.notificationClient, { try inbox.insert([$0]) }, { folder.remove() })
    }
  }

  /// The notification `index` of ``feed`` as the backend holds it after the change at
  /// `version`.
  static func stored(_ index: Int, isRead: Bool = false, version: ChangeCursor)
    -> NotificationData
  {
    var notification = feed[index]
    notification.isRead = isRead
    notification.version = version
    return notification
  }

  @Test(arguments: Backend.allCases)
  func everyChangeStampsTheNotificationWithItsEventsCursor(_ backend: Backend) async throws {
    let (client, insert, done) = try client(backend)
    defer { done() }
    let before = try await client.fetchPage(PageRequest(limit: 50))
    let inserted: [ChangeCursor?] = [1, 2, 3, 4]
    #expect(before.items.map(\.version) == inserted)
    #expect(before.changeCursor == 4)
    try await client.markAsRead("n1")
    try await client.markAsUnread("n1")
    try await client.markAllAsRead(["n0", "n2"])
    try await client.delete("n3")
    var replaced = Self.feed[2]
    replaced.title = "Replaced"
    try insert(replaced)
    let events = try await client.changesSince(4)
    #expect(events.map(\.cursor) == [5, 6, 7, 8, 9, 10])
    // The notification each event carries has the event's cursor as its version.
    for event in events {
      switch event.change {
      case .inserted(let notification), .updated(let notification):
        #expect(notification.version == event.cursor, "\(notification.id)")
      case .deleted, .snapshot:
        break
      }
    }
    // A page, and a notification fetched alone, say the version of its last change.
    replaced.version = 10
    let page = try await client.fetchPage(PageRequest(limit: 50))
    #expect(
      page.items == [
        Self.stored(0, isRead: true, version: 7), Self.stored(1, version: 6), replaced,
      ])
    #expect(try await client.fetchNotification("n1") == Self.stored(1, version: 6))
  }

  @Test(arguments: Backend.allCases)
  func applyAnswersTheCursorOfTheLastEventItLogged(_ backend: Backend) async throws {
    let (client, insert, done) = try client(backend)
    defer { done() }
    func apply(_ intent: ChangeIntent) async throws -> ChangeCursor? {
      try await client.apply(ChangeRequest(id: UUID(), intent))
    }
    #expect(try await apply(.markAsRead("n1")) == 5)
    // Three notifications marked read, three events: the cursor of the last.
    #expect(try await apply(.markAllAsRead(nil)) == 8)
    #expect(try await client.changesSince(5).map(\.cursor) == [6, 7, 8])
    #expect(try await apply(.delete("n0")) == 9)
    #expect(try await apply(.deleteAll(upTo: FeedPosition(Self.feed[2]))) == 10)
    #expect(try await client.fetchPage(PageRequest(limit: 50)).changeCursor == 10)
    // A change that changes nothing logs nothing, and answers the newest cursor.
    #expect(try await apply(.markAsRead("n1")) == 10)
    var newer = Self.feed[0]
    newer.id = "new"
    try insert(newer)
    #expect(try await apply(.markAsRead("n1")) == 11)
    #expect(try await apply(.markAllAsRead(["n1"])) == 11)
    #expect(try await client.changesSince(10).map(\.cursor) == [11])
    // One that fails changes nothing either. A change to a notification the backend deleted
    // says when it was deleted; one it never had is not found.
    await #expect(throws: DeletedNotificationError(id: "n0", cursor: 9)) {
      try await apply(.markAsUnread("n0"))
    }
    await #expect(throws: DeletedNotificationError(id: "n0", cursor: 9)) {
      try await apply(.delete("n0"))
    }
    await #expect(throws: UserFacingError.notFound) { try await apply(.markAsUnread("never")) }
    #expect(try await client.fetchPage(PageRequest(limit: 50)).changeCursor == 11)
  }

  /// A look-up of a notification the backend deleted answers the cursor of the deletion: a
  /// push of it, late or delivered again, is ordered against what the feature has seen. One
  /// never held is not found.
  @Test(arguments: Backend.allCases)
  func aLookUpOfADeletedNotificationAnswersTheCursorOfItsDeletion(_ backend: Backend)
    async throws
  {
    let (client, _, done) = try client(backend)
    defer { done() }
    #expect(try await client.apply(ChangeRequest(id: UUID(), .delete("n1"))) == 5)
    await #expect(throws: DeletedNotificationError(id: "n1", cursor: 5)) {
      try await client.fetchNotification("n1")
    }
    await #expect(throws: UserFacingError.notFound) { try await client.fetchNotification("zz") }
    #expect(UserFacingError(DeletedNotificationError(id: "n1", cursor: 5)) == .notFound)
  }

  /// A look-up of a notification a clear-all deleted answers the clear-all's cursor too, as for
  /// a delete: a push of it delivered again is not shown again. One it spared is there.
  @Test(arguments: Backend.allCases)
  func aLookUpOfANotificationAClearAllDeletedAnswersItsCursor(_ backend: Backend)
    async throws
  {
    let (client, _, done) = try client(backend)
    defer { done() }
    let bounded = ChangeRequest(id: UUID(), .deleteAll(upTo: FeedPosition(Self.feed[1])))
    #expect(try await client.apply(bounded) == 5)
    for cleared in Self.feed[1...] {
      await #expect(throws: DeletedNotificationError(id: cleared.id, cursor: 5)) {
        try await client.fetchNotification(cleared.id)
      }
    }
    #expect(try await client.fetchNotification("n0") == Self.stored(0, version: 1))
    #expect(try await client.apply(ChangeRequest(id: UUID(), .deleteAll(upTo: nil))) == 6)
    await #expect(throws: DeletedNotificationError(id: "n0", cursor: 6)) {
      try await client.fetchNotification("n0")
    }
    await #expect(throws: DeletedNotificationError(id: "n3", cursor: 5)) {
      try await client.fetchNotification("n3")
    }
    await #expect(throws: UserFacingError.notFound) { try await client.fetchNotification("zz") }
  }

  @Test(arguments: Backend.allCases)
  func aChangeRetriedWithItsIDIsAppliedOnce(_ backend: Backend) async throws {
    let (client, insert, done) = try client(backend)
    defer { done() }
    #expect(try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n1"))) == 5)
    let unread = ChangeRequest(id: UUID(), .markAsUnread("n1"))
    #expect(try await client.apply(unread) == 6)
    // Read again since, then the mark-unread is retried (its answer was lost): it answers as
    // it did, and leaves the notification read.
    #expect(try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n1"))) == 7)
    #expect(try await client.apply(unread) == 6)
    #expect(try await client.changesSince(7) == [])
    #expect(try await client.fetchNotification("n1") == Self.stored(1, isRead: true, version: 7))
    // A delete retried answers as it did, not "not found".
    let delete = ChangeRequest(id: UUID(), .delete("n2"))
    #expect(try await client.apply(delete) == 8)
    #expect(try await client.apply(delete) == 8)
    // A clear-all retried after a notification it covers arrived leaves that one.
    let clear = ChangeRequest(id: UUID(), .deleteAll(upTo: FeedPosition(Self.feed[3])))
    #expect(try await client.apply(clear) == 9)
    var older = Self.feed[3]
    older.id = "n4"
    older.timestamp -= 60
    try insert(older)
    #expect(try await client.apply(clear) == 9)
    #expect(try await client.changesSince(10) == [])
    let left = try await client.fetchPage(PageRequest(limit: 50))
    #expect(left.items.map(\.id) == ["n0", "n1", "n4"])
  }
}

/// The offline cache copies what the remote says of a notification unless it holds a newer
/// version of it: an answer to a change, or a page, that the remote sent before a change the
/// cache has since heard of (through the stream or a catch-up) is older, and writing it would
/// show a state the remote has left.
struct CachedVersionTests {
  static let feed = ChangeRequestTests.feed

  @Test func anAnswerOlderThanTheCachedCopyIsNotWrittenOverIt() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend()
    remote.insert(Self.feed[0])
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    let overtaken = ChangeRequest(id: UUID(), .markAsRead("n0"))
    var slow = remote.client
    slow.apply = { request in
      let cursor = try await remote.client.apply(request)
      if request.id == overtaken.id {
        // Before its answer arrives, another device marks n0 unread, and the cache catches up.
        try await remote.client.markAsUnread("n0")
        _ = try await cache.caching(remote.client).changesSince(cursor ?? .zero)
      }
      return cursor
    }
    let client = cache.caching(slow)
    _ = try await client.fetchPage(PageRequest(limit: 50))
    #expect(try await client.apply(overtaken) == 2)
    var cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(cached.items == [ChangeRequestTests.stored(0, version: 3)])
    #expect(cached.unreadTotal == 1)
    // An answer newer than the cached copy is copied.
    #expect(try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0"))) == 4)
    cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(cached.items == [ChangeRequestTests.stored(0, isRead: true, version: 4)])
    #expect(cached.unreadTotal == 0)
  }

  @Test func aPageOlderThanTheCachedCopiesIsNotWrittenOverThem() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend()
    remote.insert(Self.feed[0])
    remote.insert(Self.feed[1])
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    var slow = remote.client
    slow.fetchPage = { request in
      let page = try await remote.client.fetchPage(request)
      // Before the page arrives, what it lists is marked read, and the cache catches up.
      for notification in page.items { try await remote.client.markAsRead(notification.id) }
      _ = try await cache.caching(remote.client).changesSince(page.changeCursor ?? .zero)
      return page
    }
    let client = cache.caching(slow)
    // A first page (n0 unread, version 1), then the next (n1 unread, version 2): both older
    // than the copies the catch-ups made.
    let first = try await client.fetchPage(PageRequest(limit: 1))
    #expect(first.items == [ChangeRequestTests.stored(0, version: 1)])
    let second = try await client.fetchPage(PageRequest(limit: 1, cursor: first.nextCursor))
    #expect(second.items == [ChangeRequestTests.stored(1, version: 2)])
    var cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(
      cached.items == [
        ChangeRequestTests.stored(0, isRead: true, version: 3),
        ChangeRequestTests.stored(1, isRead: true, version: 4),
      ])
    #expect(cached.unreadTotal == 0)
    // A page newer than the cached copies is copied.
    try await remote.client.markAsUnread("n1")
    _ = try await cache.caching(remote.client).fetchPage(PageRequest(limit: 50))
    cached = try #require(try await client.cachedPage(PageRequest(limit: 50)))
    #expect(cached.items.last == ChangeRequestTests.stored(1, version: 5))
    #expect(cached.unreadTotal == 1)
  }

  /// Known gap: a removal is not checked against versions. An older first page removes a
  /// notification it does not list though the cache heard of its (newer) insertion, and an older
  /// answer to a clear-all removes a notification it covers that arrived after the clear.
  @Test func anOlderRemovalLeavesANewerCachedCopy() async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let remote = InMemoryNotificationBackend()
    remote.insert(Self.feed[1])
    let cache = LocalInbox(url: folder.url.appendingPathComponent("cache.sqlite"))
    var newest = Self.feed[0]
    newest.id = "newest"
    var late = Self.feed[3]
    late.id = "late"
    let clear = ChangeRequest(id: UUID(), .deleteAll(upTo: FeedPosition(Self.feed[1])))
    var slow = remote.client
    slow.fetchPage = { [newest] request in
      let page = try await remote.client.fetchPage(request)
      // Before the page arrives, a newer notification is inserted, and the cache hears of it.
      remote.insert(newest)
      _ = try await cache.caching(remote.client).changesSince(page.changeCursor ?? .zero)
      return page
    }
    slow.apply = { [late] request in
      let cursor = try await remote.client.apply(request)
      // Before the answer arrives, one the clear-all covers arrives, and the cache hears of it.
      remote.insert(late)
      _ = try await cache.caching(remote.client).changesSince(cursor ?? .zero)
      return cursor
    }
    let client = cache.caching(slow)
    _ = try await client.fetchPage(PageRequest(limit: 50))
    var cached = try await client.cachedPage(PageRequest(limit: 50))
    #expect(cached?.items.map(\.id) == ["newest", "n1"])
    #expect(try await client.apply(clear) == 3)
    cached = try await client.cachedPage(PageRequest(limit: 50))
    #expect(cached?.items.map(\.id) == ["newest", "late"])
    #expect(remote.notifications.map(\.id) == ["newest", "late"])
  }
}
