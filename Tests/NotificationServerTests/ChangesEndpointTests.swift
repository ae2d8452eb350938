import Foundation
import NotificationClients
import NotificationFeature
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
    var read = sample("n1")
    read.isRead = true
    let response = await server.request(
      "GET /api/notifications/changes?since=0 HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(response?.status == 200)
    #expect(response?.headers["content-type"] == "application/json")
    let expected =
      #"[{"cursor":"1","kind":"inserted","notification":\#(try Self.json(sample("n1")))},"#
      + #"{"cursor":"2","kind":"updated","notification":\#(try Self.json(read))},"#
      + #"{"cursor":"3","id":"n1","kind":"deleted"},"#
      + #"{"cursor":"4","kind":"snapshot","notifications":[]}]"#
    #expect(response?.body == expected)
  }

  @Test func theClientReadsTheChangesTheServerSends() async throws {
    let server = try TestServer()
    defer { server.stop() }
    try server.inbox.insert([sample("n1")])
    try await server.inbox.notificationClient.delete("n1")
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    #expect(
      try await client.changesSince(0) == [
        NotificationEvent(.inserted(sample("n1")), cursor: 1),
        NotificationEvent(.deleted(id: "n1"), cursor: 2),
      ])
  }
}
