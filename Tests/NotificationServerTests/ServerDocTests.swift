import Foundation
import NotificationClients
import NotificationServerCore
import Testing

/// The snippets of the development server's doc comments, run on loopback ports.
struct ServerDocTests {
  @Test func aServerAnswersWithItsHandler() async throws {
    // snippet: HTTPServer
    let server = HTTPServer(port: 0) { request in .text("hello", status: 200) }
    let port = try server.start()
    defer { server.stop() }
    // snippet: end
    let response = await TestServer.raw(
      Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8), port: port)
    #expect(response.hasPrefix("HTTP/1.1 200"))
    #expect(response.hasSuffix("\r\n\r\nhello\n"))
  }

  @Test func theAPIServesAnInbox() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-server-doc-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("inbox.json")
    // snippet: NotificationAPI
    let api = NotificationAPI(inbox: LocalInbox(url: url), token: "secret")
    let server = HTTPServer(port: 0, handler: api.handle)
    // snippet: end
    let port = try server.start()
    defer { server.stop() }
    let unauthorized = await TestServer.raw(
      Array("GET /api/notifications HTTP/1.1\r\nConnection: close\r\n\r\n".utf8), port: port)
    #expect(unauthorized.hasPrefix("HTTP/1.1 401"))
  }

  @Test func aHandlerMatchesOnMethodAndPath() async {
    func handle(_ request: HTTPRequest) -> HTTPResponse {
      // snippet: HTTPRequest
      if request.method == "GET", request.path == "/health" { return .text("ok", status: 200) }
      // snippet: end
      return .text("Not found", status: 404)
    }
    #expect(handle(HTTPRequest(method: "GET", path: "/health")).status == 200)
    #expect(handle(HTTPRequest(method: "POST", path: "/health")).status == 404)
  }
}
