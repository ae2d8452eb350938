import Foundation
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// The event stream on the wire: how long it stays open and what it sends.
struct EventStreamTests {
  static let streamRequest =
    "GET /api/notifications/stream HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n"

  @Test func theStreamOutlivesTheReadTimeoutAndStillDeliversChanges() async throws {
    let server = try TestServer(token: nil, readTimeout: .milliseconds(200))
    defer { server.stop() }
    let port = server.port
    let inbox = server.inbox
    let text = await onThread { () -> String in
      guard let connection = RawConnection(port: port, receiveTimeout: .seconds(15)) else { return "" }
      connection.send(Self.streamRequest)
      var text = connection.read(until: "\r\n\r\n", timeout: .seconds(15))
      // Five read timeouts of silence from the client.
      Thread.sleep(forTimeInterval: 1)
      try? inbox.insert([sample("late")])
      text += connection.read(until: #""id":"late""#, timeout: .seconds(15))
      // Still open after the change: a second one arrives too.
      Thread.sleep(forTimeInterval: 0.5)
      try? inbox.insert([sample("later")])
      text += connection.read(until: #""id":"later""#, timeout: .seconds(15))
      return text
    }
    #expect(text.hasPrefix("HTTP/1.1 200"))
    #expect(text.contains(#""id":"late""#))
    #expect(text.contains(#""id":"later""#))
  }

  @Test func eachChangeIsSentOnce() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let port = server.port
    let inbox = server.inbox
    let client = inbox.notificationClient
    let text = await onThread { () -> String in
      guard let connection = RawConnection(port: port, receiveTimeout: .milliseconds(100)) else { return "" }
      connection.send(Self.streamRequest)
      var text = connection.read(until: "\r\n\r\n", timeout: .seconds(15))
      try? inbox.insert([sample("once")])
      let done = DispatchSemaphore(value: 0)
      Task {
        try? await client.markAsRead("once")
        done.signal()
      }
      done.wait()
      text += connection.read(until: "event: updated", timeout: .seconds(15))
      // Long enough for the inbox to poll its log (every 50 ms here) a few times.
      text += connection.read(until: "never", timeout: .milliseconds(500))
      return text
    }
    let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
    let events = body.components(separatedBy: "\n\n").filter { $0.contains("event:") }
    #expect(events.count == 2, "\(events)")
    #expect(events.first?.hasPrefix("event: inserted\nid: 1\n") == true)
    #expect(events.last?.hasPrefix("event: updated\nid: 2\n") == true)
  }
}

extension EventStreamTests {
  @Test func heartbeatsKeepAQuietStreamOpenPastTheReadTimeout() async throws {
    let server = try TestServer(token: nil, readTimeout: .milliseconds(100)) {
      $0.heartbeatInterval = .milliseconds(100)
    }
    defer { server.stop() }
    let port = server.port
    let inbox = server.inbox
    let text = await onThread { () -> String in
      guard let connection = RawConnection(port: port, receiveTimeout: .seconds(15)) else { return "" }
      connection.send(Self.streamRequest)
      // Heartbeats start with the stream: once its head is in (under load, the handler may
      // take a while to be scheduled).
      var text = connection.read(until: "\r\n\r\n", timeout: .seconds(15))
      text += connection.read(until: "never", timeout: .milliseconds(1_000))
      try? inbox.insert([sample("after")])
      // The change reaches the stream through tasks of the shared pool, where every test of
      // the run is queued at its start: under load (two sanitized runs at once) that took more
      // than 15 s, while the heartbeats, written by the server's own thread, went on.
      text += connection.read(until: "event: inserted", timeout: .seconds(60))
      return text
    }
    #expect(text.hasPrefix("HTTP/1.1 200"))
    let heartbeats = text.components(separatedBy: ": heartbeat\n\n").count - 1
    // Ten are due; a loaded 2-core machine may delay a few.
    #expect(heartbeats >= 3, "\(heartbeats) heartbeats in a second at 100 ms")
    #expect(text.contains("event: inserted\n"))
  }

  @Test func stoppingTheServerEndsTheStream() async throws {
    let server = try TestServer(token: nil)
    let port = server.port
    let (rest, elapsed) = await onThread { () -> (String, Duration) in
      guard let connection = RawConnection(port: port, receiveTimeout: .seconds(15)) else {
        return ("unconnected", .zero)
      }
      connection.send(Self.streamRequest)
      _ = connection.read(until: "\r\n\r\n", timeout: .seconds(15))
      let started = ContinuousClock.now
      server.stop()
      return (connection.readAll(), ContinuousClock.now - started)
    }
    #expect(rest == "")
    #expect(elapsed < .seconds(2))
  }
}
