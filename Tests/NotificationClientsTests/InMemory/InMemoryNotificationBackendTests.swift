import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

struct InMemoryNotificationBackendTests {
  let seed = (0..<5).map {
    NotificationData(
      id: "n\($0)", type: .system, title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double($0)))
  }

  @Test func pagesByCursor() async throws {
    let client = InMemoryNotificationBackend(seed: seed).client
    let first = try await client.fetchPage(PageRequest(limit: 2))
    #expect(first.items.map(\.id) == ["n0", "n1"])
    #expect(first.hasMore)
    #expect(first.nextCursor == PageKey(after: seed[1]).cursor)
    let second = try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor))
    #expect(second.items.map(\.id) == ["n2", "n3"])
    let last = try await client.fetchPage(PageRequest(limit: 10, cursor: second.nextCursor))
    #expect(last.items.map(\.id) == ["n4"])
    #expect(!last.hasMore)
  }

  @Test func aForeignCursorOrAnEmptyPageIsATypedErrorNotATrap() async throws {
    let client = InMemoryNotificationBackend(seed: seed).client
    for request in [
      PageRequest(limit: 2, cursor: "4"), PageRequest(limit: 2, cursor: "-3"), PageRequest(limit: 0),
      PageRequest(limit: -1),
    ] {
      await #expect(throws: UserFacingError.self, "\(request)") {
        try await client.fetchPage(request)
      }
    }
  }

  /// Marking read what is read (or unread what is unread) records no change: an `.updated` for
  /// it lowered the count of a client that had not loaded the notification.
  @Test func aWriteThatChangesNothingRecordsNoChange() async throws {
    var seed = seed
    seed[1].isRead = true
    let backend = InMemoryNotificationBackend(seed: seed)
    let client = backend.client
    let before = try await client.fetchPage(PageRequest(limit: 1)).changeCursor
    try await client.markAsRead("n1")
    try await client.markAsUnread("n0")
    #expect(try await client.fetchPage(PageRequest(limit: 1)).changeCursor == before)
    #expect(try await client.changesSince(before ?? .zero) == [])
    try await client.markAsRead("n0")
    #expect(try await client.changesSince(before ?? .zero).count == 1)
  }

  @Test func everyPageCarriesTheUnreadTotalOfTheWholeFeed() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    let client = backend.client
    #expect(try await client.fetchPage(PageRequest(limit: 2)).unreadTotal == 5)
    try await client.markAsRead("n4")
    try await client.markAllAsRead(["n0"])
    try await client.delete("n1")
    let first = try await client.fetchPage(PageRequest(limit: 2))
    #expect(first.unreadTotal == 2)
    #expect(try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor)).unreadTotal == 2)
    try await client.markAsUnread("n4")
    backend.insert(
      NotificationData(id: "new", type: .ping, title: "T", message: "M", timestamp: Date()))
    #expect(try await client.fetchPage(PageRequest(limit: 2)).unreadTotal == 4)
    try await client.deleteAll()
    #expect(try await client.fetchPage(PageRequest(limit: 2)).unreadTotal == 0)
  }

  @Test func everyPageSaysTheNewestChangeItReflects() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    let client = backend.client
    #expect(try await client.fetchPage(PageRequest(limit: 2)).changeCursor == 0)
    try await client.markAsRead("n4")
    try await client.delete("n1")
    let page = try await client.fetchPage(PageRequest(limit: 2))
    #expect(page.changeCursor == 2)
    #expect(try await client.fetchPage(PageRequest(limit: 2, cursor: page.nextCursor)).changeCursor == 2)
    // Catching up from it replays only what came after.
    try await client.markAsRead("n0")
    let after = try await client.changesSince(try #require(page.changeCursor))
    #expect(after.map(\.cursor) == [3])
  }

  @Test func aBoundedDeleteAllSparesWhatIsNewerThanTheBound() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    // Same timestamp as n1, before it in the feed's order: spared; after it: deleted.
    let tiedBefore = NotificationData(
      id: "n0a", type: .system, title: "T", message: "M", timestamp: seed[1].timestamp)
    let tiedAfter = NotificationData(
      id: "n1a", type: .system, title: "T", message: "M", timestamp: seed[1].timestamp)
    backend.insert(tiedBefore)
    backend.insert(tiedAfter)
    try await backend.client.deleteAllUpTo(FeedPosition(seed[1]))
    #expect(backend.notifications.map(\.id) == ["n0", "n0a"])
    let changes = try await backend.client.changesSince(2)
    // An inserted notification's version is the cursor of its insertion.
    #expect(changes.map(\.change) == [.snapshot([seed[0], versioned(tiedBefore, 1)])])
    #expect(try await backend.client.fetchPage(PageRequest(limit: 5)).unreadTotal == 2)
  }

  @Test func mutationsChangeTheBackendAndAreLoggedForCatchUp() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    try await backend.client.markAsRead("n1")
    try await backend.client.delete("n2")
    #expect(backend.notifications.first { $0.id == "n1" }?.isRead == true)
    #expect(!backend.notifications.contains { $0.id == "n2" })
    let changes = try await backend.client.changesSince(1)
    #expect(changes.map(\.change) == [.deleted(id: "n2")])
  }

  @Test func aCursorNewerThanAnyChangeCatchesUpWithASnapshot() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    try await backend.client.delete("n2")
    let all = seed.filter { $0.id != "n2" }
    #expect(try await backend.client.changesSince(120) == [NotificationEvent(.snapshot(all), cursor: 1)])
    #expect(try await backend.client.changesSince(1) == [])
  }

  @Test func injectedFailuresComeFirstInOrder() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    backend.failNext(1, with: .network)
    backend.failNext(1, with: .server(status: 500))
    await #expect(throws: UserFacingError.network) { try await backend.client.markAsRead("n1") }
    await #expect(throws: UserFacingError.server(status: 500)) { try await backend.client.markAsRead("n1") }
    try await backend.client.markAsRead("n1")
    await #expect(throws: UserFacingError.notFound) { try await backend.client.delete("nope") }
  }

  @Test func liveListenersHearInserts() async throws {
    let backend = InMemoryNotificationBackend(seed: [])
    var iterator = try await backend.client.updates(nil).makeAsyncIterator()
    backend.insert(seed[0])
    let event = try await iterator.next()
    #expect(event == NotificationEvent(.inserted(versioned(seed[0], 1)), cursor: 1))
  }

  @Test func theLiveStreamReplaysTheChangesAfterItsCursorThenGoesOn() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    try await backend.client.markAsRead("n1")
    try await backend.client.delete("n2")
    var iterator = try await backend.client.updates(1).makeAsyncIterator()
    #expect(try await iterator.next() == NotificationEvent(.deleted(id: "n2"), cursor: 2))
    backend.insert(seed[2])
    #expect(
      try await iterator.next() == NotificationEvent(.inserted(versioned(seed[2], 3)), cursor: 3))
  }

  @Test func droppingTheUpdatesEndsEveryOpenStreamWithTheError() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    let first = try await backend.client.updates(nil)
    let second = try await backend.client.updates(nil)
    #expect(backend.openUpdateStreams == 2)
    backend.dropUpdates(with: .server(status: 503))
    #expect(backend.openUpdateStreams == 0)
    for stream in [first, second] {
      await #expect(throws: UserFacingError.server(status: 503)) {
        for try await _ in stream {}
      }
    }
    // A stream opened afterwards works, and resumes after the cursor it is given.
    backend.insert(seed[0])
    var iterator = try await backend.client.updates(0).makeAsyncIterator()
    #expect(
      try await iterator.next() == NotificationEvent(.inserted(versioned(seed[0], 1)), cursor: 1))
  }

  @Test func openingTheLiveStreamIsACallThatInjectedFailuresReach() async throws {
    let backend = InMemoryNotificationBackend(seed: seed)
    backend.failNext(1, with: .unauthorized)
    await #expect(throws: UserFacingError.unauthorized) { _ = try await backend.client.updates(nil) }
    #expect(backend.openUpdateStreams == 0)
    let stream = try await backend.client.updates(nil)
    withExtendedLifetime(stream) { #expect(backend.openUpdateStreams == 1) }
  }
}

/// `notification` as the backend holds it after the change at `version`.
private func versioned(_ notification: NotificationData, _ version: ChangeCursor)
  -> NotificationData
{
  var notification = notification
  notification.version = version
  return notification
}
