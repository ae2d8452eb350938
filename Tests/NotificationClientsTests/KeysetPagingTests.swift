import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A page's cursor names its last notification, so the next page starts right after it whatever
/// was inserted or deleted meanwhile, on every backend. By offset, deleting the first of 60
/// notifications before "load more" skipped n50: never listed, yet counted unread.
struct KeysetPagingTests {
  enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, localInbox
    var testDescription: String { rawValue }
  }

  static let feed = (0..<60).map { index in
    NotificationData(
      id: "n\(index)", type: .ping, title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)))
  }

  /// A client over `backend` holding `notifications`, and what to remove when done.
  func client(_ backend: Backend, _ notifications: [NotificationData]) throws
    -> (NotificationClient, insert: ([NotificationData]) throws -> Void, done: () -> Void)
  {
    switch backend {
    case .inMemory:
      let memory = InMemoryNotificationBackend(seed: notifications)
      return (memory.client, { for notification in $0 { memory.insert(notification) } }, {})
    case .localInbox:
      let folder = TemporaryFolder()
      let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
      try inbox.insert(notifications)
      return (inbox.notificationClient, { try inbox.insert($0) }, { folder.remove() })
    }
  }

  @Test(arguments: Backend.allCases)
  func deletingTheFirstBeforeLoadingMoreSkipsNothing(_ backend: Backend) async throws {
    let (client, _, done) = try client(backend, Self.feed)
    defer { done() }
    let first = try await client.fetchPage(PageRequest(limit: 50))
    #expect(first.items.map(\.id) == (0..<50).map { "n\($0)" })
    try await client.delete("n0")
    let second = try await client.fetchPage(PageRequest(limit: 50, cursor: first.nextCursor))
    #expect(second.items.map(\.id) == (50..<60).map { "n\($0)" })
    #expect(!second.hasMore)
    #expect(second.nextCursor == nil)
  }

  @Test(arguments: Backend.allCases)
  func aNotificationInsertedBetweenPagesMovesNoOther(_ backend: Backend) async throws {
    let (client, insert, done) = try client(backend, Self.feed)
    defer { done() }
    let first = try await client.fetchPage(PageRequest(limit: 20))
    var newest = Self.feed[0]
    newest.id = "new"
    newest.timestamp = newest.timestamp.addingTimeInterval(60)
    var between = Self.feed[30]
    between.id = "n30b"
    try insert([newest, between])
    let second = try await client.fetchPage(PageRequest(limit: 20, cursor: first.nextCursor))
    #expect(second.items.map(\.id) == ["n20", "n21", "n22", "n23", "n24", "n25", "n26", "n27",
      "n28", "n29", "n30", "n30b", "n31", "n32", "n33", "n34", "n35", "n36", "n37", "n38"])
  }

  /// Ties on the timestamp are ordered by id, and a page boundary among them skips none.
  @Test(arguments: Backend.allCases)
  func pagesThroughTiesWithoutSkippingOrRepeating(_ backend: Backend) async throws {
    let tied = (0..<7).map { index in
      NotificationData(
        id: "t\(index)", type: .ping, title: "T", message: "M",
        timestamp: Date(timeIntervalSince1970: 1_700_000_000.123456))
    }
    let (client, _, done) = try client(backend, tied)
    defer { done() }
    var listed: [String] = []
    var cursor: String?
    repeat {
      let page = try await client.fetchPage(PageRequest(limit: 3, cursor: cursor))
      listed += page.items.map(\.id)
      cursor = page.nextCursor
    } while cursor != nil
    #expect(listed == (0..<7).map { "t\($0)" })
  }

  @Test(arguments: Backend.allCases)
  func aCursorNoBackendGaveIsATypedError(_ backend: Backend) async throws {
    let (client, _, done) = try client(backend, Self.feed)
    defer { done() }
    for cursor in ["50", "", "k1.", "k1.zzzzzzzzzzzzzzzz.n1", "cache:2"] {
      await #expect(throws: UserFacingError.self, "\(cursor)") {
        try await client.fetchPage(PageRequest(limit: 50, cursor: cursor))
      }
    }
  }
}

/// A stream opened from a page's cursor starts with the changes made since that page, then
/// goes on live: none missed, none twice. The local inbox's opened "from now", so a change made
/// between the first page and the stream was never shown.
struct ResumeFromAPageTests {
  @Test(arguments: KeysetPagingTests.Backend.allCases)
  func theStreamResumesFromThePagesCursor(_ backend: KeysetPagingTests.Backend) async throws {
    let (client, insert, done) = try KeysetPagingTests().client(backend, KeysetPagingTests.feed)
    defer { done() }
    let page = try await client.fetchPage(PageRequest(limit: 10))
    let cursor = try #require(page.changeCursor)
    try await client.markAsRead("n3")
    let stream = try await client.updates(cursor)
    var newer = KeysetPagingTests.feed[0]
    newer.id = "new"
    try insert([newer])
    var received: [NotificationEvent] = []
    // Up to the insertion made after opening: what came before it is what the stream resumed.
    for try await event in stream {
      received.append(event)
      if case .inserted(let inserted) = event.change, inserted.id == newer.id { break }
    }
    // Each notification's version is the cursor of the change that made it so.
    var read = KeysetPagingTests.feed[3]
    read.isRead = true
    read.version = ChangeCursor(cursor.position + 1)
    newer.version = ChangeCursor(cursor.position + 2)
    #expect(received.map(\.change) == [.updated(read), .inserted(newer)])
    #expect(received.map(\.cursor) == [ChangeCursor(cursor.position + 1), ChangeCursor(cursor.position + 2)])
  }
}
