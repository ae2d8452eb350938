import Foundation
import Notifications
import Testing

/// Every way a payload is rejected, each with its typed error and a readable description.
struct PushParserFailureTests {
  @Test func payloadsOverFourKilobytesAreTooLarge() {
    let body = String(repeating: "x", count: 4_096)
    let json = #"{"id":"a","body":"\#(body)"}"#
    #expect(PushSample.error(json) == .tooLarge(byteCount: json.utf8.count, limit: 4_096))
  }

  @Test func aPayloadOfExactlyFourKilobytesIsAccepted() throws {
    let prefix = #"{"id":"a","body":""#
    let suffix = #""}"#
    let body = String(repeating: "x", count: 4_096 - prefix.utf8.count - suffix.utf8.count)
    let json = prefix + body + suffix
    #expect(json.utf8.count == 4_096)
    #expect(try PushSample.parse(json).message.count == 1_000)
  }

  @Test func aLargeUserInfoIsTooLarge() {
    let error = PushSample.error(userInfo: [
      "id": "a", "body": String(repeating: "x", count: 5_000),
    ])
    guard case .tooLarge(let byteCount, let limit)? = error else {
      Issue.record("Expected tooLarge, got \(String(describing: error))")
      return
    }
    #expect(byteCount > 5_000)
    #expect(limit == 4_096)
  }

  @Test func bytesThatAreNotJSONAreNotJSON() {
    #expect(PushSample.error("") == .notJSON)
    #expect(PushSample.error("not json") == .notJSON)
    #expect(PushSample.error(#"{"id":"a""#) == .notJSON)
    #expect(PushSample.error(#"{"id" "a"}"#) == .notJSON)
    #expect(PushSample.error(Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D])) == .notJSON)
  }

  /// JSON as RFC 8259 writes it, nothing more: Foundation's reader took these.
  @Test func almostJSONIsNotJSON() {
    for payload in [
      #"{"id":"a",}"#, #"{"id":"a","tags":[1,]}"#, #"{"id":"a"} // comment"#, #"{'id':'a'}"#,
      #"{"id":"a","n":01}"#, #"{"id":"a","n":.5}"#, #"{"id":"a","n":NaN}"#, #"{id:"a"}"#,
    ] {
      #expect(PushSample.error(payload) == .notJSON, "\(payload)")
    }
  }

  /// A key given twice used to keep the first value, silently.
  @Test func aKeyGivenTwiceIsInvalid() {
    #expect(
      PushSample.error(#"{"id":"a","title":"One","title":"Two"}"#)
        == .invalidField("title", reason: "it is given more than once"))
    #expect(
      PushSample.error(#"{"id":"a","aps":{"alert":{"title":"One","title":"Two"}}}"#)
        == .invalidField("aps.alert.title", reason: "it is given more than once"))
  }

  @Test func jsonThatIsNotAnObjectIsNotAnObject() {
    #expect(PushSample.error("[1,2]") == .notAnObject)
    #expect(PushSample.error(#""id""#) == .notAnObject)
    #expect(PushSample.error("42") == .notAnObject)
    #expect(PushSample.error("null") == .notAnObject)
  }

  @Test func aMissingNullOrBlankIDIsMissing() {
    #expect(PushSample.error(#"{"type":"ping"}"#) == .missingField("id"))
    #expect(PushSample.error(#"{"id":null}"#) == .missingField("id"))
    #expect(PushSample.error(#"{"id":"   "}"#) == .missingField("id"))
    #expect(PushSample.error(#"{"id":""}"#) == .missingField("id"))
    #expect(PushSample.error(#"{"aps":{"alert":"Hi"}}"#) == .missingField("id"))
  }

  @Test func anUnusableIDIsInvalid() {
    #expect(
      PushSample.error(#"{"id":42.5}"#)
        == .invalidField("id", reason: "a number id must be a whole number"))
    #expect(
      PushSample.error(#"{"id":1e20}"#)
        == .invalidField("id", reason: "a number id must fit in 64 bits; send it as a string"))
    #expect(
      PushSample.error(#"{"id":true}"#)
        == .invalidField("id", reason: "it must be a string or a whole number"))
    #expect(
      PushSample.error(#"{"id":["a"]}"#)
        == .invalidField("id", reason: "it must be a string or a whole number"))
    #expect(
      PushSample.error(#"{"id":{"value":"a"}}"#)
        == .invalidField("id", reason: "it must be a string or a whole number"))
  }

