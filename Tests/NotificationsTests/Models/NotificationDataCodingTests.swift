import Foundation
import Notifications
import Testing

/// The notification's JSON shape, shared by the HTTP API and the inbox file.
struct NotificationDataCodingTests {
  static let full = NotificationData(
    id: "n1", type: .checkIn, title: "Checked in", message: "Ada checked in",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000.25), isRead: true,
    target: .ping(pingID: "p1", contactID: "c1"),
    details: .contact(.init(name: "Ada", role: "Admin")), threadID: "t1", priority: .high,
    isLocal: true)

  @Test func aFullNotificationEncodesToItsExactShape() throws {
    #expect(
      try ModelJSON.encode(Self.full)
        == #"{"details":{"kind":"contact","value":{"name":"Ada","role":"Admin"}},"id":"n1","#
        + #""isLocal":true,"isRead":true,"message":"Ada checked in","priority":"high","#
        + #""target":{"contactId":"c1","kind":"ping","pingId":"p1"},"threadId":"t1","#
        + #""timestamp":"2023-11-14T22:13:20.250Z","title":"Checked in","type":"check_in"}"#)
  }

  @Test func absentOptionalsAreWrittenAsNullAndDefaultsAreWrittenOut() throws {
    let minimal = NotificationData(
      id: "n2", type: .alert, title: "T", message: "", timestamp: Date(timeIntervalSince1970: 0))
    #expect(
      try ModelJSON.encode(minimal)
        == #"{"details":null,"id":"n2","isLocal":false,"isRead":false,"message":"","#
        + #""priority":"regular","target":{"kind":"none"},"threadId":null,"#
        + #""timestamp":"1970-01-01T00:00:00.000Z","title":"T","type":"alert"}"#)
  }

  @Test func aNotificationRoundTrips() throws {
    let json = try ModelJSON.encode(Self.full)
    #expect(try ModelJSON.decode(NotificationData.self, json) == Self.full)
  }

  @Test func everyTypeRoundTrips() throws {
    for type in NotificationType.knownCases + [.unknown("poll"), .unknown("")] {
      var notification = Self.full
      notification.type = type
      let decoded = try ModelJSON.decode(NotificationData.self, try ModelJSON.encode(notification))
      #expect(decoded.type == type)
    }
  }

  @Test func anUnknownTypeIsWrittenBackAsItsRawString() throws {
    let json = #"{"id":"x","type":"poll","timestamp":"2023-11-14T22:13:20Z"}"#
    let decoded = try ModelJSON.decode(NotificationData.self, json)
    #expect(decoded.type == .unknown("poll"))
    #expect(try ModelJSON.encode(decoded).contains(#""type":"poll""#))
  }

  @Test func missingOptionalKeysTakeTheirDefaults() throws {
    let decoded = try ModelJSON.decode(
      NotificationData.self, #"{"id":"x","timestamp":"2023-11-14T22:13:20Z"}"#)
    #expect(
      decoded
        == NotificationData(
          id: "x", type: .system, title: "", message: "",
          timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
  }

  @Test func nullOptionalKeysTakeTheirDefaults() throws {
    let json = #"""
      {"id":"x","type":null,"title":null,"message":null,"timestamp":"2023-11-14T22:13:20Z",
      "isRead":null,"target":null,"details":null,"threadId":null,"priority":null,"isLocal":null}
      """#
    let decoded = try ModelJSON.decode(NotificationData.self, json)
    #expect(decoded.isRead == false)
    #expect(decoded.target == .none)
    #expect(decoded.priority == .regular)
    #expect(decoded.isLocal == false)
    #expect(decoded.threadID == nil)
  }

  @Test func timestampsDecodeWithOrWithoutFractionalSecondsAndWithAnyOffset() throws {
    func timestamp(_ text: String) throws -> Date {
      try ModelJSON.decode(NotificationData.self, #"{"id":"x","timestamp":"\#(text)"}"#).timestamp
    }
    let expected = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(try timestamp("2023-11-14T22:13:20Z") == expected)
    #expect(try timestamp("2023-11-14T22:13:20.000Z") == expected)
    #expect(try timestamp("2023-11-15T00:13:20+02:00") == expected)
    #expect(try timestamp("2023-11-14T22:13:20.5Z") == expected.addingTimeInterval(0.5))
  }

  @Test func timestampsAreWrittenInUTCWithMilliseconds() throws {
    let json = #"{"id":"x","timestamp":"2023-11-15T00:13:20.999+02:00"}"#
    let decoded = try ModelJSON.decode(NotificationData.self, json)
    #expect(try ModelJSON.encode(decoded).contains(#""timestamp":"2023-11-14T22:13:20.999Z""#))
  }

  @Test func savingAgainNeverMovesATimestamp() throws {
    for millisecond in [1, 499, 500, 998, 999] {
      var notification = Self.full
      notification.timestamp = Date(
        timeIntervalSince1970: 1_700_000_000 + Double(millisecond) / 1e3)
      var json = try ModelJSON.encode(notification)
      for _ in 0..<3 {
        json = try ModelJSON.encode(try ModelJSON.decode(NotificationData.self, json))
      }
      #expect(json.contains(#"20.\#(String(format: "%03d", millisecond))Z"#), "\(millisecond)")
    }
  }
}
