import Foundation
import Loom
import Synchronization

extension ChangeLog {
  /// A mark of where a log was, to ask it later for the writes that make a store holding it
  /// then hold it now (``ChangeLog/writes(since:)``), without keeping a copy of it: a copy
  /// would make the next change copy every record.
  ///
  /// ```swift
  /// let checkpoint = log.checkpoint()
  /// log.record(.markAsRead("n1"), id: changeID)
  /// try await store.write(log.writes(since: checkpoint) ?? [])
  /// ```
  public struct Checkpoint: Sendable {
    let number: UInt64
  }

  /// Marks the log as it is now. From now on the log notes the rows each change touches, until
  /// the next checkpoint: ``writes(since:)`` answers for the newest checkpoint taken only.
  ///
  /// - Complexity: O(1).
  public mutating func checkpoint() -> Checkpoint {
    if let number = journal.number, journal.changes.isEmpty { return Checkpoint(number: number) }
    // A number no other checkpoint of any log had, taken without an allocation (a checkpoint
    // is taken at every action).
    let number = journalCheckpoints.wrappingAdd(1, ordering: .relaxed).newValue
    journal.restart(at: number)
    return Checkpoint(number: number)
  }

  /// The writes that turn a store holding this log as it was at `checkpoint` into one holding
  /// it now, as ``writes(from:)`` finds them, or `nil` when the log cannot tell: a newer
  /// checkpoint was taken, or the log was replaced by one that was not this log at
  /// `checkpoint`.
  ///
  /// The records removed come first, then the records saved, in the log's order, then the
  /// unlisted notifications removed, then the ones saved. A record removed and added again
  /// (with its id) is removed and saved, after the others.
  ///
  /// - Complexity: O(*c* log *c*) for the *c* rows changed since `checkpoint`.
  public func writes(since checkpoint: Checkpoint) -> [Write]? {
    guard journal.number == checkpoint.number else { return nil }
    // Most actions change one row, or none: what follows, without the tables it needs for more.
    guard journal.changes.count > 1 else {
      return journal.changes.first.map(write(for:)).map { $0.map { [$0] } ?? [] } ?? []
    }
    var firstRecords: [UUID: Journal.RecordChange] = [:]
    var recordOrder: [UUID] = []
    var firstUnlisted: [String: Journal.UnlistedChange] = [:]
    var unlistedOrder: [String] = []
    for change in journal.changes {
      switch change {
      case .record(let change):
        if let first = firstRecords[change.id] {
          // Absent then, present before: removed, then added again at the end.
          if change.before == nil, first.before != nil { firstRecords[change.id]?.moved = true }
        } else {
          firstRecords[change.id] = change
          recordOrder.append(change.id)
        }
      case .unlisted(let change):
        guard firstUnlisted[change.id] == nil else { continue }
        firstUnlisted[change.id] = change
        unlistedOrder.append(change.id)
      }
    }
    var writes: [Write] = []
    var saved: [(position: Int, record: ChangeRecord)] = []
    for id in recordOrder {
      guard let change = firstRecords[id] else { continue }
      let position = records.index(id: id)
      if change.before != nil, position == nil || change.moved {
        writes.append(.removeRecord(id: id))
      }
      if let position, change.moved || records[position] != change.before {
        saved.append((position, records[position]))
      }
    }
    writes += saved.sorted { $0.position < $1.position }.map { .saveRecord($0.record) }
    var savedUnlisted: [(position: Int, write: Write)] = []
    for id in unlistedOrder {
      guard let change = firstUnlisted[id] else { continue }
      guard let position = unlisted.index(id: id) else {
        if change.before != nil { writes.append(.removeUnlisted(id: id)) }
        continue
      }
      let notification = unlisted[position]
      if notification != change.before || received[id] != change.received {
        savedUnlisted.append((position, .saveUnlisted(notification, received: received[id])))
      }
    }
    writes += savedUnlisted.sorted { $0.position < $1.position }.map(\.write)
    return writes
  }

