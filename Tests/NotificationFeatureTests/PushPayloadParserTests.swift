import Foundation
import NotificationFeature
import Testing

struct PushPayloadParserTests {
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  func parse(_ json: String) throws -> NotificationData {
    try PushPayloadParser.parse(Data(json.utf8), receivedAt: now)
  }

  @Test func anAPNsPayloadWithAnAlertDictionary() throws {
    let n = try parse(
      #"{"aps":{"alert":{"title":"Ping","body":"Ada pinged"},"thread-id":"t1"},"id":"n1","type":"ping","pingId":"p1","contactId":"c1","timestamp":"2023-11-14T22:00:00Z"}"#)
    #expect(n.id == "n1")
    #expect(n.title == "Ping")
    #expect(n.message == "Ada pinged")
    #expect(n.threadID == "t1")
    #expect(n.target == .ping(pingID: "p1", contactID: "c1"))
    #expect(n.timestamp == Date(timeIntervalSince1970: 1_699_999_200))
  }

  @Test func anAlertStringIsTheBody() throws {
    let n = try parse(#"{"aps":{"alert":"Just a body"},"id":"n1","type":"system"}"#)
    #expect(n.message == "Just a body")
    #expect(n.title == "System")
  }

  @Test func anFCMAllStringsMapInsideData() throws {
    let n = try parse(
      #"{"data":{"id":"42","type":"alert","title":"T","body":"B","alertId":"a1","timestamp":"1700000000","isRead":"true"}}"#)
    #expect(n.id == "42")
    #expect(n.target == .alert(alertID: "a1"))
    #expect(n.isRead)
    #expect(n.timestamp == now)
  }

  @Test func wholeNumberIDsAreAcceptedAsStrings() throws {
    #expect(try parse(#"{"id":42}"#).id == "42")
    #expect(try parse(#"{"id":"  abc-1:2.3_x  "}"#).id == "abc-1:2.3_x")
  }

  @Test func unknownTypesDecodeToUnknownAndMissingTypesToSystem() throws {
    #expect(try parse(#"{"id":"a","type":"poll"}"#).type == .unknown("poll"))
    #expect(try parse(#"{"id":"a"}"#).type == .system)
  }

  @Test func aTargetMissingItsIDsBecomesNone() throws {
    #expect(try parse(#"{"id":"a","type":"ping","pingId":"p1"}"#).target == .none)
    #expect(try parse(#"{"id":"a","type":"role","contactId":"c9"}"#).target == .contact(contactID: "c9"))
  }

  @Test func stringsAreTrimmedCleanedAndTruncatedByWholeCharacters() throws {
    let longTitle = String(repeating: "👩‍👩‍👧", count: 130)
    let n = try parse(#"{"id":"a","title":" \#(longTitle) ","body":"line1\nline2\u0007end"}"#)
    #expect(n.title.count == 120)
    #expect(n.title.allSatisfy { $0 == "👩‍👩‍👧" })
    #expect(n.message == "line1 line2 end")
  }

  @Test func timestampsInSecondsMillisecondsAndMicrosecondsAreToldApart() throws {
    #expect(try parse(#"{"id":"a","timestamp":1699999000}"#).timestamp == Date(timeIntervalSince1970: 1_699_999_000))
    #expect(try parse(#"{"id":"a","timestamp":1699999000000}"#).timestamp == Date(timeIntervalSince1970: 1_699_999_000))
    #expect(try parse(#"{"id":"a","timestamp":1699999000000000}"#).timestamp == Date(timeIntervalSince1970: 1_699_999_000))
    #expect(try parse(#"{"id":"a","timestamp":"2023-11-14T23:00:00.500+02:00"}"#).timestamp == Date(timeIntervalSince1970: 1_699_995_600.5))
  }

  @Test func aTimestampMoreThanADayAheadIsClamped() throws {
    #expect(try parse(#"{"id":"a","timestamp":1800000000}"#).timestamp == now)
    #expect(try parse(#"{"id":"a"}"#).timestamp == now)
  }

  @Test func priorityRules() throws {
    #expect(try parse(#"{"id":"a","aps":{"interruption-level":"passive"}}"#).priority == .silent)
    #expect(try parse(#"{"id":"a","aps":{"interruption-level":"time-sensitive"}}"#).priority == .high)
    #expect(try parse(#"{"id":"a","aps":{"interruption-level":"critical"}}"#).priority == .high)
    #expect(try parse(#"{"id":"a","aps":{"interruption-level":"active"}}"#).priority == .regular)
    #expect(try parse(#"{"id":"a","priority":"silent","aps":{"interruption-level":"critical"}}"#).priority == .silent)
  }

  @Test func aUserInfoDictionaryIsParsed() throws {
    let userInfo: [AnyHashable: Any] = ["aps": ["alert": ["title": "T", "body": "B"]], "id": "u1"]
    let n = try PushPayloadParser.parse(userInfo: userInfo, receivedAt: now)
    #expect(n.id == "u1")
    #expect(n.title == "T")
  }
}
