import Foundation
import Loom

/// A ``ChangeLog``'s records, oldest first, with an index that lets each call one action makes
/// cost what the records of its notifications cost, not what every record costs: the records
/// that pile up acknowledged (until what is seen reaches their cursors) are not looked at again.
///
/// The index is a function of the records (``rebuiltIndex``, which the model tests compare it
/// with after every step): it is neither compared, hashed nor saved.
///
/// Records are only appended, changed in place (their status; an intent never changes) and
/// removed, so the records of one notification stay in the log's order in the index.
struct IndexedRecords: Sendable {
  /// The records, oldest first.
  private(set) var records: IdentifiedArrayOf<ChangeRecord> = []
  private(set) var index = Index()

  /// What is kept about the records to find the ones an action concerns.
  struct Index: Sendable, Equatable {
    /// For each notification, the records that name it (every status), oldest first.
    var byNotification: [String: [UUID]] = [:]
    /// The records that touch every notification (a mark-all or clear-all of everything),
    /// oldest first.
    var everything: [UUID] = []
    /// The pending records: the only ones ``IndexedRecords/readyToSend`` may return.
    var pending: Set<UUID> = []
    /// The records neither acknowledged nor awaiting a listing: each holds back a newer change
    /// to every notification (rule 2).
    var open: Set<UUID> = []
    /// The records awaiting a push's listing.
    var awaitingListing: Set<UUID> = []
    /// How many records in flight name each notification (no entry for none).
    var inFlight: [String: Int] = [:]
    /// How many records in flight touch every notification.
    var inFlightEverything = 0
    /// The acknowledged records by cursor, lowest first (records with one cursor in any order).
    var acknowledged: [Acknowledged] = []
  }

  struct Acknowledged: Sendable, Hashable {
    var cursor: ChangeCursor
    var id: UUID
  }

  init() {}

  /// - Complexity: O(*r*) for *r* records.
  init(_ records: IdentifiedArrayOf<ChangeRecord>) {
    self.records = records
    index = Self.index(of: records)
  }

  subscript(id: UUID) -> ChangeRecord? { records[id: id] }

  // MARK: Changes

  /// Appends `record` unless one with its id is there.
  ///
  /// - Returns: Whether it was appended.
  /// - Complexity: O(*k*) for *k* notifications it names.
  @discardableResult
  mutating func append(_ record: ChangeRecord) -> Bool {
    guard records.append(record).inserted else { return false }
    if record.touchesEverything {
      index.everything.append(record.id)
    } else {
      Self.forEachName(of: record) { index.byNotification[$0, default: []].append(record.id) }
    }
    indexStatus(of: record)
    return true
  }

  /// Replaces the record with `record`'s id by `record` (same intent, a new status).
  ///
  /// - Returns: The record replaced.
  /// - Complexity: O(*k*) for *k* notifications it names, plus O(log *a*) for *a* acknowledged
  ///   records when it is or was acknowledged.
  @discardableResult
  mutating func update(_ record: ChangeRecord) -> ChangeRecord? {
    guard let position = records.index(id: record.id) else { return nil }
    return replace(at: position, with: record)
  }

  /// Gives the record with this id the status `newStatus` makes of its own (`nil` leaves it
  /// as it is), looking the id up once.
  ///
  /// - Returns: The record before and after, or `nil` when none has the id or it is left.
  /// - Complexity: O(*k*) for *k* notifications it names, plus O(log *a*) for *a* acknowledged
  ///   records when it is or was acknowledged.
  mutating func updateStatus(
    of id: UUID, _ newStatus: (ChangeRecord.Status) -> ChangeRecord.Status?
  ) -> (before: ChangeRecord, after: ChangeRecord)? {
    guard let position = records.index(id: id) else { return nil }
    var after = records[position]
    guard let status = newStatus(after.status) else { return nil }
    after.status = status
    return (replace(at: position, with: after), after)
  }

  /// Puts `record` at `position`, in the place of the record with its id, and returns that one.
  private mutating func replace(at position: Int, with record: ChangeRecord) -> ChangeRecord {
    let old = records[position]
    unindexStatus(of: old)
    records[position] = record
    indexStatus(of: record)
    return old
  }

  /// Removes the record with this id.
  ///
  /// - Complexity: O(*m* + *k* × *n*) for the *m* records after it and the *n* records of each
  ///   of the *k* notifications it names.
  @discardableResult
  mutating func remove(id: UUID) -> ChangeRecord? {
    guard let record = records.remove(id: id) else { return nil }
    unindex(record)
    return record
  }

