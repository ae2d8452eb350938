import Foundation
import Loom

/// What the device knows that the server's feed does not say yet: the person's changes on their
/// way to the server, the pushes the server has not listed, and the local notices.
///
/// The notification center shows the server's truth (pages, events and answers, the newest copy
/// of each notification by ``NotificationData/version``) with this log replayed on top:
///
///     shown = replay(records, on: truth ∪ unlisted)
///
/// Each change is one ``ChangeRecord`` with a stable id, from the moment the person makes it
/// until what the feature has seen of the server reaches the cursor the server applied it at.
/// Nothing else is kept about it: no undo payload (a change the server refuses leaves the log,
/// and what is shown is replayed again without it), no second queue, no map keyed by its value.
///
/// ```swift
/// var log = ChangeLog()
/// log.record(.markAsRead("n1"), id: changeID)          // shown read at once
/// for id in log.recordsReadyToSend { log.markSending(id) /* send log[id]!.request */ }
/// log.acknowledge(changeID, at: 42)                   // the server applied it at 42
/// log.forget(upTo: 42)                                // a page at 42 reflects it: it leaves
/// ```
///
/// Rules the log keeps, after every call (`ChangeLogTests` checks them after random sequences):
///
/// 1. Records are in the order the person made them, each id once.
/// 2. One scheduling rule: a record is sent only when every older record that touches one of
///    its notifications (a mark-all or clear-all of everything touches every one) has been
///    acknowledged, and no record on one of them is in flight. So at most one record per
///    notification is in flight, and the server gets a notification's changes in the order they
///    were made (a change waiting for a push to be listed does not hold back a change to every
///    notification: see 5).
/// 3. A record is replayed on a copy of a notification unless it was acknowledged at a cursor
///    the copy's version reaches: the copy already reflects it, or something newer.
/// 4. A newer read or unread of a notification replaces its older reads and unreads that are
///    not in flight or acknowledged: the server needs only the person's last choice of read
///    state. A delete replaces nothing: the server may refuse it, and the notification then
///    stays as the person last left it, its read state sent before the delete (rule 2).
/// 5. A change to a push the server has not listed waits (``ChangeRecord/Status/awaitingListing``)
///    until the server lists it, and a mark-all or clear-all of everything adds such a change
///    for each push it covers; a change to a local notice is applied to the notice and never
///    sent; a local notice is never unread.
/// 6. A record leaves when the server acknowledged it and what is seen reaches its cursor, when
///    the server refuses it for good, or when it has failed for a long time (``RetryPolicy``),
///    never because the app was launched again.
public struct ChangeLog: Sendable, Hashable {
  /// The records, with the index that finds the ones of a notification. Changed only through
  /// the journal's methods (`ChangeLog+Journal.swift`), which note what they change.
  var indexed = IndexedRecords()
  /// The rows changed since the last checkpoint: bookkeeping, not compared, hashed or saved.
  var journal = Journal()

  /// The person's changes, oldest first.
  ///
  /// - Complexity: O(1).
  public var records: IdentifiedArrayOf<ChangeRecord> { indexed.records }
  /// The pushes the server has not listed yet, and the local notices, in the feed's order.
  /// Changed only after ``willChangeUnlisted(_:)``.
  public internal(set) var unlisted: NotificationFeed = []
  /// When the device received each push in ``unlisted``. One the server deleted before the
  /// device saw it listed leaves when a look-up says so (``serverRemoved(_:)``); for a server
  /// that cannot say, a shell may let old ones go (``expireUnlisted(receivedBefore:)``).
  /// Changed only after ``willChangeUnlisted(_:)``.
  public internal(set) var received: [String: Date] = [:]

  public init() {}

  /// A log holding these records, oldest first.
  ///
  /// - Complexity: O(*r*) for *r* records.
  init(records: IdentifiedArrayOf<ChangeRecord>) {
    indexed = IndexedRecords(records)
  }

  /// The record with this id.
  public subscript(id: UUID) -> ChangeRecord? { indexed[id] }

  /// Two logs are equal when they hold the same records and unlisted notifications: the index
  /// is a function of the records, and the journal is bookkeeping of how a log got there.
  public static func == (lhs: ChangeLog, rhs: ChangeLog) -> Bool {
    lhs.records == rhs.records && lhs.unlisted == rhs.unlisted && lhs.received == rhs.received
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(records)
    hasher.combine(unlisted)
    hasher.combine(received)
  }

  /// Whether the index is the one the records make. For tests.
  package var indexIsConsistent: Bool { indexed.indexIsConsistent }

