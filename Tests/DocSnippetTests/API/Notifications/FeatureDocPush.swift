// The snippets of the doc comments of Sources/Notifications/Push. JSONValue and PushFields
// are package-visible: tests use them, apps cannot.

import Foundation
import Loom
import Notifications
import Testing

struct PushDocSnippets {
  typealias Logger = FeatureDocStandIns.Logger
  typealias NotificationResponse = FeatureDocStandIns.NotificationResponse

  @Test func aUserInfoDictionaryBecomesJSON() throws {
    let userInfo: [AnyHashable: Any] = ["id": 42, "aps": ["alert": "Hi"], "isRead": true]
    // snippet: json-value-any
    let root = try JSONValue(any: userInfo)
    // snippet: end
    #expect(root["id"] == .number(42, exactInteger: 42, digits: nil))
    #expect(root["aps"]?["alert"] == .string("Hi"))
    #expect(root["isRead"] == .bool(true))
  }

  @Test func bytesBecomeJSON() throws {
    let data = Data(#"{"aps":{"alert":{"title":"Ping"}}}"#.utf8)
    // snippet: json-value-decode
    let root = try JSONValue.decode(data)
    // snippet: end
    let values = featureDocValues {
      // snippet: json-value-subscript
      root["aps"]?["alert"]
      // snippet: end
    }
    #expect(values.first as? JSONValue == .object(["title": .string("Ping")]))
    #expect(throws: PushParseError.notJSON) { try JSONValue.decode(Data("{".utf8)) }
  }

  @Test func bytesAreReadStrictly() throws {
    let values = try featureDocValues {
      // snippet: json-value-read
      let value = try JSONValue.read(Data(#"{"id": "n1", "title": 12345678901234567890123}"#.utf8))
      value["title"]?.text   // "12345678901234567890123"
      let trailingComma = try? JSONValue.read(Data(#"{"a": 1,}"#.utf8))   // nil: not JSON
      // snippet: end
      trailingComma as Any
    }
    #expect(values[0] as? String == "12345678901234567890123")
    #expect((values[1] as? JSONValue?) == .some(nil))
  }

  @Test func booleansAndNumbersStayDistinct() throws {
    let values = try featureDocValues {
      // snippet: json-value
      let value = try JSONValue.decode(Data(#"{"id":42,"isRead":true}"#.utf8))
      value["id"]       // .number(42, exactInteger: 42, digits: "42")
      value["isRead"]   // .bool(true)
      // snippet: end
    }
    #expect(values[0] as? JSONValue == .number(42, exactInteger: 42, digits: "42"))
    #expect(values[1] as? JSONValue == .bool(true))
  }

  @Test func fieldsAreReadFromTheTopLevelOrFromData() throws {
    let payload = try JSONValue.decode(Data(#"{"id":"n1","data":{"contactId":"c1"}}"#.utf8))
    let root = try #require(payload.objectValue)
    let values = featureDocValues {
      // snippet: push-fields
      let fields = PushFields(root)
      fields.text("contactId")   // "c1", from the top level or from "data"
      // snippet: end
    }
    #expect(values.first as? String == "c1")
  }

  @Test func aParseErrorIsASentence() throws {
    let logger = Logger()
    let values = featureDocValues {
      // snippet: parse-error
      PushParseError.missingField("id").description   // "The push payload has no \"id\"."
      // snippet: end
    }
    #expect(values.first as? String == #"The push payload has no "id"."#)
    do {
      _ = try PushPayloadParser.parse(Data("[]".utf8), receivedAt: .now)
    } catch {
      // snippet: parse-error-description
      logger.warning("Dropped a push: \(error)")
      // snippet: end
    }
    #expect(logger.warnings == ["Dropped a push: The push payload is not a JSON object."])
  }

  @Test func textIsCleanedToOneLine() {
    let values = featureDocValues {
      // snippet: clean
      PushPayloadParser.clean("  Hello\n\tworld\u{7} ", limit: 120)   // "Hello world"
      // snippet: end
    }
    #expect(values.first as? String == "Hello world")
  }

  @Test func anAPNsPayloadBecomesANotification() throws {
    let values = try featureDocValues {
      // snippet: parser
      let payload = Data(
        (#"{"aps":{"alert":{"title":"Ping","body":"Hi"}},"id":"n1","type":"ping","pingId":"p1","#
          + #""contactId":"c1"}"#).utf8)
      let notification = try PushPayloadParser.parse(payload, receivedAt: .now)
      notification.target   // .ping(pingID: "p1", contactID: "c1")
      // snippet: end
    }
    #expect(values.first as? NotificationTarget == .ping(pingID: "p1", contactID: "c1"))
  }

  @Test func anOversizedPayloadIsSkipped() {
    var parsed: [Data] = []
    func handle(_ data: Data) {
      // snippet: maximum-size
      if data.count > PushPayloadParser.maximumSize { return }
      // snippet: end
      parsed.append(data)
    }
    let small = Data(#"{"id":"n1"}"#.utf8)
    handle(small)
    handle(Data(repeating: UInt8(ascii: " "), count: 4_097))
    #expect(parsed == [small])
  }

  @Test func aPayloadWithoutATimestampIsDatedWhenReceived() throws {
    let date = DateGenerator.constant(Date(timeIntervalSince1970: 1_700_000_000))
    let payloadData = Data(#"{"id":"n1","type":"alert","alertId":"a1"}"#.utf8)
    // snippet: parse-data
    let notification = try PushPayloadParser.parse(payloadData, receivedAt: date.now)
    // snippet: end
    #expect(notification.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(notification.title == "Alert")
    #expect(notification.target == .alert(alertID: "a1"))
  }

  @Test func aTappedNotificationsUserInfoIsParsed() throws {
    let response = NotificationResponse(userInfo: [
      "aps": ["alert": ["title": "Battery low", "body": "Sensor 4"], "thread-id": "sensors"],
      "id": "n2", "type": "alert", "alertId": "a1",
    ])
    // snippet: parse-user-info
    let notification = try PushPayloadParser.parse(
      userInfo: response.notification.request.content.userInfo, receivedAt: .now)
    // snippet: end
    #expect(notification.title == "Battery low")
    #expect(notification.message == "Sensor 4")
    #expect(notification.threadID == "sensors")
    #expect(notification.target == .alert(alertID: "a1"))
  }
}
