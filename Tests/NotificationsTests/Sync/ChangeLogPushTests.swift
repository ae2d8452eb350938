import Foundation
import Loom
import Notifications
import Testing

/// The log's rules for pushes the server has not listed, and for acknowledged records leaving
/// notification by notification: each found by the lifetime model test on `NotificationFeature`
/// (issue #24), each failing before its fix.
struct ChangeLogPushTests {
  static func push(_ id: String, minutesAgo: Double = 0) -> NotificationData {
    ChangeLogTests.notification(id, minutesAgo: minutesAgo)
  }

  /// A mark-all gives each push it covers a record of its own: a push the server never lists
  /// holds back no other push's change (one record for both waited for both, for good).
  @Test func aMarkAllGivesEachPushItCoversARecordOfItsOwn() {
    var log = ChangeLog()
    log.receive(Self.push("p1", minutesAgo: 1), at: ChangeLogTests.start)
    log.receive(Self.push("p2", minutesAgo: 2), at: ChangeLogTests.start)
    log.record(.markAllAsRead(nil), id: UUID(1))
    #expect(
      log.records.map(\.intent) == [.markAllAsRead(nil), .markAsRead("p1"), .markAsRead("p2")])
    log.serverListed(["p1"])
    #expect(log.records.count == 3)
    #expect(log.recordsReadyToSend == [UUID(1)])
    // The server lists p1: its read is sent once the mark-all is acknowledged, while p2 waits.
    log.markSending(UUID(1))
    log.acknowledge(UUID(1), at: 5)
    let ready = log.recordsReadyToSend.compactMap { log[$0]?.intent }
    #expect(ready == [.markAsRead("p1")])
  }

  /// A mark-all of named notifications sends the server's at once, and the push among them
  /// waits for its listing alone.
  @Test func aMarkAllOfNamedNotificationsSplitsOffThePushes() {
    var log = ChangeLog()
    log.receive(Self.push("p1"), at: ChangeLogTests.start)
    log.record(.markAllAsRead(["n1", "p1"]), id: UUID(1))
    #expect(log.records.map(\.intent) == [.markAllAsRead(["n1"]), .markAsRead("p1")])
    #expect(log.records.map(\.status) == [.pending(failures: 0), .awaitingListing])
  }

  /// A mark-all or clear-all of everything changes the pushes it covered through their own
  /// records: a push (or a notice) received after it is left alone.
  @Test func aChangeToEverythingLeavesAPushReceivedAfterIt() {
    var log = ChangeLog()
    log.record(.markAllAsRead(nil), id: UUID(1))
    log.record(.deleteAll(upTo: nil), id: UUID(2))
    log.receive(Self.push("p1"), at: ChangeLogTests.start)
    #expect(log.replaying(on: Self.push("p1")) == Self.push("p1"))
    #expect(log.shown(over: []).ids == ["p1"])
  }

  /// An acknowledged record leaves when the copy held reflects it (a version at its cursor, or
  /// a copy it does not change), but only after every older record of the notification: a
  /// newer unread leaving before an older read would show the read again.
  @Test func anAcknowledgedRecordLeavesOnceTheCopyReflectsItOldestFirst() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    log.acknowledge(UUID(1), at: 5)
    log.record(.markAsUnread("n1"), id: UUID(2))
    log.markSending(UUID(2))
    log.acknowledge(UUID(2), at: 6)
    // The copy held is unread at 3: the unread changes nothing on it, but the read before it
    // does, so neither leaves.
    let stale = ChangeLogTests.notification("n1", version: 3)
    log.forget(reflectedIn: ["n1"]) { _ in stale }
    #expect(log.records.count == 2)
    #expect(log.replaying(on: stale)?.isRead == false)
    // The copy at 6 reflects both.
    let fresh = ChangeLogTests.notification("n1", version: 6)
    log.forget(reflectedIn: ["n1"]) { _ in fresh }
    #expect(log.records.isEmpty)
  }

  /// A record naming several notifications leaves only when it is among the oldest records of
  /// each: reflected on `n1`, a mark-all of `n1` and `n2` stays while an older change to `n2`
  /// has not been answered.
  @Test func aRecordOfSeveralNotificationsWaitsForTheOlderRecordsOfEach() {
    var log = ChangeLog()
    log.record(.markAsUnread("n2"), id: UUID(1))
    log.record(.markAllAsRead(["n1", "n2"]), id: UUID(2))
    log.markSending(UUID(2))
    log.acknowledge(UUID(2), at: 6)
    let copies = ["n1", "n2"].map { ChangeLogTests.notification($0, version: 6) }
    let held = { (id: String) in copies.first { $0.id == id } }
    log.forget(reflectedIn: ["n1"], copy: held)
    #expect(log.records.map(\.id) == [UUID(1), UUID(2)])
    log.markSending(UUID(1))
    log.acknowledge(UUID(1), at: 5)
    log.forget(reflectedIn: ["n1", "n2"], copy: held)
    #expect(log.records.isEmpty)
  }
}
