import Foundation
import Notifications
import Testing

/// JSON the models refuse: each is a `DecodingError`, never a trap or a silent default.
struct NotificationDataDecodingFailureTests {
  func fails<T: Decodable>(_ type: T.Type, _ json: String) -> Bool {
    do {
      _ = try ModelJSON.decode(type, json)
      return false
    } catch {
      return error is DecodingError
    }
  }

  @Test func aNotificationNeedsAnIDAndATimestamp() {
    #expect(fails(NotificationData.self, #"{"timestamp":"2023-11-14T22:13:20Z"}"#))
    #expect(fails(NotificationData.self, #"{"id":"x"}"#))
    #expect(fails(NotificationData.self, #"{"id":null,"timestamp":"2023-11-14T22:13:20Z"}"#))
  }

  @Test func aTimestampMustBeISO8601() {
    for text in ["yesterday", "2023-11-14", "2023-11-14 22:13:20", "1700000000", ""] {
      #expect(fails(NotificationData.self, #"{"id":"x","timestamp":"\#(text)"}"#), "\(text)")
    }
    #expect(fails(NotificationData.self, #"{"id":"x","timestamp":1700000000}"#))
  }

  @Test func fieldsOfTheWrongKindAreErrors() {
    let base = #""id":"x","timestamp":"2023-11-14T22:13:20Z""#
    #expect(fails(NotificationData.self, #"{\#(base),"isRead":"yes"}"#))
    #expect(fails(NotificationData.self, #"{\#(base),"priority":"urgent"}"#))
    #expect(fails(NotificationData.self, #"{\#(base),"type":7}"#))
    #expect(fails(NotificationData.self, #"{\#(base),"title":["T"]}"#))
  }

  @Test func aKnownTargetKindNeedsItsIDs() {
    #expect(fails(NotificationTarget.self, #"{"kind":"contact"}"#))
    #expect(fails(NotificationTarget.self, #"{"kind":"alert","contactId":"c1"}"#))
    #expect(fails(NotificationTarget.self, #"{"kind":"ping","pingId":"p1"}"#))
  }

  @Test func detailsNeedAKnownKindAndTheirValue() {
    #expect(fails(NotificationDetails.self, #"{"kind":"poll","value":{}}"#))
    #expect(fails(NotificationDetails.self, #"{"value":{"name":"Ada"}}"#))
    #expect(fails(NotificationDetails.self, #"{"kind":"contact","value":{}}"#))
    #expect(fails(NotificationDetails.self, #"{"kind":"alert"}"#))
  }

  @Test func aTimestampISO8601CannotWriteIsAnEncodingError() {
    for seconds in [TimeInterval.nan, .infinity, 1e300, -1e300] {
      let notification = NotificationData(
        id: "x", type: .system, title: "", message: "",
        timestamp: Date(timeIntervalSince1970: seconds))
      #expect(throws: EncodingError.self) { try JSONEncoder().encode(notification) }
    }
  }

  @Test func aFilterNeedsAKnownKind() {
    #expect(fails(NotificationFilter.self, #"{"kind":"unread"}"#))
    #expect(fails(NotificationFilter.self, #"{"kind":"type"}"#))
    #expect(fails(NotificationFilter.self, #"{}"#))
  }
}
