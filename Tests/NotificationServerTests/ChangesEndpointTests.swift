import Foundation
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// `GET /api/notifications/changes` in its documented JSON shape, and the client reading it.
struct ChangesEndpointTests {
  static func json(_ notification: NotificationData) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(notification), as: UTF8.self)
  }

  @Test func changesUseTheDocumentedShape() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let client = server.inbox.notificationClient
    try server.inbox.insert([sample("n1")])
    try await client.markAsRead("n1")
    try await client.delete("n1")
    try await client.deleteAll()
    // A notification's version is the cursor of the change that made it so.
    var inserted = sample("n1")
    inserted.version = 1
    var read = inserted
    read.isRead = true
    read.version = 2
    let response = await server.request(
      "GET /api/notifications/changes?since=0 HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(response?.status == 200)
    #expect(response?.headers["content-type"] == "application/json")
    let expected =
      #"[{"cursor":"1","kind":"inserted","notification":\#(try Self.json(inserted))},"#
      + #"{"cursor":"2","kind":"updated","notification":\#(try Self.json(read))},"#
      + #"{"cursor":"3","id":"n1","kind":"deleted"},"#
      + #"{"cursor":"4","kind":"snapshot","notifications":[]}]"#
    #expect(response?.body == expected)
    // On the wire a version is a string of digits, as a cursor is.
    #expect(response?.body.contains(#""type":"ping","version":"2"}"#) == true)
  }

  @Test func theClientReadsTheChangesTheServerSends() async throws {
    let server = try TestServer()
    defer { server.stop() }
    try server.inbox.insert([sample("n1")])
    try await server.inbox.notificationClient.delete("n1")
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    var inserted = sample("n1")
    inserted.version = 1
    #expect(
      try await client.changesSince(0) == [
        NotificationEvent(.inserted(inserted), cursor: 1),
        NotificationEvent(.deleted(id: "n1"), cursor: 2),
      ])
  }
}
