import Foundation
import Loom
import Notifications
import Testing

/// The rules of ``ChangeLog``, one test each, on a log alone.
struct ChangeLogTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  static func notification(
    _ id: String, isRead: Bool = false, version: ChangeCursor? = nil, minutesAgo: Double = 0
  ) -> NotificationData {
    NotificationData(
      id: id, type: .ping, title: id, message: "",
      timestamp: start.addingTimeInterval(-minutesAgo * 60), isRead: isRead, version: version)
  }

  @Test func aRecordedChangeIsShownAtOnceAndWaitsToBeSent() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    #expect(log.records.elements == [ChangeRecord(id: UUID(1), intent: .markAsRead("n1"))])
    #expect(log.replaying(on: Self.notification("n1"))?.isRead == true)
    #expect(log.replaying(on: Self.notification("n2"))?.isRead == false)
    #expect(log.recordsReadyToSend == [UUID(1)])
  }

  /// Only a pending record is marked in flight: one in flight or acknowledged already stays as
  /// it is (an answer is not undone by a late second send).
  @Test func onlyAPendingRecordIsMarkedSending() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    #expect(
      log.markSending(UUID(1))
        == ChangeRecord(id: UUID(1), intent: .markAsRead("n1"), status: .sending(failures: 0)))
    #expect(log.markSending(UUID(1)) == nil)
    log.acknowledge(UUID(1), at: 7)
    #expect(log.markSending(UUID(1)) == nil)
    #expect(log.markSending(UUID(2)) == nil)
    #expect(
      log.records.elements
        == [ChangeRecord(id: UUID(1), intent: .markAsRead("n1"), status: .acknowledged(7))])
  }

  /// Only a record waiting for its backoff is made pending again by a retry: one in flight
  /// stays in flight.
  @Test func onlyAWaitingRecordIsRetried() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    log.retry(UUID(1))
    #expect(log[UUID(1)]?.status == .sending(failures: 0))
    _ = log.fail(UUID(1), with: .server(status: 503), at: Self.start)
    log.retry(UUID(1))
    #expect(log[UUID(1)]?.status == .pending(failures: 1))
  }

  @Test func aNewerChangeToANotificationWaitsForTheOlderOnesAcknowledgement() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    log.record(.markAsUnread("n1"), id: UUID(2))
    log.record(.markAsRead("n2"), id: UUID(3))
    #expect(log.recordsReadyToSend == [UUID(3)])
    #expect(log.replaying(on: Self.notification("n1", isRead: true))?.isRead == false)
    log.acknowledge(UUID(1), at: 7)
    #expect(log.recordsReadyToSend == [UUID(2), UUID(3)])
  }

  @Test func aChangeToEveryNotificationIsOrderedAfterEveryOlderChangeAndBeforeEveryNewer() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.record(.deleteAll(upTo: nil), id: UUID(2))
    log.record(.markAsRead("n9"), id: UUID(3))
    #expect(log.recordsReadyToSend == [UUID(1)])
    log.markSending(UUID(1))
    log.acknowledge(UUID(1), at: 1)
    #expect(log.recordsReadyToSend == [UUID(2)])
    log.markSending(UUID(2))
    log.acknowledge(UUID(2), at: 2)
    #expect(log.recordsReadyToSend == [UUID(3)])
  }

  @Test func anAcknowledgedChangeIsReplayedOnlyOnCopiesOlderThanItsCursor() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    log.acknowledge(UUID(1), at: 10)
    // A page read before the change, answered after it.
    #expect(log.replaying(on: Self.notification("n1", version: 9))?.isRead == true)
    // Another device marked it unread after the change.
    #expect(log.replaying(on: Self.notification("n1", version: 11))?.isRead == false)
    #expect(log.replaying(on: Self.notification("n1", isRead: true, version: 10))?.isRead == true)
  }

  @Test func anAcknowledgedChangeLeavesOnceWhatIsSeenReachesItsCursor() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.record(.markAsRead("n2"), id: UUID(2))
    log.markSending(UUID(1))
    log.markSending(UUID(2))
    log.acknowledge(UUID(1), at: 10)
    log.acknowledge(UUID(2), at: 12)
    log.forget(upTo: 11)
    #expect(log.records.ids == [UUID(2)])
    log.forget(upTo: 12)
    #expect(log.isEmpty)
  }

  @Test func anAnswerWithoutACursorRemovesTheRecordAndReturnsIt() {
    var log = ChangeLog()
    log.record(.delete("n1"), id: UUID(1))
    log.markSending(UUID(1))
    let record = log.acknowledge(UUID(1), at: nil)
    #expect(
      record == ChangeRecord(id: UUID(1), intent: .delete("n1"), status: .sending(failures: 0)))
    #expect(log.isEmpty)
  }

  @Test func aNewerChoiceReplacesOlderReadsAndUnreadsNotYetSent() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.record(.markAsUnread("n1"), id: UUID(2))
    #expect(log.records.ids == [UUID(2)])
    log.markSending(UUID(2))
    log.record(.markAsRead("n1"), id: UUID(3))
    log.record(.markAsUnread("n1"), id: UUID(4))
    // The one in flight stays: the server may have applied it.
    #expect(log.records.ids == [UUID(2), UUID(4)])
    // A delete replaces nothing: refused, it leaves the read state the person chose last,
    // which is sent before it.
    log.record(.delete("n1"), id: UUID(5))
    #expect(log.records.ids == [UUID(2), UUID(4), UUID(5)])
  }

  @Test func aChangeToALocalNoticeIsAppliedToItAndNeverSent() {
    var log = ChangeLog()
    var notice = Self.notification("notice-1")
    notice.isRead = false
    log.recordNotice(notice)
    #expect(log.unlisted[id: "notice-1"]?.isRead == true)
    #expect(log.unlisted[id: "notice-1"]?.isLocal == true)
    log.record(.markAsUnread("notice-1"), id: UUID(1))
    #expect(log.unlisted[id: "notice-1"]?.isRead == true)
    log.record(.markAllAsRead(["notice-1", "n1"]), id: UUID(2))
    #expect(log.records.elements == [ChangeRecord(id: UUID(2), intent: .markAllAsRead(["n1"]))])
    log.record(.delete("notice-1"), id: UUID(3))
    #expect(log.unlisted.isEmpty)
    #expect(log.records.ids == [UUID(2)])
  }

  @Test func aNoticeThatTakesAPushsIDTakesNoReceivedDate() {
    var log = ChangeLog()
    log.receive(Self.notification("p1"), at: Self.start)
    log.recordNotice(Self.notification("p1"))
    #expect(log.unlisted[id: "p1"]?.isLocal == true)
    #expect(log.received.isEmpty)
    log.record(.delete("p1"), id: UUID(1))
    #expect(log.isEmpty)
    #expect(log.received.isEmpty)
  }

  @Test func aClearAllRemovesLocalNoticesAndSendsItsBound() {
    var log = ChangeLog()
    log.recordNotice(Self.notification("notice-1"))
    let bound = FeedPosition(Self.notification("n1"))
    log.record(.deleteAll(upTo: bound), id: UUID(1))
    #expect(log.unlisted.isEmpty)
    #expect(log.records.elements == [ChangeRecord(id: UUID(1), intent: .deleteAll(upTo: bound))])
  }

  @Test func aChangeToAnUnlistedPushWaitsUntilTheServerListsIt() {
    var log = ChangeLog()
    let push = Self.notification("p1")
    let first = log.receive(push, at: Self.start)
    let again = log.receive(push, at: Self.start)
    #expect(first && !again)
    log.record(.delete("p1"), id: UUID(1))
    #expect(log[UUID(1)]?.status == .awaitingListing)
    #expect(log.recordsReadyToSend.isEmpty)
    #expect(log.shown(over: []).isEmpty)
    log.serverListed(["p1"])
    #expect(log.unlisted.isEmpty)
    #expect(log[UUID(1)]?.status == .pending(failures: 0))
    #expect(log.recordsReadyToSend == [UUID(1)])
    #expect(log.shown(over: [Self.notification("p1", version: 3)]).isEmpty)
  }

  @Test func beingOfflineCountsNoFailureAndAServerErrorCountsOne() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    #expect(log.fail(UUID(1), with: .network, at: Self.start) == .willRetry(failures: 0))
    #expect(log[UUID(1)]?.firstFailure == nil)
    log.retry(UUID(1))
    log.markSending(UUID(1))
    #expect(
      log.fail(UUID(1), with: .server(status: 503), at: Self.start) == .willRetry(failures: 1))
    #expect(log[UUID(1)]?.status == .waiting(failures: 1))
    #expect(log[UUID(1)]?.firstFailure == Self.start)
  }

  @Test func aChangeThatFailedForNowWaitsForItsBackoffAndHoldsBackNewerOnes() {
    var log = ChangeLog()
    log.record(.delete("n1"), id: UUID(1))
    log.markSending(UUID(1))
    _ = log.fail(UUID(1), with: .server(status: 503), at: Self.start)
    log.record(.markAsRead("n1"), id: UUID(2))
    log.record(.markAsRead("n2"), id: UUID(3))
    #expect(log[UUID(1)]?.status == .waiting(failures: 1))
    #expect(log.recordsReadyToSend == [UUID(3)])
    log.retry(UUID(1))
    #expect(log[UUID(1)]?.status == .pending(failures: 1))
    #expect(log.recordsReadyToSend == [UUID(1), UUID(3)])
    // A launch does not wait for a backoff.
    _ = log.fail(UUID(1), with: .server(status: 503), at: Self.start)
    #expect(log.restoredForLaunch[UUID(1)]?.status == .pending(failures: 2))
  }

  @Test func aChangeIsGivenUpOnlyAfterManyFailuresOverALongTime() {
    let policy = ChangeLog.RetryPolicy(maximumFailures: 3, maximumAge: 3_600)
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    var now = Self.start
    for failures in 1...5 {
      log.retry(UUID(1))
      log.markSending(UUID(1))
      #expect(
        log.fail(UUID(1), with: .server(status: 500), at: now, policy: policy)
          == .willRetry(failures: failures))
      now += 60
    }
    now = Self.start + 3_600
    log.retry(UUID(1))
    log.markSending(UUID(1))
    let given = log.fail(UUID(1), with: .server(status: 500), at: now, policy: policy)
    guard case .removed(let record, let error) = given else {
      Issue.record("not given up: \(given)")
      return
    }
    #expect(record.id == UUID(1))
    #expect(error == .outboxGaveUp)
    #expect(log.isEmpty)
  }

  @Test func aChangeTheServerRefusesLeavesAndIsNoLongerShown() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.markSending(UUID(1))
    #expect(
      log.fail(UUID(1), with: .notFound, at: Self.start)
        == .removed(
          ChangeRecord(id: UUID(1), intent: .markAsRead("n1"), status: .sending(failures: 0)),
          error: .notFound))
    #expect(log.replaying(on: Self.notification("n1"))?.isRead == false)
    #expect(log.fail(UUID(1), with: .notFound, at: Self.start) == .unknown)
  }

  @Test func aSavedLogIsRestoredWithItsChangeIdsAndWhatWasInFlightPendingAgain() throws {
    var log = ChangeLog()
    log.receive(Self.notification("p1"), at: Self.start)
    log.recordNotice(Self.notification("notice-1", minutesAgo: 1))
    log.record(.markAsRead("n1"), id: UUID(1))
    log.record(.markAsRead("p1"), id: UUID(2))
    log.markSending(UUID(1))
    let data = try JSONEncoder().encode(log)
    let restored = try JSONDecoder().decode(ChangeLog.self, from: data)
    #expect(restored == log)
    #expect(restored.restoredForLaunch[UUID(1)]?.status == .pending(failures: 0))
    #expect(restored.restoredForLaunch.recordsReadyToSend == [UUID(1)])
    #expect(restored.restoredForLaunch[UUID(2)]?.status == .awaitingListing)
  }

  @Test func anOutboxAnEarlierVersionSavedBecomesPendingRecordsInOrder() throws {
    // As that version saved it: the entries, what undid each, and how often each failed.
    let json = #"""
      {"entries":[{"markAsRead":{"_0":"n1"}},{"delete":{"_0":"n2"}},{"deleteAll":{}}],\#
      "rollbacks":[{"markAsRead":{"_0":"n1"}},{"setRead":{"id":"n1","isRead":true,"previous":false}}],\#
      "failures":[{"delete":{"_0":"n2"}},7]}
      """#
    let outbox = try JSONDecoder().decode(
      NotificationFeature.SavedOutbox.self, from: Data(json.utf8))
    var next: UInt64 = 0
    let log = ChangeLog(migrating: outbox) {
      next += 1
      return UUID(next)
    }
    #expect(
      log.records.elements == [
        ChangeRecord(id: UUID(1), intent: .markAsRead("n1")),
        ChangeRecord(id: UUID(2), intent: .delete("n2")),
        ChangeRecord(id: UUID(3), intent: .deleteAll(upTo: nil)),
      ])
  }

  @Test func aRestoredLogGoesBeforeWhatThisLaunchRecordedMeanwhile() {
    var saved = ChangeLog()
    saved.record(.markAsRead("n1"), id: UUID(1))
    saved.record(.markAsRead("n2"), id: UUID(2))
    saved.receive(Self.notification("p1"), at: Self.start)
    var launch = ChangeLog()
    launch.record(.markAsUnread("n1"), id: UUID(3))
    launch.receive(Self.notification("p2"), at: Self.start)
    let merged = saved.merging(newer: launch)
    // The restored read of n1 is older than this launch's unread: the unread replaces it.
    #expect(merged.records.ids == [UUID(2), UUID(3)])
    #expect(merged.unlisted.ids == ["p1", "p2"])
    #expect(merged.replaying(on: Self.notification("n1", isRead: true))?.isRead == false)
  }

  @Test func whatIsShownIsTheTruthAndTheUnlistedWithTheLogReplayedInTheFeedsOrder() {
    var log = ChangeLog()
    log.receive(Self.notification("p1", minutesAgo: 0), at: Self.start)
    log.record(.delete("n2"), id: UUID(1))
    log.record(.markAllAsRead(nil), id: UUID(2))
    let truth = [
      Self.notification("n1", minutesAgo: 1), Self.notification("n2", minutesAgo: 2),
      Self.notification("n3", minutesAgo: 3),
    ]
    let shown = log.shown(over: truth)
    #expect(shown.ids == ["p1", "n1", "n3"])
    #expect(shown.allSatisfy { $0.isRead })
  }
}
