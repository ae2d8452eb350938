import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// ``ChangeLog/writes(from:)``: the row-level difference between two logs, which a store applies
/// to the log it holds.
///
/// The random walks make a log go through what the feature does to it (the person's changes,
/// sending, answers, failures, pushes, notices, the server listing and removing pushes,
/// relaunches that restore an earlier log under a newer one), and after every step write the
/// difference to one store: what the store loads is then the log, and no write was for nothing.
///
/// More seeds: `LOOM_CHANGE_LOG_SEEDS=5000 swift test --filter ChangeLogWritesTests`.
struct ChangeLogWritesTests {
  static var seeds: [UInt64] {
    if let count = ProcessInfo.processInfo.environment["LOOM_CHANGE_LOG_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...100)
  }

  @Test(arguments: seeds)
  func aStoreHoldingTheOldLogHoldsTheNewOneAfterItsWrites(seed: UInt64) async throws {
    try await Self.walk(seed: seed, steps: 150, on: .inMemory())
  }

  /// The same walks on the local inbox's SQLite store, fewer of them: each write is a commit
  /// synced to disk.
  @Test(arguments: 1...5)
  func theInboxsStoreHoldsTheNewLogAfterItsWrites(seed: UInt64) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-writes-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.sqlite"))
    try await Self.walk(seed: seed, steps: 150, on: inbox.changeLogStore(scope: "walk"))
  }

  static func walk(seed: UInt64, steps: Int, on store: ChangeLogStore) async throws {
    var walk = LogWalk(seed: seed)
    // A second store, written what the log noted since a checkpoint (what the feature writes),
    // or, when the log was replaced, the difference.
    let journaled = ChangeLogStore.inMemory()
    var journaledSteps = 0
    for step in 1...steps {
      let checkpoint = walk.log.checkpoint()
      let old = walk.log
      walk.step()
      let writes = walk.log.writes(from: old)
      let noted = walk.log.writes(since: checkpoint)
      if noted != nil { journaledSteps += 1 }
      let redundant = Self.redundant(writes, from: old) + Self.redundant(noted ?? [], from: old)
      try await store.write(writes)
      try await journaled.write(noted ?? writes)
      let loaded = try await store.load()
      let loadedJournaled = try await journaled.load()
      guard loaded == walk.log, loadedJournaled == walk.log, redundant.isEmpty else {
        Issue.record(
          """
          seed \(seed), step \(step): \(walk.trace.last ?? "")
          writes: \(writes)
          noted since the checkpoint: \(noted.map { "\($0)" } ?? "nil")
          redundant: \(redundant)
          loaded from the journaled store: \(loadedJournaled.records.elements)
          loaded records:   \(loaded.records.elements)
          expected records: \(walk.log.records.elements)
          loaded unlisted:   \(loaded.unlisted.ids), received \(loaded.received)
          expected unlisted: \(walk.log.unlisted.ids), received \(walk.log.received)
          \(walk.trace.suffix(20).joined(separator: "\n"))
          """)
        return
      }
    }
    #expect(journaledSteps > steps / 2)
  }

  /// The writes that change nothing in a store holding `old`: a record saved as it was (and not
  /// removed first, to move it), a removal of what it does not hold, an unlisted notification
  /// saved as it was.
  static func redundant(_ writes: [ChangeLog.Write], from old: ChangeLog) -> [ChangeLog.Write] {
    var removed: Set<UUID> = []
    return writes.filter { write in
      switch write {
      case .saveRecord(let record):
        return !removed.contains(record.id) && old[record.id] == record
      case .removeRecord(let id):
        removed.insert(id)
        return old[id] == nil
      case .replaceRecord(let record):
        return removed.contains(record.id) || old[record.id] == record
      case .saveUnlisted(let notification, let received):
        return old.unlisted[id: notification.id] == notification
          && old.received[notification.id] == received
      case .removeUnlisted(let id):
        return !old.unlisted.contains(id: id)
      }
    }
  }

