import Foundation
import Notifications
import Testing

/// A notification is a value: its boxed fields (shared by copies until one is written) behave
/// as stored ones do.
struct NotificationDataValueTests {
  static let original = NotificationDataCodingTests.full

  /// Each field a test writes, with a value other than the original's.
  static let writes: [(name: String, write: @Sendable (inout NotificationData) -> Void)] = [
    ("id", { $0.id = "n2" }),
    ("type", { $0.type = .unknown("poll") }),
    ("title", { $0.title.append("!") }),
    ("message", { $0.message = "" }),
    ("timestamp", { $0.timestamp += 1 }),
    ("isRead", { $0.isRead.toggle() }),
    ("target", { $0.target = .none }),
    ("details", { $0.details = nil }),
    ("threadID", { $0.threadID = "t2" }),
    ("priority", { $0.priority = .silent }),
    ("isLocal", { $0.isLocal.toggle() }),
    ("version", { $0.version = 7 }),
  ]

  @Test func writingACopyLeavesTheOriginalAsItWas() {
    for (name, write) in Self.writes {
      let original = Self.original
      var copy = original
      write(&copy)
      #expect(copy != original, "writing \(name)")
      #expect(original == NotificationDataCodingTests.full, "writing \(name)")
      #expect(original.title == "Checked in" && original.threadID == "t1", "writing \(name)")
    }
  }

  @Test func twoNotificationsMadeApartWithTheSameFieldsAreEqualAndHashAlike() {
    let original = Self.original
    let apart = NotificationData(
      id: original.id, type: original.type, title: original.title, message: original.message,
      timestamp: original.timestamp, isRead: original.isRead, target: original.target,
      details: original.details, threadID: original.threadID, priority: original.priority,
      isLocal: original.isLocal, version: original.version)
    #expect(apart == original)
    #expect(apart.hashValue == original.hashValue)
    #expect(Set([apart, original]).count == 1)
  }

  @Test func aWriteToOneOfTwoCopiesInAnArrayChangesOnlyThatOne() {
    var feed = [Self.original, Self.original]
    feed[1].message = "Grace checked in"
    #expect(feed.map(\.message) == ["Ada checked in", "Grace checked in"])
  }

  @Test func itIsReflectedAsAStructOfItsFields() {
    let mirror = Mirror(reflecting: Self.original)
    #expect(mirror.displayStyle == .struct)
    #expect(
      mirror.children.map(\.label)
        == [
          "id", "type", "title", "message", "timestamp", "isRead", "target", "details",
          "threadID", "priority", "isLocal", "version",
        ])
    #expect(
      String(
        describing: NotificationData(
          id: "n1", type: .ping, title: "Ping", message: "Hi",
          timestamp: Date(timeIntervalSince1970: 0)))
        == #"NotificationData(id: "n1", type: ping, "#
        + #"title: "Ping", message: "Hi", timestamp: 1970-01-01 00:00:00 +0000, isRead: false, "#
        + #"target: Notifications.NotificationTarget.none, details: nil, threadID: nil, "#
        + #"priority: Notifications.NotificationPriority.regular, isLocal: false, "#
        + #"version: nil)"#)
  }
}
