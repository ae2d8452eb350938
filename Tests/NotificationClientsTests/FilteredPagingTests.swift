import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A page request with a filter (a type, unread only, or both) pages through the notifications
/// that pass it alone, in the feed's order, on every backend: the CLI's `list --unread` and
/// `list --type` cost what they list (they loaded every page and filtered, 21 s at 100,000).
struct FilteredPagingTests {
  enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, localInbox
    var testDescription: String { rawValue }
  }

  static let types: [NotificationType] = [.ping, .alert, .system, .checkIn]

  /// 60 notifications, newest first, of four types in turn, every third read; two share each
  /// timestamp, so the id breaks ties.
  static let feed = (0..<60).map { index in
    NotificationData(
      id: "n\(index)", type: types[index % types.count], title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000 - Double(index / 2)),
      isRead: index.isMultiple(of: 3))
  }.sorted(by: NotificationData.isOrderedBefore)

  func client(_ backend: Backend) throws -> (NotificationClient, done: () -> Void) {
    switch backend {
    case .inMemory:
      return (InMemoryNotificationBackend(seed: Self.feed).client, {})
    case .localInbox:
      let folder = TemporaryFolder()
      let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
      try inbox.insert(Self.feed)
      return (inbox.notificationClient, { folder.remove() })
    }
  }

  /// Every page of `request`, followed by cursor, as the ids of each.
  func pages(of request: PageRequest, from client: NotificationClient) async throws -> [[String]] {
    var request = request
    var pages: [[String]] = []
    while true {
      let page = try await client.fetchPage(request)
      pages.append(page.items.map(\.id))
      #expect(page.hasMore == (page.nextCursor != nil))
      guard let next = page.nextCursor, pages.count <= 60 else { return pages }
      request.cursor = next
    }
  }

  static let requests: [PageRequest] = [
    PageRequest(limit: 7, filter: .type(.alert)),
    PageRequest(limit: 7, unreadOnly: true),
    PageRequest(limit: 4, filter: .type(.checkIn), unreadOnly: true),
    PageRequest(limit: 5, filter: .type(.role)),
    PageRequest(limit: 100, filter: .type(.ping)),
  ]

  @Test(arguments: Backend.allCases, requests.indices)
  func aFilteredRequestPagesThroughWhatPassesInTheFeedsOrder(_ backend: Backend, _ which: Int)
    async throws
  {
    let (client, done) = try client(backend)
    defer { done() }
    let request = Self.requests[which]
    let passing: [String] = Self.feed.filter(request.passes).map(\.id)
    let pages: [[String]] = try await pages(of: request, from: client)
    let listed: [String] = pages.flatMap { $0 }
    #expect(listed == passing)
    // Every page but the last is full; a filter nothing passes answers one empty page.
    let full: Bool = pages.dropLast().allSatisfy { $0.count == request.limit }
    #expect(full)
    let expectedPages: Int = max(1, (passing.count + request.limit - 1) / request.limit)
    #expect(pages.count == expectedPages)
  }

  @Test(arguments: Backend.allCases)
  func aFilteredPageSaysTheWholeFeedsUnreadTotal(_ backend: Backend) async throws {
    let (client, done) = try client(backend)
    defer { done() }
    let page = try await client.fetchPage(PageRequest(limit: 3, filter: .type(.alert)))
    #expect(page.unreadTotal == Self.feed.count { !$0.isRead })
  }
}