  // MARK: Single cases

  @Test func anUnchangedLogNeedsNoWrites() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.receive(LogWalk.push("p1", at: 1), at: LogWalk.start)
    #expect(log.writes(from: log).isEmpty)
    #expect(ChangeLog().writes(from: ChangeLog()).isEmpty)
  }

  @Test func aNewStatusIsOneSaveOfThatRecord() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    log.record(.markAsRead("n2"), id: UUID(2))
    let old = log
    log.markSending(UUID(1))
    #expect(
      log.writes(from: old) == [
        .saveRecord(
          ChangeRecord(id: UUID(1), intent: .markAsRead("n1"), status: .sending(failures: 0)))
      ])
  }

  @Test func aRecordReplacedByANewerChoiceIsRemovedAndTheNewOneSaved() {
    var log = ChangeLog()
    log.record(.markAsRead("n1"), id: UUID(1))
    let old = log
    log.record(.markAsUnread("n1"), id: UUID(2))
    #expect(
      log.writes(from: old) == [
        .removeRecord(id: UUID(1)),
        .saveRecord(ChangeRecord(id: UUID(2), intent: .markAsUnread("n1"))),
      ])
  }

  @Test func restoredRecordsMergedBeforeNewerOnesMoveTheNewerOnesAfterThem() {
    var newer = ChangeLog()
    newer.record(.markAsRead("n1"), id: UUID(1))
    newer.record(.markAsRead("n2"), id: UUID(2))
    var restored = ChangeLog()
    restored.record(.delete("n3"), id: UUID(3))
    let merged = restored.merging(newer: newer)
    #expect(merged.records.ids == [UUID(3), UUID(1), UUID(2)])
    // A store holding `newer` keeps 1 and 2 first: they are saved again, after 3.
    #expect(
      merged.writes(from: newer) == [
        .saveRecord(merged.records[0]),
        .removeRecord(id: UUID(1)), .saveRecord(merged.records[1]),
        .removeRecord(id: UUID(2)), .saveRecord(merged.records[2]),
      ])
  }

  @Test func aPushIsSavedWithWhenItWasReceivedAndRemovedOnceListed() {
    var log = ChangeLog()
    let push = LogWalk.push("p1", at: 1)
    log.receive(push, at: LogWalk.start)
    #expect(log.writes(from: ChangeLog()) == [.saveUnlisted(push, received: LogWalk.start)])
    let old = log
    log.serverListed(["p1"])
    #expect(log.writes(from: old) == [.removeUnlisted(id: "p1")])
  }
}

