import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// The HTTP client's event stream against a server that sends fixed Server-Sent Events text.
struct HTTPEventStreamTests {
  static let notification = NotificationData(
    id: "n1", type: .ping, title: "T", message: "M",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000),
    target: .ping(pingID: "p", contactID: "c"))

  static var json: String {
    String(decoding: (try? JSONEncoder().encode(notification)) ?? Data(), as: UTF8.self)
  }

  /// Serves `text` as the body of every event-stream response.
  static func serving(_ text: String) throws -> (HTTPServer, NotificationClient) {
    let server = HTTPServer(port: 0) { _ in
      HTTPResponse(
        status: 200, headers: ["Content-Type": "text/event-stream"], body: .data(Data(text.utf8)))
    }
    let port = try server.start()
    let url = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    return (server, NotificationClient.live(baseURL: url, token: nil))
  }

  @Test func eventsEndingInCRLFAreParsed() async throws {
    let (server, client) = try Self.serving(
      ": hello\r\n\r\nevent: inserted\r\nid: 1\r\ndata: \(Self.json)\r\n\r\n"
        + "event: deleted\r\nid: 2\r\ndata: {\"id\":\"n1\"}\r\n\r\n")
    defer { server.stop() }
    var events = try await client.updates(nil).makeAsyncIterator()
    #expect(try await events.next() == NotificationEvent(.inserted(Self.notification), cursor: 1))
    #expect(try await events.next() == NotificationEvent(.deleted(id: "n1"), cursor: 2))
  }

  @Test func eventsEndingInLFAreParsed() async throws {
    let (server, client) = try Self.serving(
      ": heartbeat\n\nevent: updated\nid: 3\ndata: \(Self.json)\n\n")
    defer { server.stop() }
    var events = try await client.updates(nil).makeAsyncIterator()
    #expect(try await events.next() == NotificationEvent(.updated(Self.notification), cursor: 3))
  }

  @Test func anEventWhoseDataDoesNotDecodeFailsTheStreamWithInvalidData() async throws {
    let (server, client) = try Self.serving(
      "event: inserted\r\nid: 4\r\ndata: {\"id\":\"n1\"}\r\n\r\n"
        + "event: deleted\r\nid: 5\r\ndata: {\"id\":\"n1\"}\r\n\r\n")
    defer { server.stop() }
    var events = try await client.updates(nil).makeAsyncIterator()
    await #expect(
      throws: UserFacingError.invalidData(
        reason: #"event "inserted" with id 4: missing field "timestamp""#)
    ) {
      _ = try await events.next()
    }
  }
}

extension HTTPEventStreamTests {
  @Test func anUnknownEventIsReportedAndSkipped() async throws {
    let (server, client) = try Self.serving(
      "event: ping\r\ndata: {}\r\n\r\nevent: deleted\r\nid: 6\r\ndata: {\"id\":\"n1\"}\r\n\r\n")
    defer { server.stop() }
    let issues = LockedState<[String]>([])
    let reporter = IssueReporter { message, _ in issues.withLock { $0.append(message) } }
    var events = try await withDependencies {
      $0.issueReporter = reporter
    } operation: {
      try await client.updates(nil).makeAsyncIterator()
    }
    #expect(try await events.next() == NotificationEvent(.deleted(id: "n1"), cursor: 6))
    let reported: [String] = issues.withLock { $0 }
    #expect(reported == [#"Skipped an event of the stream the client does not know: "ping""#])
  }
}
