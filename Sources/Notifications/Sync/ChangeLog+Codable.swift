import Foundation
import Loom

extension ChangeLog: Codable {
  private enum CodingKeys: String, CodingKey {
    case records, unlisted, received
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let records = try container.decode([ChangeRecord].self, forKey: .records)
    let unlisted = try container.decode([NotificationData].self, forKey: .unlisted)
    self.init(records: IdentifiedArrayOf(uniqueElements: records))
    self.unlisted = NotificationFeed(
      uniqueElements: unlisted.sorted(by: NotificationData.isOrderedBefore))
    self.received = try container.decode([String: Date].self, forKey: .received)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(records.elements, forKey: .records)
    try container.encode(unlisted.elements, forKey: .unlisted)
    try container.encode(received, forKey: .received)
  }
}

extension ChangeLog {
  /// The log as a new launch takes it from what was saved: a record that was in flight, or
  /// waiting for its backoff, is pending again, sent with the same id (the server applies it
  /// once however often it gets it).
  public var restoredForLaunch: ChangeLog {
    var log = self
    for record in records {
      switch record.status {
      case .sending(let failures), .waiting(let failures):
        log.setStatus(.pending(failures: failures), of: record.id)
      case .pending, .awaitingListing, .acknowledged:
        break
      }
    }
    return log
  }

  /// The log of what an earlier version saved in the settings: the pushes its feed had not
  /// listed (received `now`, as far as ``expireUnlisted(receivedBefore:)`` is concerned) and
  /// its local notices, then each queued change of its outbox, recorded with a new id in the
  /// outbox's order (a change to one of those pushes waits for the server to list it, as one
  /// recorded now would). What the outbox kept to undo each change is not needed (a change the
  /// server refuses leaves the log), and its failure counts counted launches, which no longer
  /// count. The ids of pushes deleted before they were listed (`SavedPushes.deletedIDs`) have
  /// no record in the log: a change needs the push it changes.
  ///
  /// ```swift
  /// let log = ChangeLog(migrating: savedOutbox, ids: { uuid() })
  /// ```
  public init(
    migrating outbox: NotificationFeature.SavedOutbox,
    pushes: NotificationFeature.SavedPushes = NotificationFeature.SavedPushes(),
    receivedAt now: Date = .distantPast, ids makeID: () -> UUID
  ) {
    self.init()
    for push in pushes.pushes { receive(push, at: now) }
    for notice in pushes.notices { recordNotice(notice) }
    for entry in outbox.entries { record(entry, id: makeID()) }
  }

  /// Merges a log restored at launch under what this launch recorded before it was read: the
  /// restored records are older, so they go first (rule 1), and rule 4 applies to them as if
  /// they had been recorded first. Unlisted pushes and notices of both are kept.
  ///
  /// ```swift
  /// state.log = saved.restoredForLaunch.merging(newer: state.log)
  /// ```
  public func merging(newer: ChangeLog) -> ChangeLog {
    var merged = self
    for notification in newer.unlisted where !merged.unlisted.contains(id: notification.id) {
      merged.willChangeUnlisted(notification.id)
      merged.unlisted.insert(notification, at: merged.unlisted.insertionIndex(for: notification))
      merged.received[notification.id] = newer.received[notification.id]
    }
    for record in newer.records where merged.records[id: record.id] == nil {
      merged.replaceOlderChoices(by: record.intent)
      merged.appendRecord(record)
    }
    return merged
  }
}