  /// Removes the records with these ids, in one pass over the records.
  ///
  /// - Returns: The records removed, oldest first.
  /// - Complexity: O(1) for no ids; O(*r* + *k* log *k*) for *r* records and *k* ids otherwise.
  mutating func remove(ids: Set<UUID>) -> [ChangeRecord] {
    guard !ids.isEmpty else { return [] }
    let positions = IndexSet(ids.compactMap(records.index(id:)))
    guard !positions.isEmpty else { return [] }
    let removed = positions.map { records[$0] }
    records.remove(atOffsets: positions)
    for record in removed { unindex(record) }
    return removed
  }

  private mutating func unindex(_ record: ChangeRecord) {
    unindexStatus(of: record)
    if record.touchesEverything {
      index.everything.removeAll { $0 == record.id }
      return
    }
    Self.forEachName(of: record) { name in
      index.byNotification[name]?.removeAll { $0 == record.id }
      if index.byNotification[name]?.isEmpty ?? false { index.byNotification[name] = nil }
    }
  }

  private mutating func indexStatus(of record: ChangeRecord) {
    Self.indexStatus(of: record, in: &index)
  }

  private mutating func unindexStatus(of record: ChangeRecord) {
    switch record.status {
    case .pending:
      index.pending.remove(record.id)
      index.open.remove(record.id)
    case .waiting:
      index.open.remove(record.id)
    case .sending:
      index.open.remove(record.id)
      if record.touchesEverything { index.inFlightEverything -= 1 }
      Self.forEachName(of: record) { name in
        let count = (index.inFlight[name] ?? 1) - 1
        index.inFlight[name] = count > 0 ? count : nil
      }
    case .awaitingListing:
      index.awaitingListing.remove(record.id)
    case .acknowledged(let cursor):
      var position = index.acknowledged.firstPosition { $0.cursor >= cursor }
      while position < index.acknowledged.count, index.acknowledged[position].cursor == cursor {
        if index.acknowledged[position].id == record.id {
          index.acknowledged.remove(at: position)
          return
        }
        position += 1
      }
    }
  }

  private static func indexStatus(of record: ChangeRecord, in index: inout Index) {
    switch record.status {
    case .pending:
      index.pending.insert(record.id)
      index.open.insert(record.id)
    case .waiting:
      index.open.insert(record.id)
    case .sending:
      index.open.insert(record.id)
      if record.touchesEverything { index.inFlightEverything += 1 }
      forEachName(of: record) { index.inFlight[$0, default: 0] += 1 }
    case .awaitingListing:
      index.awaitingListing.insert(record.id)
    case .acknowledged(let cursor):
      // Answers mostly come in the server's order: this is usually an append.
      let position = index.acknowledged.firstPosition { $0.cursor > cursor }
      index.acknowledged.insert(Acknowledged(cursor: cursor, id: record.id), at: position)
    }
  }

  // MARK: Queries

  /// Calls `body` with each record that changes the notification with this id, oldest first
  /// (those that name it and those that touch every notification), until `body` returns
  /// `false`: no array, and no copy of a record the caller does not keep.
  ///
  /// - Complexity: O(*n* + *e*) for the *n* records that name it and the *e* that touch every
  ///   notification.
  func forEachRecord(touching id: String, _ body: (ChangeRecord) -> Bool) {
    let named = index.byNotification[id] ?? []
    let everything = index.everything
    guard !everything.isEmpty else {
      for recordID in named {
        if let position = records.index(id: recordID), !body(records[position]) { return }
      }
      return
    }
    var (nextNamed, nextEverything) = (0, 0)
    while nextNamed < named.count || nextEverything < everything.count {
      let takeNamed: Bool
      if nextNamed == named.count {
        takeNamed = false
      } else if nextEverything == everything.count {
        takeNamed = true
      } else {
        takeNamed =
          (records.index(id: named[nextNamed]) ?? 0)
          < (records.index(id: everything[nextEverything]) ?? 0)
      }
      let id = takeNamed ? named[nextNamed] : everything[nextEverything]
      if takeNamed { nextNamed += 1 } else { nextEverything += 1 }
      if let position = records.index(id: id), !body(records[position]) { return }
    }
  }

  /// The ids of the records that name the notification with this id, oldest first.
  func records(naming id: String) -> [UUID] { index.byNotification[id] ?? [] }

  /// The ids of the acknowledged records whose cursor `seen` reaches.
  ///
  /// - Complexity: O(log *a* + *f*) for *a* acknowledged records, *f* of them found.
  func acknowledged(upTo seen: ChangeCursor) -> Set<UUID> {
    guard let first = index.acknowledged.first, first.cursor <= seen else { return [] }
    let end = index.acknowledged.firstPosition { $0.cursor > seen }
    return Set(index.acknowledged[..<end].lazy.map(\.id))
  }

