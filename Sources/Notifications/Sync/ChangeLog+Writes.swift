import Foundation
import Loom

extension ChangeLog {
  /// One row-level change to a saved ``ChangeLog``: what a ``ChangeLogStore`` writes, in order,
  /// to make the log it holds the log the feature has now.
  ///
  /// A store keeps the records in the order they were first saved: saving a record it holds
  /// replaces it in its place, and saving one it does not hold puts it after every other. The
  /// unlisted notifications have no order of their own (the feed's order is recomputed when
  /// the log is loaded).
  ///
  /// ```swift
  /// var log = try await store.load().restoredForLaunch
  /// let saved = log
  /// log.record(.markAsRead("n1"), id: changeID)
  /// try await store.write(log.writes(from: saved))
  /// ```
  public enum Write: Sendable, Hashable {
    /// Saves a record: in its place when the store holds its id, after every record otherwise.
    case saveRecord(ChangeRecord)
    /// Removes the record with this id, if the store holds it.
    case removeRecord(id: UUID)
    /// Replaces the record with its id, in its place, if the store holds it; writes nothing
    /// otherwise. How the effect that sent a record saves the server's answer to it
    /// (``ChangeRecord/Status/acknowledged(_:)``): a record the log let go of meanwhile, its
    /// removal written, is not saved again.
    case replaceRecord(ChangeRecord)
    /// Saves a push the server has not listed, with when the device received it, or a local
    /// notice (received `nil`), replacing the one with its id.
    case saveUnlisted(NotificationData, received: Date?)
    /// Removes the unlisted push or local notice with this id, and its received date.
    case removeUnlisted(id: String)
  }

  /// The writes that turn a store holding `old` into one holding this log: the records added,
  /// changed or removed, and the unlisted pushes and notices added, changed or removed. A log
  /// that is `old` unchanged needs none.
  ///
  /// ```swift
  /// let saved = log
  /// log.record(.markAsRead("n1"), id: changeID)
  /// log.writes(from: saved)   // one write: .saveRecord of the new record
  /// ```
  ///
  /// A record keeps its place in the store while the records before it do: the log only ever
  /// appends records and removes them, so a change of status is one save. A record that moved
  /// relative to the ones kept before it (``merging(newer:)`` puts restored records before
  /// newer ones) is removed and saved again, after the others, as is every record after it.
  ///
  /// - Complexity: O(1) when neither the records nor the unlisted notifications changed (their
  ///   buffers are shared with `old`'s); otherwise O(*r* + *u*) comparisons for *r* records
  ///   and *u* unlisted notifications in both logs, each of which is cheap next to a write.
  public func writes(from old: ChangeLog) -> [Write] {
    var writes: [Write] = []
    if records != old.records {
      for record in old.records where !records.contains(id: record.id) {
        writes.append(.removeRecord(id: record.id))
      }
      // The records that keep their place: a prefix of this log's, in `old`'s order. The
      // store puts every other one after them, so they are (re)saved in this log's order.
      var keepsPlace = true
      var lastPosition = -1
      for record in records {
        let position = old.records.index(id: record.id)
        if keepsPlace, let position, position > lastPosition {
          lastPosition = position
          if old.records[position] != record { writes.append(.saveRecord(record)) }
          continue
        }
        keepsPlace = false
        if position != nil { writes.append(.removeRecord(id: record.id)) }
        writes.append(.saveRecord(record))
      }
    }
    if unlisted != old.unlisted || received != old.received {
      for notification in old.unlisted where !unlisted.contains(id: notification.id) {
        writes.append(.removeUnlisted(id: notification.id))
      }
      for notification in unlisted
      where old.unlisted[id: notification.id] != notification
        || old.received[notification.id] != received[notification.id]
      {
        writes.append(.saveUnlisted(notification, received: received[notification.id]))
      }
    }
    return writes
  }

  /// The log a store saved: its records in the order it keeps them, and its unlisted pushes
  /// and local notices, in any order, each with when the device received it (`nil` for a
  /// notice). The first of two records or notifications with one id is kept.
  ///
  /// ```swift
  /// let log = ChangeLog(records: savedRecords, unlisted: savedUnlisted)
  /// ```
  ///
  /// - Complexity: O(*r* + *u* log *u*) for *r* records and *u* unlisted notifications.
  public init(
    records: some Sequence<ChangeRecord>,
    unlisted: some Sequence<(NotificationData, received: Date?)>
  ) {
    self.init(records: IdentifiedArrayOf(uniqueElements: records))
    var notifications = IdentifiedArrayOf<NotificationData>()
    for (notification, received) in unlisted {
      guard notifications.append(notification).inserted else { continue }
      self.received[notification.id] = received
    }
    notifications.sort(by: NotificationData.isOrderedBefore)
    self.unlisted = NotificationFeed(notifications)
  }
}
