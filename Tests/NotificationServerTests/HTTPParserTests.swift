import Foundation
import Testing

import NotificationServerCore

struct HTTPParserTests {
  @Test func aCompleteRequestIsParsedWithItsQueryAndBody() throws {
    let bytes = Array("PATCH /api/a%20b?x=1&y=two+words HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}".utf8)
    let (request, used) = try #require(try HTTPParser().parse(bytes))
    #expect(request.method == "PATCH")
    #expect(request.path == "/api/a b")
    #expect(request.query == ["x": "1", "y": "two words"])
    #expect(request.header("HOST") == "h")
    #expect(request.body == Data("{}".utf8))
    #expect(used == bytes.count)
  }

  @Test func anIncompleteRequestAsksForMoreBytes() throws {
    #expect(try HTTPParser().parse(Array("GET / HTTP/1.1\r\nHo".utf8)) == nil)
    #expect(try HTTPParser().parse(Array("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab".utf8)) == nil)
  }

  @Test func badRequestsGetTheRightStatus() {
    #expect(throws: HTTPParseError.malformed("bad request line")) {
      try HTTPParser().parse(Array("NOT HTTP\r\n\r\n".utf8))
    }
    #expect(throws: HTTPParseError.lengthRequired) {
      try HTTPParser().parse(Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
    }
    var parser = HTTPParser()
    parser.maximumBodyBytes = 10
    #expect(throws: HTTPParseError.bodyTooLarge) {
      try parser.parse(Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8))
    }
    parser.maximumHeaderBytes = 20
    #expect(throws: HTTPParseError.headersTooLarge) {
      try parser.parse(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 50)).utf8))
    }
  }

  @Test func serverSentEventsEncodeMultilineData() {
    let event = ServerSentEvent(event: "inserted", id: "7", data: "a\nb")
    #expect(event.encoded == "event: inserted\nid: 7\ndata: a\ndata: b\n\n")
  }
}
