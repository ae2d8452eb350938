import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// `GET /api/notifications?type=…&unread=true` pages through the notifications that pass, by
/// cursor, through a real socket; the HTTP client asks so for a filtered `PageRequest`.
@Suite(.serialized)
struct FilteredPageEndpointTests {
  static func feed() -> [NotificationData] {
    (0..<9).map { index in
      var notification = sample("n\(index)", secondsAgo: Double(index))
      notification.type = index.isMultiple(of: 2) ? .alert : .ping
      notification.isRead = index.isMultiple(of: 3)
      return notification
    }
  }

  @Test func theClientPagesThroughAFilteredFeed() async throws {
    let server = try TestServer(notifications: Self.feed())
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    var request = PageRequest(limit: 2, filter: .type(.alert), unreadOnly: true)
    var ids: [String] = []
    while true {
      let page = try await client.fetchPage(request)
      ids += page.items.map(\.id)
      guard let next = page.nextCursor else { break }
      request.cursor = next
    }
    // Alerts are n0, n2, n4, n6, n8; n0 and n6 are read.
    #expect(ids == ["n2", "n4", "n8"])
    let pings = try await client.fetchPage(PageRequest(limit: 10, filter: .type(.ping)))
    #expect(pings.items.map(\.id) == ["n1", "n3", "n5", "n7"])
  }

  @Test func aFilterThatIsNotOneIsA400() async throws {
    let server = try TestServer(notifications: Self.feed())
    defer { server.stop() }
    func get(_ query: String) async -> String {
      await server.raw(
        "GET /api/notifications?\(query) HTTP/1.1\r\nAuthorization: Bearer secret\r\n\r\n")
    }
    #expect(await get("unread=yes").hasPrefix("HTTP/1.1 400"))
    #expect(await get("type=").hasPrefix("HTTP/1.1 400"))
    #expect(await get("unread=false&type=ping").hasPrefix("HTTP/1.1 200"))
  }
}
