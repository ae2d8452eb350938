import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// What the server did wrong under a new user's probing, each pinned through a real socket:
/// connections and streams over the limits, the scheme of a token in another case, a body that
/// is almost JSON, a 500 that showed the server's files.
@Suite(.serialized)
struct ServerHardeningTests {
  /// A connection beyond the limit is answered 503 even when many are: with the cap of 64
  /// answers in flight, the connections after them were reset unanswered.
  @Test func everyConnectionBeyondTheLimitGets503WithRetryAfter() async throws {
    let server = try TestServer(token: nil, readTimeout: .seconds(30)) {
      $0.maximumConnections = 10
    }
    defer { server.stop() }
    let port = server.port
    let answers = await onThread { () -> [String] in
      // Idle connections that fill the server, kept open until the end.
      let held = (0..<10).compactMap { _ in RawConnection(port: port) }
      Thread.sleep(forTimeInterval: 0.2)
      let extra = (0..<90).compactMap { _ in RawConnection(port: port) }
      let answers = extra.map { $0.readAll() }
      withExtendedLifetime(held) {}
      return answers
    }
    #expect(answers.count == 90)
    let statuses = answers.map { RawResponse($0)?.status }
    #expect(statuses == Array(repeating: 503, count: 90))
    #expect(answers.allSatisfy { RawResponse($0)?.headers["retry-after"] == "1" })
  }

  /// The handshake of an event stream has a limit of its own: 100 streams opening at once on
  /// a server that runs 4 handlers at a time all open (60 of 300 got 503 before).
  @Test func manyStreamsOpeningAtOnceDoNotCountAgainstTheRequests() async throws {
    let server = try TestServer(token: nil) {
      $0.maximumConcurrentRequests = 4
    }
    defer { server.stop() }
    let port = server.port
    let heads = await onThread { () -> [String] in
      let streams = (0..<100).compactMap { _ in RawConnection(port: port) }
      for stream in streams { stream.send(EventStreamTests.streamRequest) }
      return streams.map { $0.read(until: "\r\n\r\n", timeout: .seconds(15)) }
    }
    #expect(heads.count == 100)
    #expect(heads.allSatisfy { $0.hasPrefix("HTTP/1.1 200") })
    // Plain requests still run.
    let health = await server.raw("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(health.hasPrefix("HTTP/1.1 200"))
  }

  @Test func streamsBeyondTheirLimitGet503() async throws {
    let server = try TestServer(token: nil) { $0.maximumStreams = 2 }
    defer { server.stop() }
    let port = server.port
    let heads = await onThread { () -> [String] in
      let streams = (0..<3).compactMap { _ in RawConnection(port: port) }
      var heads: [String] = []
      for stream in streams {
        stream.send(EventStreamTests.streamRequest)
        heads.append(stream.read(until: "\r\n\r\n", timeout: .seconds(15)))
      }
      return heads
    }
    #expect(heads.count == 3)
    #expect(heads[0].hasPrefix("HTTP/1.1 200") && heads[1].hasPrefix("HTTP/1.1 200"))
    #expect(heads[2].hasPrefix("HTTP/1.1 503"))
    #expect(heads[2].contains("Too many event streams open; retry later"))
  }

  @Test func theBearerSchemeIsReadInAnyCase() async throws {
    let server = try TestServer(notifications: [sample("n1")])
    defer { server.stop() }
    for header in ["Bearer secret", "bearer secret", "BEARER secret", "bEaReR  secret"] {
      let response = await server.raw(
        "GET /api/notifications HTTP/1.1\r\nAuthorization: \(header)\r\nConnection: close\r\n\r\n")
      #expect(response.hasPrefix("HTTP/1.1 200"), "\(header)")
    }
    for header in ["Bearer wrong", "Basic secret", "secret", "Bearer"] {
      let response = await server.raw(
        "GET /api/notifications HTTP/1.1\r\nAuthorization: \(header)\r\nConnection: close\r\n\r\n")
      #expect(response.hasPrefix("HTTP/1.1 401"), "\(header)")
    }
  }

  /// Foundation's decoder takes a trailing comma and a key given twice; the API does not.
  @Test func aBodyThatIsAlmostJSONIs400() async throws {
    let server = try TestServer(notifications: [sample("n1"), sample("n2")])
    defer { server.stop() }
    for body in [#"{"ids": ["n1",]}"#, #"{"ids": ["n1"],}"#, #"{"ids": ["n1"], "ids": ["n2"]}"#,
      #"{"ids": ["n1"]} // all"#, "{'ids': ['n1']}"]
    {
      let response = await server.raw(
        "PATCH /api/notifications/read-all HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
      #expect(response.hasPrefix("HTTP/1.1 400"), "\(body)")
      #expect(response.contains(#""error":"invalid_body""#), "\(body)")
    }
    #expect(try server.inbox.unreadCount() == 2)
  }

  /// A 500 says the inbox failed and nothing of where the server keeps it; the reason goes to
  /// the server's log.
  @Test func anInternalErrorShowsNoServerPathAndIsLogged() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-corrupt-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("inbox.sqlite")
    try Data("not a database, not at all, but long enough to be read as one".utf8).write(to: url)
    let logged = LockedState<[String]>([])
    let api = NotificationAPI(inbox: LocalInbox(url: url), token: nil) { line in
      logged.withLock { $0.append(line) }
    }
    let response = await api.handle(HTTPRequest(method: "GET", path: "/api/notifications"))
    #expect(response.status == 500)
    guard case .data(let body) = response.body else {
      Issue.record("a 500 has a body")
      return
    }
    let text = String(decoding: body, as: UTF8.self)
    #expect(
      text == #"{"error":"internal_error","message":"The server's inbox failed; its log says why."}"#)
    #expect(!text.contains(folder.path))
    // The same through a socket: the bytes a client reads hold no path either.
    let server = HTTPServer(port: 0, handler: api.handle)
    let port = try server.start()
    defer { server.stop() }
    let answer = await TestServer.raw(
      Array("GET /api/notifications HTTP/1.1\r\nConnection: close\r\n\r\n".utf8), port: port)
    #expect(answer.hasPrefix("HTTP/1.1 500"))
    #expect(answer.hasSuffix(text))
    #expect(!answer.contains(folder.path))
    let lines = logged.withLock { $0 }
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.contains(url.path) })
  }
}
