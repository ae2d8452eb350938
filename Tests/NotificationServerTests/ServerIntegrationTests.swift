import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// The live HTTP client against the development server, on an ephemeral loopback port.
@Suite(.serialized)
struct ServerIntegrationTests {
  @Test func pagingAndEveryMutationGoThroughTheServer() async throws {
    let server = try TestServer(notifications: (0..<5).map { sample("n\($0)", secondsAgo: Double($0)) })
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    let first = try await client.fetchPage(PageRequest(limit: 2))
    #expect(first.items.map(\.id) == ["n0", "n1"])
    let second = try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor))
    #expect(second.items.map(\.id) == ["n2", "n3"])
    let last = try await client.fetchPage(PageRequest(limit: 10, cursor: second.nextCursor))
    #expect(last.items.map(\.id) == ["n4"])
    // Seeded fifth: its insertion, the inbox's fifth change, is its version.
    #expect(try await client.fetchNotification("n4") == versioned(sample("n4", secondsAgo: 4), 5))
    await #expect(throws: UserFacingError.notFound) { try await client.fetchNotification("zz") }
    try await client.markAsRead("n0")
    try await client.markAsUnread("n0")
    try await client.markAllAsRead(["n1"])
    try await client.delete("n2")
    // A deleted notification is gone (410), with the cursor of its deletion: a change to it,
    // and a look-up.
    await #expect(throws: DeletedNotificationError(id: "n2", cursor: 9)) {
      try await client.delete("n2")
    }
    await #expect(throws: DeletedNotificationError(id: "n2", cursor: 9)) {
      try await client.fetchNotification("n2")
    }
    let changes = try await client.changesSince(5)
    #expect(changes.count == 4)
    try await client.deleteAll()
    #expect(try await client.fetchPage(PageRequest(limit: 10)).items.isEmpty)
  }

  @Test func aBoundedClearAllGoesThroughTheServerAndSparesNewerNotifications() async throws {
    // Ties at the bound's timestamp: the feed's order (then by id) decides, to the millisecond.
    let tiedBefore = sample("n1", secondsAgo: 2)
    let bound = sample("n2", secondsAgo: 2)
    let server = try TestServer(
      notifications: [sample("n0", secondsAgo: 1), tiedBefore, bound, sample("n3", secondsAgo: 2),
        sample("n4", secondsAgo: 3)])
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    try await client.deleteAllUpTo(FeedPosition(bound))
    let newest = [versioned(sample("n0", secondsAgo: 1), 1)]
    #expect(
      try await client.fetchPage(PageRequest(limit: 10)).items
        == newest + [versioned(tiedBefore, 2)])
    // The documented body, and its refusals.
    func clear(_ body: String) async -> String {
      await server.raw(
        "POST /api/notifications/clear HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }
    let response = await clear(#"{"upTo": "2023-11-14T22:13:18.000Z", "upToID": "n1"}"#)
    // The five insertions, the client's clear-all, then this one: the seventh change.
    #expect(response.hasPrefix("HTTP/1.1 200"))
    #expect(RawResponse(response)?.body == #"{"cursor":"7"}"#)
    #expect(try await client.fetchPage(PageRequest(limit: 10)).items == newest)
    for body in [
      #"{"upTo": "2023-11-14T22:13:18Z"}"#, #"{"upToID": "n1"}"#,
      #"{"upTo": "yesterday", "upToID": "n1"}"#,
    ] {
      let refused = await clear(body)
      #expect(refused.hasPrefix("HTTP/1.1 400"), "\(body)")
    }
    #expect(try await client.fetchPage(PageRequest(limit: 10)).items == newest)
  }

  @Test func anEntitysUnreadNotificationsGoThroughTheServer() async throws {
    func about(_ id: String, _ target: NotificationTarget, isRead: Bool = false) -> NotificationData {
      var notification = sample(id, secondsAgo: Double(id.dropFirst()) ?? 0)
      notification.target = target
      notification.isRead = isRead
      return notification
    }
    let feed = [
      about("n1", .contact(contactID: "c/1")), about("n2", .ping(pingID: "p 1", contactID: "c/1")),
      about("n3", .alert(alertID: "a1")), about("n4", .contact(contactID: "c/1"), isRead: true),
      about("n5", .contact(contactID: "+1 555&x=y;z")),
    ]
    let server = try TestServer(notifications: feed)
    defer { server.stop() }
    // As the inbox stores them: each one's insertion, in order, is its version.
    var stored = feed
    for index in stored.indices { stored[index].version = ChangeCursor(UInt64(index + 1)) }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    // Ids that need escaping in a query arrive intact.
    #expect(try await client.fetchUnread(.contact("c/1")) == [stored[0], stored[1]])
    #expect(try await client.fetchUnread(.ping("p 1")) == [stored[1]])
    #expect(try await client.fetchUnread(.alert("a1")) == [stored[2]])
    #expect(try await client.fetchUnread(.alert("nobody")) == [])
    // A phone number as an id: `+`, `&`, `=` and `;` are encoded, not read as a space or a
    // separator.
    #expect(try await client.fetchUnread(.contact("+1 555&x=y;z")) == [stored[4]])
    // The documented shape, and its refusals.
    let response = await server.raw(
      "GET /api/notifications/unread?alert=a1 HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
        + "Connection: close\r\n\r\n")
    #expect(response.hasPrefix("HTTP/1.1 200"))
    #expect(response.contains(#"{"items":[{"#))
    for query in ["", "?contact=", "?contact=c1&alert=a1", "?person=c1", "?ping=\(String(repeating: "p", count: 201))"] {
      let refused = await server.raw(
        "GET /api/notifications/unread\(query) HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
          + "Connection: close\r\n\r\n")
      #expect(refused.hasPrefix("HTTP/1.1 400"), "\(query): \(refused)")
      #expect(refused.contains("invalid_parameter"), "\(query)")
    }
  }

  /// `/unread` answers at most `limit` notifications (500 when not given) and a cursor to the
  /// rest; the client follows it.
  @Test func anEntitysUnreadNotificationsComeInBoundedPages() async throws {
    let feed = (0..<503).map { index in
      var notification = sample("n\(index)", secondsAgo: Double(index))
      notification.target = .alert(alertID: "a1")
      return notification
    }
    let server = try TestServer(notifications: feed)
    defer { server.stop() }
    struct Unread: Decodable {
      var items: [NotificationData]
      var nextCursor: String?
    }
    func unread(_ query: String) async throws -> Unread {
      let response = await server.raw(
        "GET /api/notifications/unread?alert=a1\(query) HTTP/1.1\r\n"
          + "Authorization: Bearer secret\r\nConnection: close\r\n\r\n")
      #expect(response.hasPrefix("HTTP/1.1 200"), "\(query): \(response.prefix(200))")
      let body = response.range(of: "\r\n\r\n")?.upperBound ?? response.endIndex
      return try JSONDecoder().decode(Unread.self, from: Data(response[body...].utf8))
    }
    let first = try await unread("&limit=2")
    #expect(first.items.map(\.id) == ["n0", "n1"])
    let cursor = try #require(first.nextCursor)
    let second = try await unread("&limit=2&cursor=\(cursor)")
    #expect(second.items.map(\.id) == ["n2", "n3"])
    // Without a limit: the first 500, and a cursor to the last 3.
    let unbounded = try await unread("")
    #expect(unbounded.items.map(\.id) == (0..<500).map { "n\($0)" })
    let rest = try await unread("&cursor=\(try #require(unbounded.nextCursor))")
    #expect(rest.items.map(\.id) == ["n500", "n501", "n502"])
    #expect(rest.nextCursor == nil)
    for limit in ["0", "501", "-1", "x"] {
      let refused = await server.raw(
        "GET /api/notifications/unread?alert=a1&limit=\(limit) HTTP/1.1\r\n"
          + "Authorization: Bearer secret\r\nConnection: close\r\n\r\n")
      #expect(refused.hasPrefix("HTTP/1.1 400"), "limit=\(limit): \(refused)")
    }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    #expect(try await client.fetchUnread(.alert("a1")).map(\.id) == feed.map(\.id))
  }

  @Test func againstAServerWithoutTheUnreadRouteTheClientSearchesThePages() async throws {
    var about = sample("n1", secondsAgo: 1)
    about.target = .alert(alertID: "a1")
    let others = (2..<60).map { sample("n\($0)", secondsAgo: Double($0)) }
    var last = sample("n60", secondsAgo: 60)
    last.target = .alert(alertID: "a1")
    let server = try TestServer(notifications: [about] + others + [last])
    defer { server.stop() }
    // An older server: `/unread` is read as a notification's id, which it does not have.
    let older = HTTPServer(port: 0) { request in
      if request.path == "/api/notifications/unread" { return TestServer.notFound }
      return await server.api.handle(request)
    }
    let port = try older.start()
    defer { older.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
    let client = NotificationClient.live(baseURL: url, token: "secret")
    #expect(try await client.fetchUnread(.alert("a1")).map(\.id) == ["n1", "n60"])
  }

  @Test func pagesCarryTheUnreadTotalOfTheWholeInbox() async throws {
    let server = try TestServer(
      notifications: (0..<5).map { sample("n\($0)", secondsAgo: Double($0)) })
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    let first = try await client.fetchPage(PageRequest(limit: 2))
    #expect(first.unreadTotal == 5)
    try await client.markAllAsRead(["n0", "n3"])
    #expect(try await client.fetchPage(PageRequest(limit: 2, cursor: first.nextCursor)).unreadTotal == 3)
    let response = await server.raw(
      "GET /api/notifications?limit=1 HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
        + "Connection: close\r\n\r\n")
    #expect(response.hasPrefix("HTTP/1.1 200"))
    #expect(response.contains(#""unreadTotal":3"#))
  }

  @Test func pagesSayWhichChangeTheyReflect() async throws {
    let server = try TestServer(
      notifications: (0..<5).map { sample("n\($0)", secondsAgo: Double($0)) })
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    // Seeding the inbox logged five insertions.
    #expect(try await client.fetchPage(PageRequest(limit: 2)).changeCursor == 5)
    try await client.markAllAsRead(["n0", "n3"])
    let page = try await client.fetchPage(PageRequest(limit: 2))
    #expect(page.changeCursor == 7)
    // Catching up from a page's cursor replays nothing the page has.
    #expect(try await client.changesSince(7).isEmpty)
    let response = await server.raw(
      "GET /api/notifications?limit=1 HTTP/1.1\r\nAuthorization: Bearer secret\r\n"
        + "Connection: close\r\n\r\n")
    #expect(response.contains(#""changeCursor":"7""#))
  }

  @Test func aWrongTokenIsUnauthorized() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "wrong")
    await #expect(throws: UserFacingError.unauthorized) {
      _ = try await client.fetchPage(PageRequest(limit: 1))
    }
  }

  @Test func injectedFailuresAndLatencyReachTheClient() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    server.api.updateFaults { $0.failNext = [503, 500] }
    await #expect(throws: UserFacingError.server(status: 503)) { _ = try await client.fetchPage(PageRequest(limit: 1)) }
    await #expect(throws: UserFacingError.server(status: 500)) { _ = try await client.fetchPage(PageRequest(limit: 1)) }
    server.api.updateFaults { $0.latency = .milliseconds(150) }
    let started = ContinuousClock.now
    _ = try await client.fetchPage(PageRequest(limit: 1))
    #expect(ContinuousClock.now - started >= .milliseconds(150))
  }

  @Test func aNetworkFailureIsTheNetworkError() async throws {
    let server = try TestServer()
    let url = server.baseURL
    server.stop()
    let client = NotificationClient.live(baseURL: url, token: "secret")
    await #expect(throws: UserFacingError.network) { _ = try await client.fetchPage(PageRequest(limit: 1)) }
  }

  @Test func aMalformedBodyIsRejected() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let response = await server.raw(
      "PATCH /api/notifications/read-all HTTP/1.1\r\nAuthorization: Bearer secret\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{x}")
    #expect(response.hasPrefix("HTTP/1.1 400"))
  }

  @Test func theEventStreamDeliversChangesAndResumesAfterADrop() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    // `updates` returns once the server has accepted the stream: a change made right after
    // reaches it, with no wait for the connection.
    var iterator = try await client.updates(nil).makeAsyncIterator()
    try server.inbox.insert([sample("s1")])
    let first = try await iterator.next()
    // Each insertion's cursor is the inserted notification's version.
    #expect(first?.change == .inserted(versioned(sample("s1"), 1)))
    let cursor = try #require(first?.cursor)
    // Drop the connection, change things meanwhile, and resume from the last event id.
    iterator = try await client.updates(nil).makeAsyncIterator()
    try server.inbox.insert([sample("s2")])
    var resumed = try await client.updates(cursor).makeAsyncIterator()
    let missed = try await resumed.next()
    #expect(missed?.change == .inserted(versioned(sample("s2"), 2)))
    // A change after the resume is told once, after the catch-up.
    try server.inbox.insert([sample("s3")])
    let next = try await resumed.next()
    #expect(next?.change == .inserted(versioned(sample("s3"), 3)))
    _ = iterator
  }

  @Test func aStreamTheServerRefusesFailsToOpen() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let refused = NotificationClient.live(baseURL: server.baseURL, token: "wrong")
    await #expect(throws: UserFacingError.unauthorized) { _ = try await refused.updates(nil) }
    server.api.updateFaults { $0.failNext = [503] }
    let client = NotificationClient.live(baseURL: server.baseURL, token: "secret")
    await #expect(throws: UserFacingError.server(status: 503)) { _ = try await client.updates(nil) }
    let url = server.baseURL
    server.stop()
    await #expect(throws: UserFacingError.network) {
      _ = try await NotificationClient.live(baseURL: url, token: "secret").updates(nil)
    }
  }
}