  /// Whether the log holds nothing: the shown list is the server's truth.
  public var isEmpty: Bool { records.isEmpty && unlisted.isEmpty }

  /// Whether a record changes every notification (a mark-all or clear-all of everything).
  ///
  /// - Complexity: O(1).
  public var hasChangeToEverything: Bool { !indexed.index.everything.isEmpty }

  /// The records the server has not acknowledged.
  public var unacknowledged: some Collection<ChangeRecord> {
    records.lazy.filter { !$0.isAcknowledged }
  }

  // MARK: The person

  /// Records a change the person just made. A change to local notices is applied to them and
  /// needs no record: the server never hears of them.
  ///
  /// - Complexity: O(*k* + *n*) for *k* notifications it names, with *n* records in all,
  ///   plus, for a change to every notification, O(*u*) for *u* unlisted notifications.
  public mutating func record(_ intent: ChangeIntent, id: UUID) {
    guard let intent = applyToNotices(intent) else { return }
    func isPush(_ id: String) -> Bool { unlisted[id: id].map { !$0.isLocal } ?? false }
    // The server does not have the pushes it has not listed: each push the change names or
    // covers gets a record of its own, which waits for its listing (rule 5), so one push the
    // server never lists holds back no other change.
    let server: ChangeIntent?
    let pushes: [String]
    switch intent {
    case .markAllAsRead(let ids?):
      let named = ids.filter { !isPush($0) }
      server = named.isEmpty ? nil : .markAllAsRead(named)
      pushes = ids.filter(isPush)
    case .markAllAsRead(nil), .deleteAll:
      // The server applies it to what it has then; the pushes it lists later are changed by
      // the records of their own: those it changes as the person sees them (a push the person
      // deleted is not marked read after it, which the server would refuse).
      server = intent
      pushes = unlisted.filter { push in
        guard !push.isLocal, let shown = replaying(on: push) else { return false }
        return intent.applied(to: shown) != shown
      }.ids
    case .markAsRead(let named), .markAsUnread(let named), .delete(let named):
      server = isPush(named) ? nil : intent
      pushes = isPush(named) ? [named] : []
    }
    if let server {
      replaceOlderChoices(by: server)
      appendRecord(ChangeRecord(id: id, intent: server))
    }
    for (offset, push) in pushes.enumerated() {
      let change: ChangeIntent =
        switch intent {
        case .deleteAll, .delete: .delete(push)
        case .markAsUnread: .markAsUnread(push)
        case .markAsRead, .markAllAsRead: .markAsRead(push)
        }
      replaceOlderChoices(by: change)
      let recordID = server == nil && offset == 0 ? id : id.derived(offset + 1)
      appendRecord(ChangeRecord(id: recordID, intent: change, status: .awaitingListing))
    }
  }

  /// Applies `intent` to the local notices it names, and returns what is left for the server,
  /// or `nil` when nothing is.
  private mutating func applyToNotices(_ intent: ChangeIntent) -> ChangeIntent? {
    func isNotice(_ id: String) -> Bool { unlisted[id: id]?.isLocal ?? false }
    switch intent {
    case .markAsRead(let id) where isNotice(id):
      willChangeUnlisted(id)
      unlisted[id: id]?.isRead = true
      return nil
    case .markAsUnread(let id) where isNotice(id):
      // A local notice is never unread: it tells what happened on the device, and never counts.
      return nil
    case .delete(let id) where isNotice(id):
      willChangeUnlisted(id)
      unlisted.remove(id: id)
      return nil
    case .markAllAsRead(let ids?):
      for id in ids where isNotice(id) {
        willChangeUnlisted(id)
        unlisted[id: id]?.isRead = true
      }
      let rest = ids.filter { !isNotice($0) }
      return rest.isEmpty ? nil : .markAllAsRead(rest)
    case .markAllAsRead(nil):
      for notice in unlisted where notice.isLocal {
        willChangeUnlisted(notice.id)
        unlisted[id: notice.id]?.isRead = true
      }
      return intent
    case .deleteAll:
      for notice in unlisted where notice.isLocal { willChangeUnlisted(notice.id) }
      unlisted.removeAll { $0.isLocal }
      return intent
    case .markAsRead, .markAsUnread, .delete:
      return intent
    }
  }

