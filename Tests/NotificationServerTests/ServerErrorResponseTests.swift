import Foundation
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// Every error the server answers, with its exact JSON body (documented in `Docs/HTTP-API.md`).
struct ServerErrorResponseTests {
  static func error(_ code: String, _ message: String) -> String {
    #"{"error":"\#(code)","message":"\#(message)"}"#
  }

  @Test func negativeNonNumericOrHugePagingParametersGet400() async throws {
    let server = try TestServer(token: nil, notifications: [sample("n1")])
    defer { server.stop() }
    let cases: [(query: String, message: String)] = [
      // Pages are asked by the cursor of the page before, never by position.
      ("offset=0", "offset is not taken: ask for the next page with cursor"),
      ("offset=50", "offset is not taken: ask for the next page with cursor"),
      ("cursor=-1", "cursor must be a page's nextCursor, not -1"),
      ("cursor=50", "cursor must be a page's nextCursor, not 50"),
      ("cursor=k1.zz", "cursor must be a page's nextCursor, not k1.zz"),
      ("limit=0", "limit must be a whole number from 1 to 500, not 0"),
      ("limit=-5", "limit must be a whole number from 1 to 500, not -5"),
      ("limit=501", "limit must be a whole number from 1 to 500, not 501"),
      ("limit=9223372036854775807", "limit must be a whole number from 1 to 500, not 9223372036854775807"),
      ("limit=ten", "limit must be a whole number from 1 to 500, not ten"),
    ]
    for (query, message) in cases {
      let response = await server.request(
        "GET /api/notifications?\(query) HTTP/1.1\r\nConnection: close\r\n\r\n")
      #expect(response?.status == 400, "\(query)")
      #expect(response?.headers["content-type"] == "application/json", "\(query)")
      #expect(response?.body == Self.error("invalid_parameter", message), "\(query)")
    }
    let page = await server.request("GET /api/notifications?limit=500 HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(page?.status == 200)
  }

  @Test func aBadOrMissingChangesCursorGets400() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let cases: [(query: String, message: String)] = [
      ("since=-1", "since must be a whole number from 0 to 1000000000, not -1"),
      ("since=later", "since must be a whole number from 0 to 1000000000, not later"),
      ("since=10000000000", "since must be a whole number from 0 to 1000000000, not 10000000000"),
      ("", "since is required"),
    ]
    for (query, message) in cases {
      let response = await server.request(
        "GET /api/notifications/changes?\(query) HTTP/1.1\r\nConnection: close\r\n\r\n")
      #expect(response?.status == 400, "\(query)")
      #expect(response?.body == Self.error("invalid_parameter", message), "\(query)")
    }
  }

  @Test func aBadLastEventIDGets400() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let response = await server.request(
      "GET /api/notifications/stream HTTP/1.1\r\nLast-Event-ID: -1\r\nConnection: close\r\n\r\n")
    #expect(response?.status == 400)
    #expect(
      response?.body
        == Self.error("invalid_parameter", "Last-Event-ID must be a whole number from 0 to 1000000000, not -1"))
  }

  @Test func healthAnswersGetAndHeadOnly() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let head = await server.raw("HEAD /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(head.hasPrefix("HTTP/1.1 200"))
    #expect(head.contains("Content-Length: 3\r\n"))
    #expect(head.hasSuffix("\r\n\r\n"))
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
      let response = await server.request("\(method) /health HTTP/1.1\r\nConnection: close\r\n\r\n")
      #expect(response?.status == 405, "\(method)")
      #expect(response?.headers["allow"] == "GET, HEAD", "\(method)")
      #expect(
        response?.body == Self.error("method_not_allowed", "/health answers GET and HEAD"),
        "\(method)")
    }
  }

  @Test func aWrongMethodOnTheAPIGets405WithAJSONBody() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let response = await server.request("POST /api/notifications HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(response?.status == 405)
    #expect(response?.body == Self.error("method_not_allowed", "POST is not allowed on /api/notifications"))
  }

  @Test func aBareLFRequestGets400() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    for request in [
      "GET /health HTTP/1.1\n\n",
      "GET /health HTTP/1.1\r\nHost: x\n\r\n",
      "GET /health HTTP/1.1\nHost: x\r\n\r\n",
    ] {
      let response = await server.request(request)
      #expect(response?.status == 400, "\(request.debugDescription)")
      #expect(
        response?.body
          == Self.error("malformed_request", "Malformed request: a line ends in a bare LF (lines end in CRLF)"),
        "\(request.debugDescription)")
    }
  }

  @Test func garbageGets400EvenWhenTheConnectionEndsMidRequest() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let line = await server.request("\u{16}\u{03}\u{01}\u{02}\u{00}garbage\r\n\r\n")
    #expect(line?.body == Self.error("malformed_request", "Malformed request: bad request line"))
    // No end of headers ever comes: the client's end of input is a malformed request too.
    let truncated = await server.request("GET /health HTTP/1.1\r\nHost: x")
    #expect(truncated?.status == 400)
    #expect(
      truncated?.body
        == Self.error("malformed_request", "Malformed request: the connection closed in the middle of a request"))
  }

  @Test func a431ForOversizedHeadersIsDeliveredWhileTheClientIsStillSending() async throws {
    let server = try TestServer(token: nil)
    defer { server.stop() }
    let port = server.port
    let (sentAll, text) = await onThread { () -> (Bool, String) in
      guard let connection = RawConnection(port: port) else { return (false, "") }
      // 4 MiB of headers: far more than the server reads before it answers. The server drains
      // them rather than resetting the connection, so the client can finish sending and then
      // read the answer (a client that fails on a reset write never reads it).
      let header = "X-Big: " + String(repeating: "a", count: 1_024) + "\r\n"
      var sentAll = connection.send("GET /health HTTP/1.1\r\n")
      for _ in 0..<4 {
        sentAll = connection.send(String(repeating: header, count: 1_024)) && sentAll
        Thread.sleep(forTimeInterval: 0.02)
      }
      connection.shutdownWrite()
      return (sentAll, connection.readAll())
    }
    #expect(sentAll)
    let response = RawResponse(text)
    #expect(response?.status == 431)
    #expect(response?.body == Self.error("headers_too_large", "Request headers too large"))
  }

  @Test func unauthorizedAndNotFoundGetJSONBodies() async throws {
    let server = try TestServer()
    defer { server.stop() }
    let unauthorized = await server.request("GET /api/notifications HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(unauthorized?.status == 401)
    #expect(unauthorized?.headers["www-authenticate"] == "Bearer")
    #expect(unauthorized?.body == Self.error("unauthorized", "Missing or wrong bearer token"))
    let missing = await server.request(
      "DELETE /api/notifications/nope HTTP/1.1\r\nAuthorization: Bearer secret\r\nConnection: close\r\n\r\n")
    #expect(missing?.status == 404)
    #expect(missing?.body == Self.error("not_found", "Not found"))
  }
}
