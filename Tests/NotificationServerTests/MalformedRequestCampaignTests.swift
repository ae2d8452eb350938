import Foundation
import Loom
import NotificationClients
import Notifications
import NotificationServerCore
import Testing

/// Ten thousand malformed requests of every kind the campaign of issue #14 found, from four
/// clients at once: each gets its exact status, and the server still serves afterwards.
struct MalformedRequestCampaignTests {
  /// A request and the status it must get (`nil`: any 2xx or 4xx, or a clean close).
  struct Case: Sendable {
    var bytes: [UInt8]
    var status: Int?
  }

  static let badNumbers = [
    "-1", "-999999999999", "abc", "1e3", "%2B5", "99999999999999999999", "", "%00", "0x10",
    "%D9%A1", "1.5", "1000000001", "+", "--1", "9223372036854775808",
  ]

  static func cases(count: Int) -> [Case] {
    var random = SeededRandomNumberGenerator(seed: 14)
    let valid = Array(
      "PATCH /api/notifications/x/read?limit=5 HTTP/1.1\r\nContent-Length: 4\r\n\r\nnull".utf8)
    return (0..<count).map { index -> Case in
      let bad = badNumbers[Int.random(in: 0..<badNumbers.count, using: &random)]
      switch index % 8 {
      case 0:
        let name = ["offset", "cursor", "limit"][Int.random(in: 0..<3, using: &random)]
        return Case(
          bytes: Array("GET /api/notifications?\(name)=\(bad) HTTP/1.1\r\n\r\n".utf8), status: 400)
      case 1:
        return Case(bytes: Array("GET /api/notifications/changes?since=\(bad) HTTP/1.1\r\n\r\n".utf8), status: 400)
      case 2:
        // Garbage: never a method first.
        var bytes = (0..<Int.random(in: 1...200, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        if (65...90).contains(bytes[0]) || bytes[0] == 32 { bytes[0] = 0 }
        if Bool.random(using: &random) { bytes += Array("\r\n\r\n".utf8) }
        return Case(bytes: bytes, status: 400)
      case 3:
        let lines = ["GET /health HTTP/1.1", "Host: x", "Accept: */*", ""]
        let bare = Int.random(in: 0..<3, using: &random)
        let text = lines.enumerated().map { $0.offset == bare ? $0.element + "\n" : $0.element + "\r\n" }
        return Case(bytes: Array(text.joined().utf8), status: 400)
      case 4 where index % 40 == 4:
        let header = "X-Big: " + String(repeating: "b", count: Int.random(in: 17_000...20_000, using: &random))
        return Case(bytes: Array("GET /health HTTP/1.1\r\n\(header)\r\n\r\n".utf8), status: 431)
      case 5:
        let method = ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"][Int.random(in: 0..<5, using: &random)]
        return Case(bytes: Array("\(method) /health HTTP/1.1\r\n\r\n".utf8), status: 405)
      case 6:
        return Case(
          bytes: Array("GET /api/notifications/stream HTTP/1.1\r\nLast-Event-ID: \(bad)\r\n\r\n".utf8),
          status: 400)
      default:
        var bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &random)))
        for _ in 0..<Int.random(in: 0...3, using: &random) where !bytes.isEmpty {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        return Case(bytes: bytes, status: nil)
      }
    }
  }

  @Test func tenThousandMalformedRequestsGetTheirStatusAndTheServerStillServes() async throws {
    let server = try TestServer(token: nil, notifications: [sample("n1")])
    defer { server.stop() }
    let cases = Self.cases(count: 10_000)
    #expect(cases.count >= 10_000)
    let port = server.port
    let clients = 4
    let failures = await withTaskGroup(of: [String].self) { group in
      for client in 0..<clients {
        let mine = stride(from: client, to: cases.count, by: clients).map { cases[$0] }
        group.addTask {
          await onThread {
            var failures: [String] = []
            for item in mine {
              let text = TestServer.rawBlocking(item.bytes, port: port)
              let status = RawResponse(text)?.status
              let ok: Bool
              if let expected = item.status {
                ok = status == expected
              } else {
                ok = text.isEmpty || status.map { (200..<500).contains($0) && $0 != 408 } ?? false
              }
              if !ok {
                failures.append(
                  "\(String(decoding: item.bytes.prefix(60), as: UTF8.self).debugDescription) → \(text.prefix(60).debugDescription)")
              }
            }
            return failures
          }
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(failures.isEmpty, "\(failures.count) failed, first: \(failures.prefix(5))")
    #expect(await server.raw("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    let client = NotificationClient.live(baseURL: server.baseURL, token: nil)
    #expect(try await client.fetchPage(PageRequest(limit: 10)).items.map(\.id) == ["n1"])
  }
}