  @Test func anIDOutsideTheCharacterSetIsInvalid() {
    let reason = "only letters, digits and _ : . - are allowed"
    for id in ["a b", "a/b", "a\\u0000b", "café", "a+b", "👍"] {
      #expect(PushSample.error(#"{"id":"\#(id)"}"#) == .invalidField("id", reason: reason), "\(id)")
    }
  }

  /// `.` and `..` are in the character set, but a URL resolves them away: an id like that would
  /// name every notification on a server.
  @Test func aDotSegmentIsNotAnID() {
    for id in [".", ".."] {
      #expect(
        PushSample.error(#"{"id":"\#(id)"}"#)
          == .invalidField("id", reason: "an id is not '.' or '..'"), "\(id)")
    }
    #expect(PushSample.error(#"{"id":"..."}"#) == nil)
  }

  @Test func anIDLongerThan128CharactersIsInvalid() {
    #expect(
      PushSample.error(#"{"id":"\#(String(repeating: "a", count: 129))"}"#)
        == .invalidField("id", reason: "it is longer than 128 characters"))
  }

  @Test func anUnreadableTimestampIsInvalid() {
    #expect(
      PushSample.error(#"{"id":"a","timestamp":"yesterday"}"#)
        == .invalidField("timestamp", reason: "\"yesterday\" is not a date"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":"2023-11-14"}"#)
        == .invalidField("timestamp", reason: "\"2023-11-14\" is not a date"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":"2023-11-14 22:00:00"}"#)
        == .invalidField("timestamp", reason: "\"2023-11-14 22:00:00\" is not a date"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":true}"#)
        == .invalidField("timestamp", reason: "it must be a string or a number"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":{"seconds":1}}"#)
        == .invalidField("timestamp", reason: "it must be a string or a number"))
  }

  @Test func numericLookingWordsAreNotNumbers() {
    for text in ["nan", "inf", "infinity", "0x1p30", "1e999"] {
      #expect(
        PushSample.error(#"{"id":"a","timestamp":"\#(text)"}"#)
          == .invalidField("timestamp", reason: "\"\(text)\" is not a date"), "\(text)")
    }
  }

  @Test func aTimestampBefore1970IsInvalid() {
    #expect(
      PushSample.error(#"{"id":"a","timestamp":-1}"#)
        == .invalidField("timestamp", reason: "-1.0 is before 1970"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":"-1700000000"}"#)
        == .invalidField("timestamp", reason: "-1700000000.0 is before 1970"))
    #expect(
      PushSample.error(#"{"id":"a","timestamp":"1969-12-31T23:59:59Z"}"#)
        == .invalidField("timestamp", reason: "\"1969-12-31T23:59:59Z\" is before 1970"))
  }

  @Test func aBooleanThatIsNotOneIsInvalid() {
    #expect(
      PushSample.error(#"{"id":"a","isRead":"maybe"}"#)
        == .invalidField("isRead", reason: "\"maybe\" is not a boolean"))
    #expect(
      PushSample.error(#"{"id":"a","isRead":2}"#)
        == .invalidField("isRead", reason: "it is not a boolean"))
    #expect(
      PushSample.error(#"{"id":"a","isRead":[]}"#)
        == .invalidField("isRead", reason: "it is not a boolean"))
  }

  @Test func anUnknownExplicitPriorityIsInvalid() {
    let reason = "use silent, regular or high"
    #expect(
      PushSample.error(#"{"id":"a","priority":"urgent"}"#)
        == .invalidField("priority", reason: reason))
    #expect(
      PushSample.error(#"{"id":"a","priority":1}"#) == .invalidField("priority", reason: reason))
    #expect(
      PushSample.error(#"{"id":"a","priority":true}"#) == .invalidField("priority", reason: reason))
  }

  @Test func textFieldsThatAreNotTextAreInvalid() {
    let reason = "it must be a string"
    #expect(
      PushSample.error(#"{"id":"a","title":{"x":1}}"#) == .invalidField("title", reason: reason))
    #expect(PushSample.error(#"{"id":"a","body":[]}"#) == .invalidField("body", reason: reason))
    #expect(
      PushSample.error(#"{"id":"a","message":true}"#) == .invalidField("message", reason: reason))
    #expect(PushSample.error(#"{"id":"a","type":false}"#) == .invalidField("type", reason: reason))
  }

  @Test func nestingDeeperThan64LevelsIsNestedTooDeep() {
    let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
    #expect(PushSample.error(#"{"id":"a","extra":\#(deep)}"#) == .nestedTooDeep(limit: 64))
    let shallow = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
    #expect(PushSample.error(#"{"id":"a","extra":\#(shallow)}"#) == nil)
  }

  /// The limit counts values, the root object being level 0: an empty array may sit at level
  /// 64, a value inside it (level 65) may not, whether it is a number, a string or an object.
  @Test func theNestingLimitIsExact() {
    func payload(arrays: Int, inner: String) -> String {
      #"{"id":"a","x":"# + String(repeating: "[", count: arrays) + inner
        + String(repeating: "]", count: arrays) + "}"
    }
    #expect(PushSample.error(payload(arrays: 64, inner: "")) == nil)
    #expect(PushSample.error(payload(arrays: 63, inner: "1")) == nil)
    #expect(PushSample.error(payload(arrays: 63, inner: #""\"[{""#)) == nil)  // brackets in text
    for inner in ["1", #""s""#, "{}", "[]", "null", "true"] {
      #expect(
        PushSample.error(payload(arrays: 64, inner: inner)) == .nestedTooDeep(limit: 64),
        "\(inner)")
    }
  }

  /// Foundation's own JSON reader gives up beyond 512 levels; such a payload is still valid
  /// JSON, so it is reported as nested too deep, not as "not JSON".
  @Test func aThousandLevelArrayIsNestedTooDeepNotNotJSON() {
    let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
    #expect(PushSample.error(deep) == .nestedTooDeep(limit: 64))
    #expect(PushSample.error(#"{"id":"a","x":\#(deep)}"#) == .nestedTooDeep(limit: 64))
    let objects = String(repeating: #"{"k":"#, count: 600) + "1"  // 3,600 bytes: under 4 KB
      + String(repeating: "}", count: 600)
    #expect(PushSample.error(objects) == .nestedTooDeep(limit: 64))
  }

  @Test func aShallowPayloadThatIsNotJSONIsStillNotJSON() {
    #expect(PushSample.error(#"{"id":"a","x":[[["#) == .notJSON)
    #expect(PushSample.error(#"{"id":"a","x":"\\"]]]]"#) == .notJSON)
  }

  @Test func userInfoValuesThatAreNotJSONAreInvalidAndNamed() {
    #expect(
      PushSample.error(userInfo: ["id": "a", "aps": ["sent": Date(timeIntervalSince1970: 0)]])
        == .invalidField("aps.sent", reason: "a value of type Date is not JSON"))
    #expect(
      PushSample.error(userInfo: ["id": "a", "list": [1, Data()]])
        == .invalidField("list[1]", reason: "a value of type Data is not JSON"))
    #expect(
      PushSample.error(userInfo: ["id": "a", "x": Double.nan])
        == .invalidField("x", reason: "nan is not a finite number"))
    #expect(
      PushSample.error(userInfo: ["id": "a", "x": -Double.infinity])
        == .invalidField("x", reason: "-inf is not a finite number"))
    #expect(
      PushSample.error(userInfo: ["id": "a", "data": [1: "one"]])
        == .invalidField("data", reason: "its key 1 is not a string"))
  }

  @Test func aCyclicOrVeryDeepUserInfoIsInvalidNotACrash() {
    var nested: Any = "leaf"
    for _ in 0..<1_000 { nested = ["x": nested] }
    #expect(
      PushSample.error(userInfo: ["id": "a", "deep": nested]) == .nestedTooDeep(limit: 64))
  }

  @Test func eachErrorDescriptionNamesItsField() {
    #expect(
      PushParseError.tooLarge(byteCount: 5_000, limit: 4_096).description
        == "The push payload is 5000 bytes; the limit is 4096.")
    #expect(PushParseError.notJSON.description == "The push payload is not valid JSON.")
    #expect(PushParseError.notAnObject.description == "The push payload is not a JSON object.")
    #expect(
      PushParseError.nestedTooDeep(limit: 64).description
        == "The push payload is nested too deep: more than 64 levels.")
    #expect(PushParseError.missingField("id").description == #"The push payload has no "id"."#)
    #expect(
      PushParseError.invalidField("isRead", reason: "it is not a boolean").description
        == #"The push payload's "isRead" is invalid: it is not a boolean."#)
  }
}
