import Foundation
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// Every change route answers `200 {"cursor": "N"}`, the cursor of the inbox's log right after
/// the change, and applies a change once per `Idempotency-Key`: a request sent again with its
/// key (a retry after a lost answer) is answered as the first time and changes nothing.
@Suite(.serialized)
struct IdempotentChangeTests {
  static let feed = (0..<5).map { sample("n\($0)", secondsAgo: Double($0)) }

  /// Sends a change with `key` as its `Idempotency-Key` (none when `nil`).
  func change(
    _ method: String, _ path: String, key: String?, body: String = "", on server: TestServer
  ) async -> RawResponse? {
    let header = key.map { "Idempotency-Key: \($0)\r\n" } ?? ""
    return await server.request(
      "\(method) \(path) HTTP/1.1\r\nAuthorization: Bearer secret\r\n\(header)"
        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
  }

  static func answer(_ cursor: Int) -> String { #"{"cursor":"\#(cursor)"}"# }

  @Test func everyChangeRouteAnswersTheCursorAfterIt() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    // Seeding logged five insertions: the changes are the sixth on.
    let routes: [(String, String, String)] = [
      ("PATCH", "/api/notifications/n1/read", ""),
      ("PATCH", "/api/notifications/n1/unread", ""),
      ("PATCH", "/api/notifications/read-all", #"{"ids": ["n2"]}"#),
      ("DELETE", "/api/notifications/n3", ""),
      ("POST", "/api/notifications/clear", #"{"upTo":"2023-11-14T22:13:16.000Z","upToID":"n4"}"#),
      ("POST", "/api/notifications/clear", #"{"everything": true}"#),
    ]
    for (offset, (method, path, body)) in routes.enumerated() {
      let response = await change(method, path, key: UUID().uuidString, body: body, on: server)
      #expect(response?.status == 200, "\(method) \(path)")
      #expect(response?.headers["content-type"] == "application/json", "\(method) \(path)")
      #expect(response?.body == Self.answer(6 + offset), "\(method) \(path)")
    }
    #expect(try server.inbox.count() == 0)
    // A change that changes nothing answers the newest cursor; one without a key is made too.
    let unchanged = await change("PATCH", "/api/notifications/read-all", key: nil, on: server)
    #expect(unchanged?.status == 200)
    #expect(unchanged?.body == Self.answer(11))
  }

  @Test func aRepeatedKeyIsAnsweredAsTheFirstTimeAndChangesNothing() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    let read = UUID().uuidString
    let first = await change("PATCH", "/api/notifications/n1/read", key: read, on: server)
    #expect(first?.body == Self.answer(6))
    let unread = await change(
      "PATCH", "/api/notifications/n1/unread", key: UUID().uuidString, on: server)
    #expect(unread?.body == Self.answer(7))
    // The first request again (its answer was lost): its answer, and n1 stays unread.
    let again = await change("PATCH", "/api/notifications/n1/read", key: read, on: server)
    #expect(again?.status == 200)
    #expect(again?.body == Self.answer(6))
    #expect(try await server.inbox.notificationClient.fetchNotification("n1").isRead == false)
    #expect(try await server.inbox.notificationClient.changesSince(7) == [])
    // A delete sent again is answered as it was, not 404.
    let delete = UUID().uuidString
    let deleted = await change("DELETE", "/api/notifications/n2", key: delete, on: server)
    #expect(deleted?.body == Self.answer(8))
    let deleteAgain = await change("DELETE", "/api/notifications/n2", key: delete, on: server)
    #expect(deleteAgain?.status == 200)
    #expect(deleteAgain?.body == Self.answer(8))
    // The key is a UUID in any case.
    let lowercased = await change(
      "DELETE", "/api/notifications/n2", key: delete.lowercased(), on: server)
    #expect(lowercased?.body == Self.answer(8))
    #expect(try server.inbox.count() == 4)
  }

  @Test func aKeyThatIsNotAUUIDIsRefusedAndChangesNothing() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    for key in ["", "abc", "42", UUID().uuidString + "0"] {
      let response = await change("DELETE", "/api/notifications/n1", key: key, on: server)
      #expect(response?.status == 400, "\(key)")
      #expect(response?.body.contains(#""error":"invalid_parameter""#) == true, "\(key)")
    }
    #expect(try server.inbox.count() == 5)
    #expect(try await server.inbox.notificationClient.changesSince(5) == [])
  }

  @Test func theClientSendsTheChangeIDAsTheKey() async throws {
    let server = try TestServer(notifications: Self.feed)
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    let unread = ChangeRequest(id: UUID(), .markAsUnread("n0"))
    #expect(try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0"))) == 6)
    #expect(try await client.apply(unread) == 7)
    #expect(try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n0"))) == 8)
    // Sent again: answered as the first time, n0 left read.
    #expect(try await client.apply(unread) == 7)
    #expect(try await client.fetchNotification("n0") == versioned(sample("n0"), 8).read)
    let delete = ChangeRequest(id: UUID(), .delete("n1"))
    #expect(try await client.apply(delete) == 9)
    #expect(try await client.apply(delete) == 9)
  }
}

extension NotificationData {
  /// The notification, read.
  fileprivate var read: NotificationData {
    var notification = self
    notification.isRead = true
    return notification
  }
}
