// The snippets of the doc comments of ChangeLog and ChangeRecord.

import Foundation
import Loom
import NotificationFeature
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
    let savedOutbox = NotificationsFeature.SavedOutbox(entries: [.markAsRead("n1")])
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
}