  /// Rule 4: drops the older reads and unreads of the notification whose read state `intent`
  /// sets, which are neither in flight nor acknowledged.
  ///
  /// - Complexity: O(*n*) for the *n* records that name it, plus O(*m*) for the *m* records
  ///   after each one dropped.
  mutating func replaceOlderChoices(by intent: ChangeIntent) {
    let id: String
    switch intent {
    case .markAsRead(let named), .markAsUnread(let named): id = named
    case .delete, .markAllAsRead, .deleteAll: return
    }
    let replaced = indexed.records(naming: id).filter { recordID in
      guard let record = indexed[recordID] else { return false }
      switch (record.intent, record.status) {
      case (.markAsRead(id), .pending), (.markAsUnread(id), .pending),
        (.markAsRead(id), .waiting), (.markAsUnread(id), .waiting),
        (.markAsRead(id), .awaitingListing), (.markAsUnread(id), .awaitingListing):
        return true
      default:
        return false
      }
    }
    for recordID in replaced { removeRecord(id: recordID) }
  }

  // MARK: Sending

  /// The ids of the records to send now, oldest first (rule 2): pending, with no older record
  /// on one of their notifications still unacknowledged, and none in flight on one of them.
  ///
  /// - Complexity: O(*p* × *k* × *n*) for *p* pending records naming *k* notifications of *n*
  ///   records each (see `IndexedRecords.readyToSend`), not O(records).
  public var recordsReadyToSend: [UUID] { indexed.readyToSend }

  /// The highest cursor the server answered a record still in the log with: the server had
  /// made every change up to it when that answer arrived, whatever the feed has seen.
  public var newestAcknowledgement: ChangeCursor? { indexed.newestAcknowledgement }

  /// Notes that the record's request was sent.
  ///
  /// - Returns: The record, now in flight, or `nil` when no pending record has this id.
  @discardableResult
  public mutating func markSending(_ id: UUID) -> ChangeRecord? {
    updateStatus(of: id) { status in
      guard case .pending(let failures) = status else { return nil }
      return .sending(failures: failures)
    }?.after
  }

  /// Notes the server's answer: it applied the record at `cursor`. A server that answers no
  /// cursor cannot order its answer against its pages, so the record leaves at once and is
  /// returned: the caller takes it as what the server now has.
  ///
  /// - Parameter isSaved: Whether the store holds the record acknowledged already: the effect
  ///   that sent it wrote ``Write/replaceRecord(_:)`` with the answer. The change is then not
  ///   among the ``writes(since:)``.
  /// - Returns: The record, if it was in the log.
  @discardableResult
  public mutating func acknowledge(
    _ id: UUID, at cursor: ChangeCursor?, isSaved: Bool = false
  ) -> ChangeRecord? {
    guard let cursor else { return removeRecord(id: id) }
    return updateStatus(of: id, isSaved: isSaved) { _ in .acknowledged(cursor) }?.before
  }

  /// What became of a record whose attempt failed.
  public enum FailureOutcome: Sendable, Hashable {
    /// It stays, to be sent again after a backoff; `failures` attempts reached the server.
    case willRetry(failures: Int)
    /// It left the log: the server refused it for good, or it failed for too long. What is
    /// shown is replayed without it, and `error` is shown.
    case removed(ChangeRecord, error: UserFacingError)
    /// No record has this id.
    case unknown
  }

  /// How long a change that fails for now keeps being sent again.
  public struct RetryPolicy: Sendable, Hashable {
    /// Attempts that reached the server and failed, at least, before giving up.
    public var maximumFailures: Int
    /// And for at least this long since the first of them.
    public var maximumAge: TimeInterval

    public init(maximumFailures: Int, maximumAge: TimeInterval) {
      self.maximumFailures = maximumFailures
      self.maximumAge = maximumAge
    }

    /// 20 failed attempts over at least three days.
    public static let standard = RetryPolicy(maximumFailures: 20, maximumAge: 3 * 24 * 3_600)
  }

  /// Notes that the record's attempt failed with `error` at `now`.
  ///
  /// A retryable failure keeps it (being offline counts nothing; a server error or rate limit
  /// counts one failure), unless it has failed `policy.maximumFailures` times over
  /// `policy.maximumAge`: then it leaves with ``UserFacingError/outboxGaveUp``. Any other
  /// failure is the server refusing it for good: it leaves with that error.
  public mutating func fail(
    _ id: UUID, with error: UserFacingError, at now: Date, policy: RetryPolicy = .standard
  ) -> FailureOutcome {
    guard var record = indexed[id] else { return .unknown }
    guard error.isRetryable else {
      removeRecord(id: id)
      return .removed(record, error: error)
    }
    var failures: Int
    switch record.status {
    case .pending(let count), .sending(let count), .waiting(let count): failures = count
    case .awaitingListing, .acknowledged: failures = 0
    }
    if case .network = error {
      // Not an attempt: the server was not reached.
    } else {
      failures += 1
      if record.firstFailure == nil { record.firstFailure = now }
    }
    if failures >= policy.maximumFailures, let first = record.firstFailure,
      now.timeIntervalSince(first) >= policy.maximumAge
    {
      removeRecord(id: id)
      return .removed(record, error: .outboxGaveUp)
    }
    record.status = .waiting(failures: failures)
    updateRecord(record)
    return .willRetry(failures: failures)
  }

