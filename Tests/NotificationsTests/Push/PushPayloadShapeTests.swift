import Foundation
import Notifications
import Testing

/// The payload shapes the parser reads: APNs, FCM and the notification's own JSON.
struct PushPayloadShapeTests {
  @Test func anAPNsPayloadWithAnAlertDictionaryFillsEveryField() throws {
    let notification = try PushSample.parse(
      #"""
      {"aps":{"alert":{"title":"Ping","body":"Ada pinged you"},"thread-id":"t1",
      "interruption-level":"time-sensitive"},"id":"n1","type":"ping","contactId":"c1",
      "pingId":"p1","timestamp":"2023-11-14T22:00:00Z","isRead":true}
      """#)
    #expect(
      notification
        == NotificationData(
          id: "n1", type: .ping, title: "Ping", message: "Ada pinged you",
          timestamp: Date(timeIntervalSince1970: 1_699_999_200), isRead: true,
          target: .ping(pingID: "p1", contactID: "c1"), threadID: "t1", priority: .high))
  }

  @Test func anAPNsAlertStringIsTheBodyAndTheTitleFallsBackToTheTypeName() throws {
    let notification = try PushSample.parse(#"{"aps":{"alert":"Just a body"},"id":"n1"}"#)
    #expect(notification.message == "Just a body")
    #expect(notification.title == "System")
  }

  @Test func customKeysMayBeNestedInData() throws {
    let notification = try PushSample.parse(
      #"{"aps":{"alert":{"title":"T","body":"B"}},"#
        + #""data":{"id":"n2","type":"alert","alertId":"a1"}}"#)
    #expect(notification.id == "n2")
    #expect(notification.type == .alert)
    #expect(notification.target == .alert(alertID: "a1"))
  }

  @Test func topLevelKeysWinOverDataAndNullsFallThroughToData() throws {
    let notification = try PushSample.parse(
      #"{"id":"top","type":null,"data":{"id":"nested","type":"added","contactId":"c1"}}"#)
    #expect(notification.id == "top")
    #expect(notification.type == .added)
  }

  @Test func anFCMDataMapOfStringsIsRead() throws {
    let notification = try PushSample.parse(
      #"""
      {"data":{"id":"42","type":"alert","title":"T","body":"B","alertId":"a1",
      "timestamp":"1700000000","isRead":"true","priority":"high","threadId":"th"}}
      """#)
    #expect(
      notification
        == NotificationData(
          id: "42", type: .alert, title: "T", message: "B", timestamp: PushSample.receivedAt,
          isRead: true, target: .alert(alertID: "a1"), threadID: "th", priority: .high))
  }

  @Test func aFlatFCMMapIsRead() throws {
    let notification = try PushSample.parse(
      #"{"id":"42","type":"alert","title":"T","body":"B","alertId":"a1","timestamp":"1700000000"}"#
    )
    #expect(notification.id == "42")
    #expect(notification.title == "T")
    #expect(notification.message == "B")
    #expect(notification.target == .alert(alertID: "a1"))
    #expect(notification.timestamp == PushSample.receivedAt)
  }

  @Test func anFCMNotificationBlockGivesTitleAndBody() throws {
    let notification = try PushSample.parse(
      #"{"notification":{"title":"From FCM","body":"Hello"},"data":{"id":"f1"}}"#)
    #expect(notification.title == "From FCM")
    #expect(notification.message == "Hello")
  }

  @Test func customTitleAndBodyWinOverTheAlert() throws {
    let notification = try PushSample.parse(
      #"{"aps":{"alert":{"title":"Alert title","body":"Alert body"}},"#
        + #""id":"a","title":"Custom","body":"Custom body"}"#)
    #expect(notification.title == "Custom")
    #expect(notification.message == "Custom body")
  }

  @Test func messageIsAnAliasOfBody() throws {
    #expect(try PushSample.parse(#"{"id":"a","message":"M"}"#).message == "M")
    #expect(try PushSample.parse(#"{"id":"a","body":"B","message":"M"}"#).message == "B")
  }

  @Test func notificationIdIsAnAliasOfId() throws {
    #expect(try PushSample.parse(#"{"notificationId":"n9"}"#).id == "n9")
    #expect(try PushSample.parse(#"{"id":"n1","notificationId":"n9"}"#).id == "n1")
  }

  @Test func theNotificationsOwnJSONShapeParsesBackToTheSameNotification() throws {
    let original = NotificationData(
      id: "n1", type: .checkIn, title: "Checked in", message: "Ada checked in",
      timestamp: Date(timeIntervalSince1970: 1_699_990_000.25), isRead: true,
      target: .contact(contactID: "c1"),
      details: .contact(.init(name: "Ada", role: "Admin", action: "checked in")),
      threadID: "t1", priority: .silent)
    let parsed = try PushPayloadParser.parse(
      try JSONEncoder().encode(original), receivedAt: PushSample.receivedAt)
    #expect(parsed == original)
  }

  @Test func aPushIsNeverLocalEvenWhenThePayloadSaysSo() throws {
    #expect(try PushSample.parse(#"{"id":"a","isLocal":true}"#).isLocal == false)
  }

  @Test func aUserInfoDictionaryIsReadLikeItsJSON() throws {
    let userInfo: [AnyHashable: Any] = [
      "aps": ["alert": ["title": "T", "body": "B"], "thread-id": "t1"],
      "id": "u1", "type": "ping", "pingId": "p1", "contactId": "c1",
      "timestamp": 1_699_999_000, "isRead": true,
    ]
    #expect(
      try PushSample.parse(userInfo: userInfo)
        == NotificationData(
          id: "u1", type: .ping, title: "T", message: "B",
          timestamp: Date(timeIntervalSince1970: 1_699_999_000), isRead: true,
          target: .ping(pingID: "p1", contactID: "c1"), threadID: "t1"))
  }
}
