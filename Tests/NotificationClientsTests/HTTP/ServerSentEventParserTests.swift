import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

struct ServerSentEventParserTests {
  func parse(_ chunks: [String]) throws -> [ServerSentEventMessage] {
    var parser = ServerSentEventParser()
    return try chunks.flatMap { try parser.feed(Array($0.utf8)) }
  }

  @Test func crlfLfAndCrLineEndsAllEndLines() throws {
    let expected = [
      ServerSentEventMessage(event: "deleted", id: "1", data: #"{"id":"a"}"#),
      ServerSentEventMessage(event: "deleted", id: "2", data: #"{"id":"b"}"#),
      ServerSentEventMessage(event: "deleted", id: "3", data: #"{"id":"c"}"#),
    ]
    let text =
      "event: deleted\r\nid: 1\r\ndata: {\"id\":\"a\"}\r\n\r\n"
      + "event: deleted\nid: 2\ndata: {\"id\":\"b\"}\n\n"
      + "event: deleted\rid: 3\rdata: {\"id\":\"c\"}\r\r"
    #expect(try parse([text]) == expected)
  }

  @Test func aCRLFSplitBetweenChunksEndsOneLine() throws {
    #expect(
      try parse(["event: deleted\r", "\nid: 7\r", "\ndata: x\r", "\n\r", "\n"])
        == [ServerSentEventMessage(event: "deleted", id: "7", data: "x")])
    // Byte by byte.
    let text = "event: a\r\ndata: 1\r\ndata: 2\r\n\r\n"
    #expect(try parse(text.map(String.init)) == [ServerSentEventMessage(event: "a", data: "1\n2")])
  }

  @Test func commentsAndUnknownFieldsAreIgnoredAndAnEventWithoutAnIDHasNone() throws {
    let text = ": heartbeat\n\nretry: 10\nid: 1\nevent: a\ndata:x\n\n: heartbeat\r\n\r\nevent: b\ndata\n\n"
    #expect(
      try parse([text]) == [
        ServerSentEventMessage(event: "a", id: "1", data: "x"),
        ServerSentEventMessage(event: "b", data: ""),
      ])
  }

  @Test func anOverlongEventIsAnError() {
    var parser = ServerSentEventParser()
    parser.maximumEventBytes = 16
    #expect(throws: ServerSentEventParser.TooLarge()) {
      try parser.feed(Array(("data: " + String(repeating: "x", count: 20)).utf8))
    }
  }

  @Test func malformedEventsAreTypedProblems() {
    #expect(throws: EventStreamProblem.unknownEvent("ping")) {
      try EventStreamProblem.decode(ServerSentEventMessage(event: "ping", data: ""))
    }
    #expect(throws: EventStreamProblem.unknownEvent(nil)) {
      try EventStreamProblem.decode(ServerSentEventMessage(data: "{}"))
    }
    #expect(
      throws: EventStreamProblem.undecodable(
        #"event "deleted" with id 9: The given data was not valid JSON."#)
    ) {
      try EventStreamProblem.decode(ServerSentEventMessage(event: "deleted", id: "9", data: "{"))
    }
    #expect(throws: EventStreamProblem.undecodable(#"event "snapshot": missing field "[0].timestamp""#)) {
      try EventStreamProblem.decode(ServerSentEventMessage(event: "snapshot", data: "[{}]"))
    }
  }
}
