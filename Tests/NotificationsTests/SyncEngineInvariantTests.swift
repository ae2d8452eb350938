import Foundation
import Loom
import Notifications
import Testing

/// The invariants written at the top of `NotificationSyncEngine.swift`, checked after every step
/// of random sequences of the engine's actions: changes performed, their calls finishing in any
/// order (confirmed, failed for now, failed for good), queued entries sent or failing (stale
/// retries of entries no longer queued included), writes finishing, outboxes restored.
///
/// The engine's reducer runs directly and its effects are not run: each step is one of the
/// actions an effect could send at that point, so the sequences cover orders a store with
/// real effects would need many timings to reach.
struct SyncEngineInvariantTests {
  typealias PendingChange = NotificationsFeature.PendingChange
  typealias OutboxEntry = NotificationsFeature.OutboxEntry
  typealias SavedOutbox = NotificationsFeature.SavedOutbox

  static let seeds: [UInt64] = Array(0..<150)

  @Test(arguments: seeds) func theInvariantsHoldAfterEveryStep(seed: UInt64) {
    var run = Run(seed: seed)
    for _ in 0..<300 {
      run.step()
      if let violation = run.violation() {
        Issue.record(
          """
          seed \(seed): \(violation)
          last steps:
          \(run.trace.suffix(12).joined(separator: "\n"))
          state: \(run.state)
          """)
        return
      }
    }
  }

  /// One random sequence, with what the invariants need to know that the state does not say.
  struct Run {
    var random: SeededRandomNumberGenerator
    var state = NotificationSyncEngine.State()
    /// The ids of the changes performed whose calls have not finished.
    var inFlight: Set<UUID> = []
    var nextID: UInt64 = 0
    /// What the last write that finished, or the last restored outbox, holds.
    var lastWritten = SavedOutbox(entries: [])
    var trace: [String] = []
    let engine = NotificationSyncEngine()
    let ids = ["n1", "n2", "n3"]

    init(seed: UInt64) {
      random = SeededRandomNumberGenerator(seed: seed)
    }

    mutating func step() {
      switch Int.random(in: 0..<100, using: &random) {
      // Calls finish more often than changes start, so that nothing is pending at times.
      case 0..<20: performAChange()
      case 20..<55: finishACall()
      case 55..<65: answerTheOutbox()
      case 65..<75: send(.retryOutbox(attempt: Int.random(in: 0..<3, using: &random)))
      case 75..<95: finishTheWrite()
      default: restore()
      }
    }

    mutating func performAChange() {
      let id = ids.randomElement(using: &random) ?? "n1"
      let change: PendingChange
      let request: OutboxEntry
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        let isRead = Bool.random(using: &random)
        change = .setRead(id: id, isRead: isRead, previous: !isRead)
        request = isRead ? .markAsRead(id) : .markAsUnread(id)
      case 5..<7:
        let marked = ids.filter { _ in Bool.random(using: &random) }
        change = .markAll(ids: marked)
        request = .markAllAsRead(marked)
      case 7..<9:
        change = .delete(Fixtures.notification(id), index: 0)
        request = .delete(id)
      default:
        let cleared = ids.map { Fixtures.notification($0) }
        change = .clearAll(cleared)
        request = .deleteAll(
          upTo: cleared.min(by: NotificationData.isOrderedBefore).map(FeedPosition.init))
      }
      let changeID = UUID(nextID)
      nextID += 1
      withEngineDependencies(uuid: changeID) {
        _ = engine.perform(change, sending: request, in: &state)
      }
      inFlight.insert(changeID)
      trace.append("perform \(changeID.uuidString.suffix(4)) \(change)")
    }

