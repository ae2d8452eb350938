// The snippets of the doc comments of ChangeLog, ChangeRecord, ChangeLogStore and ServerFeed.

import Foundation
import Loom
import Notifications
import Testing

struct SyncLogDocSnippets {
  let changeID = UUID(7)
  let unreadCopy = NotificationData(
    id: "n1", type: .ping, title: "Hi", message: "", timestamp: .now, version: 3)

  @Test func aLogSendsAcknowledgesAndForgetsAChange() {
    let changeID = changeID
    // snippet: change-log
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: changeID)          // shown read at once
    for id in log.recordsReadyToSend { log.markSending(id) /* send log[id]!.request */ }
    log.acknowledge(changeID, at: 42)                   // the server applied it at 42
    log.forget(upTo: 42)                                // a page at 42 reflects it: it leaves
    // snippet: end
    #expect(log.isEmpty)
  }

  @Test func aCheckpointGivesTheWritesMadeSinceIt() async throws {
    let changeID = changeID
    let store = ChangeLogStore.inMemory()
    var log = ChangeLog()
    // snippet: change-log-checkpoint
    let checkpoint = log.checkpoint()
    log.record(.markAsRead("n1"), id: changeID)
    try await store.write(log.writes(since: checkpoint) ?? [])
    // snippet: end
    #expect(try await store.load().records.map(\.intent) == [.markAsRead("n1")])
  }

  @Test func aLateAnswerDoesNotUndoANewerOne() {
    let readCopy = NotificationData(
      id: "n1", type: .ping, title: "Hi", message: "", timestamp: .now, isRead: true, version: 9)
    var feed = ServerFeed()
    let values = featureDocValues {
      // snippet: server-feed
      feed.replace(with: NotificationPage(items: [readCopy], changeCursor: 9))
      feed.apply(NotificationEvent(.deleted(id: readCopy.id), cursor: 10))
      feed.replace(with: NotificationPage(items: [readCopy], changeCursor: 8))   // late: older
      feed.notifications.isEmpty   // true
      // snippet: end
    }
    #expect(values.compactMap { $0 as? Bool } == [true, true, false, true])
  }

  @Test func aRecordStartsPending() {
    let changeID = changeID
    var log = ChangeLog()
    let values = featureDocValues {
      // snippet: change-record
      log.record(.markAsRead("n1"), id: changeID)
      log[changeID]?.status   // .pending(failures: 0)
      // snippet: end
    }
    #expect(values[1] as? ChangeRecord.Status? == .pending(failures: 0))
  }

  @Test func aRecordIsReplayedOnACopy() {
    let changeID = changeID
    let unreadCopy = unreadCopy
    var log = ChangeLog()
    let values = featureDocValues {
      // snippet: change-log-replaying
      log.record(.markAsRead("n1"), id: changeID)
      log.replaying(on: unreadCopy)?.isRead   // true
      // snippet: end
    }
    #expect(values[1] as? Bool? == true)
  }

  @Test func anOutboxIsMigratedAndARestoredLogMerged() {
    let savedOutbox = NotificationFeature.SavedOutbox(entries: [.markAsRead("n1")])
    let uuid = UUIDGenerator.incrementing
    var saved = ChangeLog()
    saved.record(.markAsUnread("n2"), id: UUID(9))
    var state = (log: ChangeLog(), unused: 0)
    state.log.record(.markAsRead("n2"), id: UUID(10))
    // snippet: change-log-migrating
    let log = ChangeLog(migrating: savedOutbox, ids: { uuid() })
    // snippet: end
    // snippet: change-log-merging
    state.log = saved.restoredForLaunch.merging(newer: state.log)
    // snippet: end
    #expect(log.records.map(\.intent) == [.markAsRead("n1")])
    #expect(state.log.records.ids == [UUID(10)])
  }

  @Test func aLogIsWrittenToItsStoreAsWhatChanged() async throws {
    let changeID = changeID
    let store = ChangeLogStore.inMemory()
    // snippet: change-log-store
    var log = try await store.load().restoredForLaunch
    let saved = log
    log.record(.markAsRead("n1"), id: changeID)
    try await store.write(log.writes(from: saved))
    // snippet: end
    #expect(try await store.load() == log)
  }

  @Test func theWritesOfANewRecordSaveIt() {
    let changeID = changeID
    var log = ChangeLog()
    log.record(.markAsRead("n0"), id: UUID(1))
    let values = featureDocValues {
      // snippet: change-log-writes
      let saved = log
      log.record(.markAsRead("n1"), id: changeID)
      log.writes(from: saved)   // one write: .saveRecord of the new record
      // snippet: end
    }
    #expect(
      values[1] as? [ChangeLog.Write]
        == [.saveRecord(ChangeRecord(id: changeID, intent: .markAsRead("n1")))])
  }

  @Test func aLogIsMadeFromTheRowsAStoreSaved() {
    let savedRecords = [ChangeRecord(id: changeID, intent: .markAsRead("n1"))]
    let savedUnlisted = [(unreadCopy, received: Optional(Date(timeIntervalSince1970: 0)))]
    // snippet: change-log-rows
    let log = ChangeLog(records: savedRecords, unlisted: savedUnlisted)
    // snippet: end
    #expect(log.records.elements == savedRecords)
    #expect(log.unlisted.ids == ["n1"])
    #expect(log.received == ["n1": Date(timeIntervalSince1970: 0)])
  }

  @Test func copiesOfAStoreInMemoryShareItsRows() async throws {
    let changeID = changeID
    // snippet: change-log-store-in-memory
    let store = ChangeLogStore.inMemory()
    let other = store   // another "process" on the same rows
    try await store.write([.saveRecord(ChangeRecord(id: changeID, intent: .markAsRead("n1")))])
    let count = try await other.load().records.count   // 1
    // snippet: end
    #expect(count == 1)
  }
}
