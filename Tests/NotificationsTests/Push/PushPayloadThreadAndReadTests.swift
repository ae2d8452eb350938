import Foundation
import Notifications
import Testing

/// The thread and the read flag.
struct PushPayloadThreadAndReadTests {
  @Test func theThreadComesFromAPNsOrFromThreadId() throws {
    #expect(try PushSample.parse(#"{"id":"a","aps":{"thread-id":"t1"}}"#).threadID == "t1")
    #expect(try PushSample.parse(#"{"id":"a","threadId":"t2"}"#).threadID == "t2")
    #expect(try PushSample.parse(#"{"data":{"id":"a","threadId":"t3"}}"#).threadID == "t3")
    #expect(
      try PushSample.parse(#"{"id":"a","threadId":"t2","aps":{"thread-id":"t1"}}"#).threadID
        == "t1")
  }

  @Test func aMissingOrBlankThreadIsNil() throws {
    #expect(try PushSample.parse(#"{"id":"a"}"#).threadID == nil)
    #expect(try PushSample.parse(#"{"id":"a","threadId":"  "}"#).threadID == nil)
  }

  @Test func isReadDefaultsToFalse() throws {
    #expect(try PushSample.parse(#"{"id":"a"}"#).isRead == false)
    #expect(try PushSample.parse(#"{"id":"a","isRead":null}"#).isRead == false)
  }

  @Test func isReadAcceptsBooleansNumbersAndStrings() throws {
    let truthy = ["true", "1", #""true""#, #""TRUE""#, #"" True ""#, #""1""#, #""yes""#]
    let falsy = ["false", "0", #""false""#, #""False""#, #""0""#, #""no""#]
    for json in truthy {
      #expect(try PushSample.parse(#"{"id":"a","isRead":\#(json)}"#).isRead, "\(json)")
    }
    for json in falsy {
      #expect(try !PushSample.parse(#"{"id":"a","isRead":\#(json)}"#).isRead, "\(json)")
    }
  }
}