  /// A record that waited for its backoff after failing for now is pending again: sent when its
  /// turn comes.
  public mutating func retry(_ id: UUID) {
    updateStatus(of: id) { status in
      guard case .waiting(let failures) = status else { return nil }
      return .pending(failures: failures)
    }
  }

  /// Rule 6: the acknowledged records whose cursor `seen` reaches leave. `seen` is the cursor up
  /// to which every notification the feature holds is as the server has it.
  ///
  /// - Complexity: O(log *a*) for *a* acknowledged records when none leaves; O(*r*) for *r*
  ///   records otherwise.
  public mutating func forget(upTo seen: ChangeCursor) {
    removeRecords(indexed.acknowledged(upTo: seen))
  }

  /// Rule 6, notification by notification: the acknowledged records naming these notifications
  /// leave when every notification they name is held in a copy that reflects them (one at their
  /// cursor or newer, or one the record no longer changes: a read already read, as the server
  /// made no change and answered a cursor its copy never reaches; a delete of one not held), and
  /// every older record on those notifications leaves too: records are replayed in order, so
  /// only the oldest of a notification's records can go first. A mark-all or clear-all of
  /// everything waits for ``forget(upTo:)``.
  ///
  /// - Complexity: O(*k* × *n*) for *k* ids and at most *n* records naming each.
  public mutating func forget(
    reflectedIn ids: some Sequence<String>, copy: (String) -> NotificationData?
  ) {
    let leaving = records(reflectedIn: ids, copy: copy)
    if !leaving.isEmpty { removeRecords(leaving) }
  }

  /// The records ``forget(reflectedIn:copy:)`` lets go of. Apart from it, so that a caller whose
  /// copies are stored beside the log reads them in place while it reads the log, and removes
  /// the records afterwards.
  func records(
    reflectedIn ids: some Sequence<String>, copy: (String) -> NotificationData?
  ) -> Set<UUID> {
    // The oldest records of each notification that reflect the copy held, up to the first one
    // that does not, found once per notification. (Static, over the records passed in: a
    // nested function reading `indexed` captured the whole log, and copied its records.)
    var prefixes = ReflectedPrefixes()
    var leaving: Set<UUID> = []
    for id in ids {
      for recordID in prefixes.prefix(of: id, in: indexed, copy: copy)
      where !leaving.contains(recordID) {
        guard let record = indexed[recordID] else { continue }
        let names = record.intent.namedIDs
        guard
          names.count == 1
            || names.allSatisfy({
              prefixes.prefix(of: $0, in: indexed, copy: copy).contains(recordID)
            })
        else { continue }
        leaving.insert(recordID)
      }
    }
    return leaving
  }

  /// The records of each notification a ``forget(reflectedIn:copy:)`` looked at that leave if
  /// every notification they name lets them: the first one's kept apart, so that the usual
  /// call, for one notification, makes no dictionary.
  private struct ReflectedPrefixes {
    var first: (id: String, prefix: [UUID])?
    var others: [String: [UUID]] = [:]

    mutating func prefix(
      of id: String, in records: IndexedRecords, copy: (String) -> NotificationData?
    ) -> [UUID] {
      if let first, first.id == id { return first.prefix }
      if let prefix = others[id] { return prefix }
      var prefix: [UUID] = []
      records.forEachRecord(touching: id) { record in
        guard Self.isReflected(record, copy: copy) else { return false }
        prefix.append(record.id)
        return true
      }
      if first == nil { first = (id, prefix) } else { others[id] = prefix }
      return prefix
    }

    /// Whether every notification `record` names is held in a copy that reflects it.
    static func isReflected(_ record: ChangeRecord, copy: (String) -> NotificationData?) -> Bool {
      guard case .acknowledged(let cursor) = record.status, !record.touchesEverything else {
        return false
      }
      return record.intent.namedIDs.allSatisfy { id in
        guard let held = copy(id) else {
          if case .delete = record.intent { return true } else { return false }
        }
        return held.version.map { $0 >= cursor } ?? false
          || record.intent.applied(to: held) == held
      }
    }
  }

