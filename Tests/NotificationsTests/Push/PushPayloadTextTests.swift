import Foundation
import Notifications
import Testing

/// Titles and messages: trimmed, control characters turned into spaces, stray format
/// characters dropped, cut by whole characters.
struct PushPayloadTextTests {
  @Test func titleAndMessageAreTrimmed() throws {
    let notification = try PushSample.parse(#"{"id":"a","title":"  T  ","body":"\n B \t"}"#)
    #expect(notification.title == "T")
    #expect(notification.message == "B")
  }

  @Test func newlinesAndControlCharactersBecomeSingleSpaces() throws {
    let notification = try PushSample.parse(
      #"{"id":"a","body":"line1\r\nline2\u0007end\u0000!\n\n\nlast"}"#)
    #expect(notification.message == "line1 line2 end ! last")
  }

  @Test func ordinarySpacesInsideTextAreKeptButRunsCollapse() throws {
    #expect(try PushSample.parse(#"{"id":"a","title":"Ada  Lovelace"}"#).title == "Ada Lovelace")
    #expect(try PushSample.parse(#"{"id":"a","title":"Ada Lovelace"}"#).title == "Ada Lovelace")
  }

  @Test func strayFormatCharactersAreDroppedButEmojiJoinersStay() throws {
    let notification = try PushSample.parse(
      #"{"id":"a","title":"a\u200Bb\u202Ec\uFEFF","body":"👩‍👩‍👧 family"}"#)
    #expect(notification.title == "abc")
    #expect(notification.message == "👩‍👩‍👧 family")
  }

  @Test func titlesAreCutAt120WholeCharacters() throws {
    let family = "👩‍👩‍👧"
    let notification = try PushSample.parse(
      #"{"id":"a","title":"\#(String(repeating: family, count: 130))"}"#)
    #expect(notification.title.count == 120)
    #expect(notification.title.allSatisfy { $0 == Character(family) })
  }

  @Test func messagesAreCutAt1000WholeCharacters() throws {
    let accented = "e\u{301}"  // one Character, two scalars
    let body = String(repeating: accented, count: 1_001)
    let notification = try PushSample.parse(#"{"id":"a","body":"\#(body)"}"#)
    #expect(notification.message.count == 1_000)
    #expect(notification.message.unicodeScalars.count == 2_000)
  }

  @Test func aCutNeverLeavesATrailingSpace() {
    #expect(PushPayloadParser.clean("abc def", limit: 4) == "abc")
    #expect(PushPayloadParser.clean("abc def", limit: 5) == "abc d")
    #expect(PushPayloadParser.clean("abc", limit: 0) == "")
  }

  @Test func aMissingOrBlankTitleIsTheTypesDisplayName() throws {
    #expect(try PushSample.parse(#"{"id":"a","type":"check_in"}"#).title == "Check-in")
    #expect(try PushSample.parse(#"{"id":"a","type":"ping","title":" \n "}"#).title == "Ping")
    #expect(try PushSample.parse(#"{"id":"a","type":"poll"}"#).title == "poll")
  }

  @Test func aMissingMessageIsEmpty() throws {
    #expect(try PushSample.parse(#"{"id":"a","title":"T"}"#).message == "")
  }

  @Test func numbersAreReadAsText() throws {
    let notification = try PushSample.parse(#"{"id":"a","title":2024,"body":1.5}"#)
    #expect(notification.title == "2024")
    #expect(notification.message == "1.5")
  }

  /// A whole number too long for an `Int64` keeps its digits: it became
  /// `1.2345678901234568e+22`.
  @Test func aLongWholeNumberKeepsEveryDigit() throws {
    let notification = try PushSample.parse(
      #"{"id":"a","title":12345678901234567890123,"body":-98765432109876543210}"#)
    #expect(notification.title == "12345678901234567890123")
    #expect(notification.message == "-98765432109876543210")
  }

  @Test func typesAreTrimmedAndUnknownOnesKeepTheirRawString() throws {
    #expect(try PushSample.parse(#"{"id":"a","type":" ping "}"#).type == .ping)
    #expect(try PushSample.parse(#"{"id":"a","type":"checkIn"}"#).type == .checkIn)
    #expect(try PushSample.parse(#"{"id":"a","type":"poll"}"#).type == .unknown("poll"))
    #expect(try PushSample.parse(#"{"id":"a","type":"Alert"}"#).type == .unknown("Alert"))
  }

  @Test func aMissingNullOrBlankTypeIsSystem() throws {
    #expect(try PushSample.parse(#"{"id":"a"}"#).type == .system)
    #expect(try PushSample.parse(#"{"id":"a","type":null}"#).type == .system)
    #expect(try PushSample.parse(#"{"id":"a","type":"  "}"#).type == .system)
  }
}