/// A log going through what the feature does to it, at random.
private struct LogWalk {
  static let start = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7)

  static func push(_ id: String, at seconds: Double) -> NotificationData {
    NotificationData(
      id: id, type: .ping, title: "push \(id)", message: "",
      timestamp: start.addingTimeInterval(seconds))
  }

  var random: SeededRandomNumberGenerator
  var log = ChangeLog()
  /// Logs saved earlier, which a relaunch restores under the newer one.
  var earlier: [ChangeLog] = []
  var nextID: UInt64 = 0
  var nextNotification = 0
  var cursor: UInt64 = 0
  var trace: [String] = []

  init(seed: UInt64) {
    random = SeededRandomNumberGenerator(seed: seed)
  }

  mutating func note(_ line: String) { trace.append(line) }

  /// The notifications the person can change: a few the server lists, and the unlisted ones.
  var candidates: [String] { (0..<6).map { "n\($0)" } + log.unlisted.ids }

  mutating func someIDs() -> [String] {
    let all = log.unlisted.ids
    return all.filter { _ in Bool.random(using: &random) }
  }

  mutating func step() {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<25: personChanges()
    case 25..<35:
      let ready = log.recordsReadyToSend
      guard let id = ready.randomElement(using: &random) else { return }
      log.markSending(id)
      note("send \(id)")
    case 35..<50: answer()
    case 50..<54:
      let seen = ChangeCursor(UInt64.random(in: 0...cursor, using: &random))
      log.forget(upTo: seen)
      note("forget up to \(seen)")
    case 54..<64:
      nextNotification += 1
      let push = Self.push("p\(nextNotification)", at: Double(nextNotification) * 1.5)
      log.receive(push, at: Self.start.addingTimeInterval(Double(nextNotification) / 7))
      note("receive \(push.id)")
    case 64..<70: recordNotice()
    case 70..<76:
      let ids = someIDs()
      log.serverListed(ids)
      note("server lists \(ids)")
    case 76..<80:
      let ids = someIDs()
      log.serverRemoved(ids)
      note("server removed \(ids)")
    case 80..<82:
      let cutoff = Self.start.addingTimeInterval(Double(nextNotification) / 14)
      log.expireUnlisted(receivedBefore: cutoff)
      note("expire before \(cutoff)")
    case 82..<87:
      log = log.restoredForLaunch
      note("relaunch")
    case 87..<90:
      guard let saved = earlier.randomElement(using: &random) else { return }
      log = saved.restoredForLaunch.merging(newer: log)
      note("relaunch restoring an earlier log under this one")
    case 90..<95:
      earlier.append(log)
      note("(an earlier log kept)")
    case 95..<97:
      log = ChangeLog()
      note("a new log")
    default:
      note("nothing")
    }
  }

  mutating func newID() -> UUID {
    nextID += 1
    return UUID(nextID)
  }

  mutating func personChanges() {
    guard let id = candidates.randomElement(using: &random) else { return }
    let intent: ChangeIntent =
      switch Int.random(in: 0..<20, using: &random) {
      case 0..<8: .markAsRead(id)
      case 8..<12: .markAsUnread(id)
      case 12..<16: .delete(id)
      case 16: .markAllAsRead(Array(candidates.shuffled(using: &random).prefix(3)))
      case 17: .markAllAsRead(nil)
      case 18: .deleteAll(upTo: log.unlisted.first.map(FeedPosition.init))
      default: .deleteAll(upTo: nil)
      }
    log.record(intent, id: newID())
    note("person \(intent)")
  }

  mutating func answer() {
    let sending = log.records.filter {
      if case .sending = $0.status { true } else { false }
    }
    guard let record = sending.randomElement(using: &random) else { return }
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<5:
      cursor += 1
      log.acknowledge(record.id, at: ChangeCursor(cursor))
      note("acknowledge \(record.id) at \(cursor)")
    case 5:
      log.acknowledge(record.id, at: nil)
      note("acknowledge \(record.id) without a cursor")
    case 6..<8:
      let now = Self.start.addingTimeInterval(Double(trace.count))
      _ = log.fail(record.id, with: .server(status: 503), at: now)
      note("503 for \(record.id)")
    case 8:
      _ = log.fail(record.id, with: .network, at: Self.start)
      note("offline for \(record.id)")
    default:
      _ = log.fail(record.id, with: .notFound, at: Self.start)
      note("404 for \(record.id)")
    }
  }

  mutating func recordNotice() {
    let roll = Int.random(in: 0..<10, using: &random)
    let notices = log.unlisted.filter(\.isLocal)
    let pushes = log.unlisted.filter { !$0.isLocal }
    var notice: NotificationData
    if roll < 2, var again = notices.randomElement(using: &random) {
      // The same notice again, changed.
      again.title += "!"
      notice = again
    } else if roll == 2, let push = pushes.randomElement(using: &random) {
      // A notice that takes a push's id.
      notice = push
    } else {
      nextNotification += 1
      notice = Self.push("local-\(nextNotification)", at: Double(nextNotification) * 1.5)
    }
    notice.type = .system
    log.recordNotice(notice)
    note("notice \(notice.id)")
  }
}