  // MARK: Pushes and notices

  /// Keeps a push the server's feed does not list yet, shown until it does.
  ///
  /// - Returns: Whether it was new to the log.
  @discardableResult
  public mutating func receive(_ push: NotificationData, at now: Date) -> Bool {
    guard !unlisted.contains(id: push.id) else { return false }
    willChangeUnlisted(push.id)
    unlisted.insert(push, at: unlisted.insertionIndex(for: push))
    received[push.id] = now
    return true
  }

  /// The pushes received before `cutoff` that the server still has not listed leave, with the
  /// changes waiting for them: the server deleted them before the device saw them listed (a
  /// clear-all sent while they were unlisted, say), as a page or event cannot say.
  public mutating func expireUnlisted(receivedBefore cutoff: Date) {
    serverRemoved(received.filter { $0.value < cutoff }.keys)
  }

  /// Keeps a local notice: listed on this device only, never sent, never unread. A notice that
  /// takes the id of an unlisted push replaces it, and the push's received date goes with it
  /// (``received`` dates pushes alone).
  public mutating func recordNotice(_ notice: NotificationData) {
    var notice = notice
    notice.isLocal = true
    notice.isRead = true
    willChangeUnlisted(notice.id)
    unlisted.remove(id: notice.id)
    received[notice.id] = nil
    unlisted.insert(notice, at: unlisted.insertionIndex(for: notice))
  }

  /// The server deleted these notifications (another device did, say): the pushes among them
  /// are no longer shown, and the changes waiting for them to be listed leave, as there is
  /// nothing left to change.
  ///
  /// - Complexity: O(*k* + *r*) for *k* ids, when one of them was unlisted.
  public mutating func serverRemoved(_ ids: some Sequence<String>) {
    var removed: Set<String> = []
    for id in ids where unlisted[id: id].map({ !$0.isLocal }) ?? false {
      willChangeUnlisted(id)
      unlisted.remove(id: id)
      received[id] = nil
      removed.insert(id)
    }
    guard !removed.isEmpty else { return }
    removeRecords(
      indexed.awaitingListing.filter { id in
        indexed[id].map { $0.intent.ids.allSatisfy(removed.contains) } ?? false
      })
    releaseRecordsNoLongerAwaitingListing()
  }

  /// The server now lists these notifications: the pushes among them leave ``unlisted``, and
  /// the changes waiting for them are sent.
  ///
  /// - Complexity: O(*k* + *r*) for *k* ids, when one of them was unlisted.
  public mutating func serverListed(_ ids: some Sequence<String>) {
    var listed: Set<String> = []
    for id in ids where unlisted[id: id].map({ !$0.isLocal }) ?? false {
      willChangeUnlisted(id)
      unlisted.remove(id: id)
      received[id] = nil
      listed.insert(id)
    }
    guard !listed.isEmpty else { return }
    releaseRecordsNoLongerAwaitingListing()
  }

  /// The records waiting for pushes of which none is unlisted any more are sent.
  ///
  /// - Complexity: O(*w* × *k*) for *w* records awaiting a listing, naming *k* notifications.
  private mutating func releaseRecordsNoLongerAwaitingListing() {
    for id in indexed.awaitingListing {
      guard let record = indexed[id] else { continue }
      let stillUnlisted = record.intent.ids.contains {
        unlisted[id: $0].map { !$0.isLocal } ?? false
      }
      if !stillUnlisted { setStatus(.pending(failures: 0), of: id) }
    }
  }
}

extension UUID {
  /// A change id made from this one and `offset`, for the records one change of the person's
  /// adds (the pushes a clear-all covers). The version nibble is 8, which neither random
  /// (version 4) ids nor the test generator's use, and the low 64 bits are mixed with the
  /// offset, so two changes' derived ids do not meet.
  fileprivate func derived(_ offset: Int) -> UUID {
    var bytes = uuid
    let low = withUnsafeBytes(of: &bytes) { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
    let mixed = low ^ (UInt64(truncatingIfNeeded: offset) &* 0x9E37_79B9_7F4A_7C15)
    withUnsafeMutableBytes(of: &bytes) {
      $0.storeBytes(of: mixed, toByteOffset: 8, as: UInt64.self)
    }
    bytes.6 = (bytes.6 & 0x0F) | 0x80
    return UUID(uuid: bytes)
  }
}