  /// The highest cursor of the acknowledged records.
  ///
  /// - Complexity: O(1).
  var newestAcknowledgement: ChangeCursor? { index.acknowledged.last?.cursor }

  /// The ids of the records awaiting a push's listing.
  var awaitingListing: Set<UUID> { index.awaitingListing }

  /// Rule 2: the ids of the pending records with no older unacknowledged record on one of their
  /// notifications and none in flight on one of them, oldest first. What is in flight holds back
  /// every other change to its notifications, older ones too (a change released when its push
  /// was listed may be older than one in flight). A record waiting for a push to be listed holds
  /// back no change to every notification: the server does not have the push, so such a change
  /// cannot reach it (rule 5 gives the push a change of its own).
  ///
  /// - Complexity: O(*p* × (*k* × *n* + *e*) + *p* log *p*) for *p* pending records naming *k*
  ///   notifications of *n* records each, and *e* records touching every notification; O(*o*)
  ///   more for a pending one of those, with *o* records neither acknowledged nor awaiting a
  ///   listing.
  var readyToSend: [UUID] {
    guard index.inFlightEverything == 0, !index.pending.isEmpty else { return [] }
    if index.pending.count == 1, let id = index.pending.first {
      guard let position = records.index(id: id), isReady(records[position], at: position) else {
        return []
      }
      return [id]
    }
    var ready: [(position: Int, id: UUID)] = []
    for id in index.pending {
      guard let position = records.index(id: id), isReady(records[position], at: position) else {
        continue
      }
      ready.append((position, id))
    }
    return ready.sorted { $0.position < $1.position }.map(\.id)
  }

  private func isReady(_ record: ChangeRecord, at position: Int) -> Bool {
    // An older change to every notification, unacknowledged, holds back every newer change.
    for id in index.everything {
      guard let other = records.index(id: id), other < position else { break }
      if !records[other].isAcknowledged { return false }
    }
    if record.touchesEverything {
      guard index.inFlight.isEmpty else { return false }
      return !index.open.contains { id in
        id != record.id && records.index(id: id).map { $0 < position } ?? false
      }
    }
    var isHeldBack = false
    Self.forEachName(of: record) { name in
      guard !isHeldBack else { return }
      if index.inFlight[name] != nil {
        isHeldBack = true
        return
      }
      for id in index.byNotification[name] ?? [] {
        if id == record.id { break }
        if let other = records[id: id], !other.isAcknowledged {
          isHeldBack = true
          return
        }
      }
    }
    return !isHeldBack
  }

  /// Calls `body` with each notification the record names, once (no array made for the one a
  /// single change names).
  private static func forEachName(of record: ChangeRecord, _ body: (String) -> Void) {
    switch record.intent {
    case .markAsRead(let id), .markAsUnread(let id), .delete(let id): body(id)
    case .markAllAsRead(let ids?): for id in Set(ids) { body(id) }
    case .markAllAsRead(nil), .deleteAll: break
    }
  }

  // MARK: Checking

  /// The index built from the records alone: what ``index`` must be.
  ///
  /// - Complexity: O(*r* + *a* log *a*).
  var rebuiltIndex: Index { Self.index(of: records) }

  /// Whether ``index`` is ``rebuiltIndex`` (acknowledged records with one cursor in any order).
  var indexIsConsistent: Bool {
    var index = index
    var rebuilt = rebuiltIndex
    let order = { (a: Acknowledged, b: Acknowledged) in
      (a.cursor, a.id.uuidString) < (b.cursor, b.id.uuidString)
    }
    let sorted = index.acknowledged.indices.dropFirst().allSatisfy {
      index.acknowledged[$0 - 1].cursor <= index.acknowledged[$0].cursor
    }
    index.acknowledged.sort(by: order)
    rebuilt.acknowledged.sort(by: order)
    return sorted && index == rebuilt
  }

  private static func index(of records: IdentifiedArrayOf<ChangeRecord>) -> Index {
    var index = Index()
    for record in records {
      if record.touchesEverything {
        index.everything.append(record.id)
      } else {
        forEachName(of: record) { index.byNotification[$0, default: []].append(record.id) }
      }
      indexStatus(of: record, in: &index)
    }
    return index
  }
}

extension Array {
  /// The first position whose element satisfies `isAfter`, for a predicate that is false, then
  /// true, along the array (a binary search); `count` when none does.
  fileprivate func firstPosition(where isAfter: (Element) -> Bool) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
