import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// The server's limits and deadlines: connections, concurrent handlers, slow clients, slow
/// handlers. Each answer is checked exactly.
struct ServerLimitsTests {
  static func error(_ code: String, _ message: String) -> String {
    #"{"error":"\#(code)","message":"\#(message)"}"#
  }

  /// Asks `/health` on a new connection until it answers 200 or a second passes.
  static func healthRecovers(port: Int) -> Bool {
    let deadline = ContinuousClock.now + .seconds(1)
    while ContinuousClock.now < deadline {
      let text = TestServer.rawBlocking(Array("GET /health HTTP/1.1\r\n\r\n".utf8), port: port)
      if text.hasPrefix("HTTP/1.1 200") { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  @Test func aConnectionBeyondTheLimitGets503WithRetryAfterUntilOneCloses() async throws {
    // Idle connections stay open for the whole test.
    let server = try TestServer(token: nil, readTimeout: .seconds(30)) {
      $0.maximumConnections = 2
      $0.retryAfterSeconds = 3
    }
    defer { server.stop() }
    let port = server.port
    let (rejected, recovered) = await onThread { () -> (String, Bool) in
      var first = RawConnection(port: port)
      let second = RawConnection(port: port)
      // An event stream holds its connection too.
      second?.send(EventStreamTests.streamRequest)
      _ = second?.read(until: "\r\n\r\n", timeout: .seconds(15))
      let rejected = TestServer.rawBlocking(Array("GET /health HTTP/1.1\r\n\r\n".utf8), port: port)
      first = nil
      _ = first
      return (rejected, Self.healthRecovers(port: port))
    }
    let response = RawResponse(rejected)
    #expect(response?.status == 503)
    #expect(response?.headers["retry-after"] == "3")
    #expect(response?.body == Self.error("overloaded", "Too many connections; retry later"))
    #expect(recovered)
  }

  @Test func aClientLeavingItsEventStreamFreesItsConnection() async throws {
    let server = try TestServer(token: nil) { $0.maximumConnections = 1 }
    defer { server.stop() }
    let port = server.port
    let recovered = await onThread { () -> Bool in
      do {
        let stream = RawConnection(port: port)
        stream?.send(EventStreamTests.streamRequest)
        _ = stream?.read(until: "\r\n\r\n", timeout: .seconds(15))
      }
      return Self.healthRecovers(port: port)
    }
    #expect(recovered)
  }

  @Test func aRequestBeyondTheConcurrentHandlersGets503() async throws {
    var configuration = HTTPServer.Configuration()
    configuration.maximumConcurrentRequests = 1
    let server = HTTPServer(port: 0, configuration: configuration) { request in
      if request.path == "/slow" { try? await Task.sleep(for: .milliseconds(500)) }
      return .text("done", status: 200)
    }
    let port = try server.start()
    defer { server.stop() }
    let (slow, busy, after) = await onThread { () -> (String, String, String) in
      let slow = RawConnection(port: port)
      slow?.send("GET /slow HTTP/1.1\r\nConnection: close\r\n\r\n")
      Thread.sleep(forTimeInterval: 0.1)
      let busy = TestServer.rawBlocking(Array("GET /fast HTTP/1.1\r\n\r\n".utf8), port: port)
      let answer = slow?.readAll() ?? ""
      let after = TestServer.rawBlocking(Array("GET /fast HTTP/1.1\r\n\r\n".utf8), port: port)
      return (answer, busy, after)
    }
    #expect(RawResponse(slow)?.body == "done\n")
    let response = RawResponse(busy)
    #expect(response?.status == 503)
    #expect(response?.headers["retry-after"] == "1")
    #expect(response?.body == Self.error("overloaded", "Too many requests in progress; retry later"))
    #expect(RawResponse(after)?.body == "done\n")
  }

  @Test func aHandlerPastTheResponseTimeoutGets503AndIsCancelled() async throws {
    var configuration = HTTPServer.Configuration()
    configuration.responseTimeout = .milliseconds(100)
    let cancelled = LockedState(false)
    let server = HTTPServer(port: 0, configuration: configuration) { _ in
      do {
        try await Task.sleep(for: .seconds(10))
      } catch {
        cancelled.withLock { $0 = true }
      }
      return .text("late", status: 200)
    }
    let port = try server.start()
    defer { server.stop() }
    let (response, elapsed) = await onThread { () -> (String, Duration) in
      let started = ContinuousClock.now
      let response = TestServer.rawBlocking(Array("GET / HTTP/1.1\r\n\r\n".utf8), port: port)
      return (response, ContinuousClock.now - started)
    }
    #expect(elapsed < .seconds(5))
    let parsed = RawResponse(response)
    #expect(parsed?.status == 503)
    #expect(parsed?.headers["retry-after"] == "1")
    #expect(
      parsed?.body == Self.error("response_timeout", "The server took too long to answer; retry later"))
    try await Task.sleep(for: .milliseconds(50))
    #expect(cancelled.withLock { $0 })
  }

  @Test func aClientTricklingBytesGets408AtTheRequestDeadline() async throws {
    let server = try TestServer(token: nil, readTimeout: .milliseconds(300))
    defer { server.stop() }
    let port = server.port
    let (text, elapsed) = await onThread { () -> (String, Duration?) in
      let started = ContinuousClock.now
      guard let connection = RawConnection(port: port) else { return ("", nil) }
      // One byte every 20 ms for up to 3 seconds: each read is quick, the request never
      // completes. The answer comes at the request's deadline, while the client still sends.
      var answer: [UInt8] = []
      connection.send("GET /health HTTP/1.1\r\nX-Slow: ")
      for byte in Array(repeating: UInt8(ascii: "a"), count: 150) {
        _ = connection.send([byte])
        answer += connection.readAvailable()
        if !answer.isEmpty { break }
        Thread.sleep(forTimeInterval: 0.02)
      }
      let elapsed = answer.isEmpty ? nil : ContinuousClock.now - started
      return (String(decoding: answer, as: UTF8.self) + connection.readAll(), elapsed)
    }
    let response = RawResponse(text)
    #expect(response?.status == 408)
    #expect(response?.body == Self.error("request_timeout", "Request timed out"))
    #expect(elapsed.map { $0 < .seconds(2) } == true, "answered after \(String(describing: elapsed))")
  }

  @Test func aThousandSlowConnectionsDoNotDelayHealth() async throws {
    // The slow connections stay open for the whole test: none times out to make room.
    let server = try TestServer(token: nil, readTimeout: .seconds(20))
    defer { server.stop() }
    let port = server.port
    let (held, health, elapsed) = await onThread { () -> (Int, String, Duration) in
      var slow: [RawConnection] = []
      for _ in 0..<1_000 {
        guard let connection = RawConnection(port: port) else { break }
        connection.send("GET /health HTTP/1.1\r\nHost: x")
        slow.append(connection)
      }
      let started = ContinuousClock.now
      let health = TestServer.rawBlocking(Array("GET /health HTTP/1.1\r\n\r\n".utf8), port: port)
      let elapsed = ContinuousClock.now - started
      // The slow ones were waiting, not dropped: the last one finishes its request.
      slow.last?.send("\r\nConnection: close\r\n\r\n")
      let finished = slow.last?.readAll() ?? ""
      return (slow.count, health + finished, elapsed)
    }
    #expect(held == 1_000)
    #expect(health.components(separatedBy: "HTTP/1.1 200").count == 3)
    #expect(health.hasPrefix("HTTP/1.1 200"))
    // Typically a few milliseconds; the bound leaves room for a loaded 2-core machine, where
    // the handler waits for a thread of the concurrency pool.
    #expect(elapsed < .seconds(2))
  }
}