  /// The write of one change noted alone since the checkpoint, if it left a row changed.
  private func write(for change: Journal.Change) -> Write? {
    switch change {
    case .record(let change):
      guard let position = records.index(id: change.id) else {
        return change.before == nil ? nil : .removeRecord(id: change.id)
      }
      return records[position] == change.before ? nil : .saveRecord(records[position])
    case .unlisted(let change):
      guard let position = unlisted.index(id: change.id) else {
        return change.before == nil ? nil : .removeUnlisted(id: change.id)
      }
      let notification = unlisted[position]
      guard notification != change.before || received[change.id] != change.received else {
        return nil
      }
      return .saveUnlisted(notification, received: received[change.id])
    }
  }

  // MARK: The changes the journal notes

  /// Appends a record unless one with its id is there.
  mutating func appendRecord(_ record: ChangeRecord) {
    guard indexed.append(record) else { return }
    journal.note(.record(Journal.RecordChange(id: record.id, before: nil)))
  }

  /// Replaces the record with `record`'s id.
  mutating func updateRecord(_ record: ChangeRecord) {
    guard let old = indexed.update(record) else { return }
    journal.note(.record(Journal.RecordChange(id: record.id, before: old)))
  }

  /// Sets the status of the record with this id.
  mutating func setStatus(_ status: ChangeRecord.Status, of id: UUID) {
    updateStatus(of: id) { _ in status }
  }

  /// Gives the record with this id the status `newStatus` makes of its own (`nil` leaves it),
  /// looking the id up once, and notes the change unless `isSaved` (the store has it already).
  ///
  /// - Returns: The record before and after, or `nil` when none has the id or it is left.
  @discardableResult
  mutating func updateStatus(
    of id: UUID, isSaved: Bool = false,
    _ newStatus: (ChangeRecord.Status) -> ChangeRecord.Status?
  ) -> (before: ChangeRecord, after: ChangeRecord)? {
    guard let (before, after) = indexed.updateStatus(of: id, newStatus) else { return nil }
    if !isSaved { journal.note(.record(Journal.RecordChange(id: id, before: before))) }
    return (before, after)
  }

  @discardableResult
  mutating func removeRecord(id: UUID) -> ChangeRecord? {
    guard let old = indexed.remove(id: id) else { return nil }
    journal.note(.record(Journal.RecordChange(id: id, before: old)))
    return old
  }

  mutating func removeRecords(_ ids: Set<UUID>) {
    for old in indexed.remove(ids: ids) {
      journal.note(.record(Journal.RecordChange(id: old.id, before: old)))
    }
  }

  /// Notes the unlisted notification with this id as it is, before a change to it or to its
  /// received date.
  mutating func willChangeUnlisted(_ id: String) {
    guard journal.number != nil else { return }
    journal.note(
      .unlisted(Journal.UnlistedChange(id: id, before: unlisted[id: id], received: received[id])))
  }
}

/// The rows a log changed since its last checkpoint, each with what it was before: how
/// ``ChangeLog/writes(since:)`` knows what to write without comparing every row.
///
/// Bookkeeping, not the log: two logs with the same rows are equal, whatever they noted on the
/// way (``ChangeLog``'s `==` and `hash(into:)` leave it out, and it is not saved). A log notes
/// nothing until its first ``ChangeLog/checkpoint()``, and forgets what it noted at the next.
/// Numbers the checkpoints of every log in the process: a log's journal answers only for the
/// checkpoint it was restarted at.
private let journalCheckpoints = Atomic<UInt64>(0)

struct Journal: Sendable {
  struct RecordChange: Sendable {
    var id: UUID
    /// The record before the change; `nil` when the log did not have it.
    var before: ChangeRecord?
    /// Whether it was removed and added again since the checkpoint (set when read).
    var moved = false
  }

  struct UnlistedChange: Sendable {
    var id: String
    var before: NotificationData?
    var received: Date?
  }

  enum Change: Sendable {
    case record(RecordChange)
    case unlisted(UnlistedChange)
  }

  /// The number of the checkpoint the changes are noted since; `nil` while no checkpoint was
  /// taken: nothing is noted.
  private(set) var number: UInt64?
  private(set) var changes: [Change] = []

  init() {}

  /// Starts noting changes since the checkpoint `number`, in the buffer the last one used.
  mutating func restart(at number: UInt64) {
    self.number = number
    changes.removeAll(keepingCapacity: true)
  }

  mutating func note(_ change: Change) {
    guard number != nil else { return }
    changes.append(change)
  }
}