    mutating func finishACall() {
      // Only a change whose call was sent can finish: not one still waiting.
      let sent = inFlight.subtracting(state.waiting.keys)
      guard let changeID = sent.randomElement(using: &random) else { return }
      inFlight.remove(changeID)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: send(.changeSucceeded(changeID, at: nil))
      case 1: send(.changeFailed(changeID, .network))
      default: send(.changeFailed(changeID, .server(status: 400)))
      }
    }

    mutating func answerTheOutbox() {
      // The entry being sent, whether or not it was superseded since.
      guard let entry = state.outboxEntryInFlight else { return }
      switch Int.random(in: 0..<4, using: &random) {
      case 0: send(.outboxEntrySent(entry, at: nil))
      case 1, 2:
        send(.outboxEntryFailed(entry, .network, attempt: Int.random(in: 0..<4, using: &random)))
      default: send(.outboxEntryFailed(entry, .server(status: 400), attempt: 0))
      }
    }

    mutating func finishTheWrite() {
      guard let written = state.outboxBeingSaved else { return }
      lastWritten = written
      send(.outboxSaved)
    }

    /// Restores an outbox as a previous launch saved it: each entry with its rollback, as this
    /// version saves them.
    mutating func restore() {
      var entries: [OutboxEntry] = []
      var rollbacks: [OutboxEntry: PendingChange] = [:]
      var failures: [OutboxEntry: Int] = [:]
      for id in ids where Bool.random(using: &random) {
        let isRead = Bool.random(using: &random)
        let entry: OutboxEntry = isRead ? .markAsRead(id) : .markAsUnread(id)
        entries.enqueue(entry)
        rollbacks[entry] = .setRead(id: id, isRead: isRead, previous: !isRead)
        if Bool.random(using: &random) {
          failures[entry] = Int.random(
            in: 1..<NotificationSyncEngine.maximumOutboxAttempts, using: &random)
        }
      }
      guard !entries.isEmpty else { return }
      let saved = SavedOutbox(
        entries: entries, rollbacks: rollbacks.filter { entries.contains($0.key) },
        failures: failures.filter { entries.contains($0.key) })
      // A restore is the first thing a launch does: it starts from a fresh engine.
      state = NotificationSyncEngine.State()
      inFlight = []
      lastWritten = saved
      send(.outboxRestored(saved))
    }

    mutating func send(_ action: NotificationSyncEngine.Action) {
      trace.append("\(action)")
      withEngineDependencies(uuid: UUID(0)) {
        _ = engine.reduce(into: &state, action: action)
      }
    }

    func withEngineDependencies(uuid: UUID, _ operation: () -> Void) {
      withDependencies {
        $0.uuid = .constant(uuid)
        $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
        $0.continuousClock = ImmediateClock()
        $0.settingsClient = .inMemory()
        $0.notificationClient.markAsRead = { _ in }
      } operation: {
        operation()
      }
    }

    static func ids(_ change: PendingChange) -> [String] {
      switch change {
      case .setRead(let id, _, _), .deleteNotLoaded(let id): [id]
      case .markAll(let ids): ids
      case .delete(let notification, _): [notification.id]
      case .clearAll(let notifications, _): notifications.map(\.id)
      }
    }

    static func ids(_ entry: OutboxEntry) -> [String] {
      switch entry {
      case .markAsRead(let id), .markAsUnread(let id), .delete(let id): [id]
      case .markAllAsRead(let ids): ids ?? []
      case .deleteAll: []
      }
    }

    /// The first invariant that does not hold, if any.
    func violation() -> String? {
      let pending = Set(state.pendingChanges.keys)
      // 1. A change is pending from the moment it is performed until its call finishes.
      if pending != inFlight {
        return "1: pending \(pending.sorted { $0.uuidString < $1.uuidString }) ≠ in flight"
      }
      // 2. Every key of `superseded` is a key of `pendingChanges`.
      if !Set(state.superseded.keys).isSubset(of: pending) {
        return "2: a supersession outlived its change"
      }
      // 3. An entry is superseded only with at least one entry.
      if state.superseded.values.contains(where: \.isEmpty) {
        return "3: an empty supersession"
      }
      // 4. Failure counts are between 1 and the maximum less one.
      let maximum = NotificationSyncEngine.maximumOutboxAttempts
      if let count = state.outboxFailures.values.first(where: { !(1..<maximum).contains($0) }) {
        return "4: a failure count of \(count)"
      }
      // 5. What is kept is about entries queued or superseded.
      var held = Set(state.outbox)
      for entries in state.superseded.values { held.formUnion(entries) }
      if !Set(state.outboxRollbacks.keys).isSubset(of: held)
        || !Set(state.outboxFailures.keys).isSubset(of: held)
      {
        return "5: kept rollbacks or failures of entries neither queued nor superseded"
      }
      // 6. With no write in flight and nothing pending, the last write is the outbox.
      let queued = Set(state.outbox)
      let current = SavedOutbox(
        entries: state.outbox, rollbacks: state.outboxRollbacks.filter { queued.contains($0.key) },
        failures: state.outboxFailures.filter { queued.contains($0.key) })
      if state.outboxBeingSaved == nil, state.pendingChanges.isEmpty, lastWritten != current {
        return "6: the last write \(lastWritten) is not the outbox \(current)"
      }
      // 9. … and with changes waiting, it holds them too (each waiting request is written).
      if state.outboxBeingSaved == nil, lastWritten != state.saved,
        state.pendingChanges.keys.allSatisfy({ state.waiting[$0] != nil })
      {
        return "9: the last write \(lastWritten) is not the outbox and its waiting changes"
      }
      // 8. Every queued entry knows how to undo its change (every restore here carries them).
      if let entry = state.outbox.first(where: { state.outboxRollbacks[$0] == nil }) {
        return "8: \(entry) is queued without a rollback"
      }
      // 9. No two calls in flight touch one notification, and a change waits exactly while an
      // older pending change or the entry being sent touches one of its notifications.
      if !Set(state.waiting.keys).isSubset(of: pending) {
        return "9: a waiting request outlived its change"
      }
      var blocking = Set(state.outboxEntryInFlight.map(Self.ids) ?? [])
      var sent = blocking
      for changeID in state.pendingChanges.keys {
        let ids = Set(state.pendingChanges[changeID].map(Self.ids) ?? [])
        let waits = !blocking.isDisjoint(with: ids)
        if waits != (state.waiting[changeID] != nil) {
          return "9: \(changeID) \(waits ? "is sent while an older change" : "waits while no older change") touches its notifications"
        }
        if !waits {
          if !sent.isDisjoint(with: ids) { return "9: two calls in flight touch one notification" }
          sent.formUnion(ids)
        }
        blocking.formUnion(ids)
      }
      // 10. No queued entry touches a notification a pending change touches.
      let touchedByPending = Set(state.pendingChanges.values.flatMap(Self.ids))
      if let entry = state.outbox.first(where: { !touchedByPending.isDisjoint(with: Self.ids($0)) }) {
        return "10: \(entry) is queued while a pending change touches its notifications"
      }
      return nil
    }
  }
}
