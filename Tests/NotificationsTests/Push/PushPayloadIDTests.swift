import Foundation
import Notifications
import Testing

/// The notification id: required, trimmed, whole numbers allowed, a small character set.
struct PushPayloadIDTests {
  @Test func stringIDsAreTrimmed() throws {
    #expect(try PushSample.parse(#"{"id":"  abc-1:2.3_X \n"}"#).id == "abc-1:2.3_X")
  }

  @Test func wholeNumberIDsBecomeTheirDigits() throws {
    #expect(try PushSample.parse(#"{"id":42}"#).id == "42")
    #expect(try PushSample.parse(#"{"id":-7}"#).id == "-7")
    #expect(try PushSample.parse(#"{"id":42.0}"#).id == "42")
  }

  @Test func largeWholeNumberIDsKeepEveryDigit() throws {
    // 2^53 + 1 has no exact Double; the parser keeps the integer it read.
    #expect(try PushSample.parse(#"{"id":9007199254740993}"#).id == "9007199254740993")
    #expect(try PushSample.parse(#"{"id":9223372036854775807}"#).id == "9223372036854775807")
  }

  @Test func anIDOfExactly128AllowedCharactersIsAccepted() throws {
    let id = String(repeating: "aZ9_:.-x", count: 16)
    #expect(id.count == 128)
    #expect(try PushSample.parse(#"{"id":"\#(id)"}"#).id == id)
  }

  @Test func numericStringIDsStayAsWritten() throws {
    #expect(try PushSample.parse(#"{"id":"007"}"#).id == "007")
  }
}