struct ServerRobustnessTests {
  @Test func unknownPathsAndMethodsGet404And405() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    #expect(await server.raw("GET /nope HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 404"))
    #expect(await server.raw("POST /api/notifications HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 405"))
    #expect(await server.raw("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
  }

  @Test func twoRequestsShareAKeptAliveConnection() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let response = await server.raw(
      "GET /health HTTP/1.1\r\n\r\nGET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(response.components(separatedBy: "HTTP/1.1 200").count == 3)
  }

  @Test func aSlowClientTimesOut() async throws {
    let server = try TestServer(token: nil, readTimeout: .milliseconds(200))
    defer { server.stop() }
    // Half a request, then nothing: the server answers 408 and closes (the helper shuts down
    // its write side, so the server sees the end of input; a 408 or a clean close are fine).
    let response = await server.raw("GET /health HTTP/1.1\r\nHost:")
    #expect(response.isEmpty || response.hasPrefix("HTTP/1.1 408") || response.hasPrefix("HTTP/1.1 400"))
  }

  @Test func randomAndTruncatedRequestsGet4xxOrACleanCloseAndTheServerKeepsServing() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    var random = SeededRandomNumberGenerator(seed: 99)
    let valid = Array("PATCH /api/notifications/x/read?limit=5 HTTP/1.1\r\nContent-Length: 4\r\n\r\nnull".utf8)
    for _ in 0..<2_000 {
      var bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &random)))
      for _ in 0..<Int.random(in: 0...3, using: &random) where !bytes.isEmpty {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      let response = await server.raw(bytes)
      let ok = response.isEmpty || response.hasPrefix("HTTP/1.1 4") || response.hasPrefix("HTTP/1.1 2")
      #expect(ok, "unexpected answer: \(response.prefix(40))")
    }
    #expect(await server.raw("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
  }
}
