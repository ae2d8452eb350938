import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// Ids are checked where they come in: a path segment that is empty, `.` or `..` (which a URL
/// resolves away) never reaches the inbox, paths match exactly, and deleting everything is a
/// request of its own that names what it deletes. Before, `DELETE /api/notifications/` (what the
/// client built for the id '' or '.') answered 204 and deleted every notification.
@Suite(.serialized)
struct IDAtTheEdgeTests {
  static let feed = (0..<5).map { sample("n\($0)", secondsAgo: Double($0)) }

  func request(_ method: String, _ target: String, body: String = "", on server: TestServer)
    async -> String
  {
    await server.raw(
      "\(method) \(target) HTTP/1.1\r\nAuthorization: Bearer secret\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
  }

  @Test func aTrailingSlashIsNoRouteAndDeletesNothing() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    for target in ["/api/notifications/", "/api/notifications//read", "/api/notifications/n1/"] {
      let response = await request("DELETE", target, on: server)
      #expect(response.hasPrefix("HTTP/1.1 404"), "\(target): \(response.prefix(40))")
    }
    #expect(try server.inbox.count() == 5)
  }

  @Test func aDotSegmentIsNotAnID() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    for segment in [".", "..", "%2E", "%2e%2E", "%00", "a%0Ab", String(repeating: "x", count: 201)] {
      for (method, target) in [
        ("DELETE", "/api/notifications/\(segment)"), ("GET", "/api/notifications/\(segment)"),
        ("PATCH", "/api/notifications/\(segment)/read"),
      ] {
        let response = await request(method, target, on: server)
        #expect(response.hasPrefix("HTTP/1.1 400"), "\(method) \(target.prefix(60))")
        #expect(response.contains(#""error":"invalid_id""#), "\(method) \(target.prefix(60))")
      }
    }
    #expect(try server.inbox.count() == 5)
  }

  @Test func theCollectionCannotBeDeletedAndAClearAllNamesWhatItDeletes() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    #expect(await request("DELETE", "/api/notifications", on: server).hasPrefix("HTTP/1.1 405"))
    for body in ["", "{}", #"{"everything": false}"#, #"{"upTo": "2023-11-14T22:13:18Z"}"#,
      #"{"upToID": "n1"}"#, #"{"upTo": "2023-11-14T22:13:18Z", "upToID": "", "everything": true}"#]
    {
      let response = await request("POST", "/api/notifications/clear", body: body, on: server)
      #expect(response.hasPrefix("HTTP/1.1 400"), "\(body): \(response.prefix(40))")
    }
    #expect(try server.inbox.count() == 5)
    let everything = await request(
      "POST", "/api/notifications/clear", body: #"{"everything": true}"#, on: server)
    // Answered with its cursor: the five insertions, then the clear-all.
    #expect(everything.hasPrefix("HTTP/1.1 200"))
    #expect(RawResponse(everything)?.body == #"{"cursor":"6"}"#)
    #expect(try server.inbox.count() == 0)
  }

  @Test func theClientRefusesAnIDThatIsNotOneAndTheServerKeepsEverything() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    for id in ["", ".", "..", "a\nb", String(repeating: "x", count: 201)] {
      await #expect(throws: UserFacingError.self) { try await client.delete(id) }
      await #expect(throws: UserFacingError.self) { try await client.markAsRead(id) }
      await #expect(throws: UserFacingError.self) { try await client.fetchNotification(id) }
    }
    await #expect(throws: UserFacingError.invalidData(reason: "Not a notification id: an id is not empty")) {
      try await client.delete("")
    }
    #expect(try server.inbox.count() == 5)
  }

  @Test func anIDWithASlashOrADotIsOneSegment() async throws {
    let odd = ["a/b", "a.b", ".hidden", "a%2Fb", "a b?c#d"].map { sample($0, secondsAgo: 1) }
    let server = try TestServer(notifications: Self.feed + odd)
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    for (index, notification) in odd.enumerated() {
      // Inserted after the five of the feed: its insertion is its version.
      #expect(
        try await client.fetchNotification(notification.id)
          == versioned(notification, ChangeCursor(UInt64(index + 6))))
      try await client.markAsRead(notification.id)
      let stored = try await server.inbox.notificationClient.fetchNotification(notification.id)
      #expect(stored.isRead)
      try await client.delete(notification.id)
    }
    #expect(try server.inbox.count() == 5)
  }
}
