import Foundation
import Loom

// The sync engine: how the notification center's changes reach the backend.
//
// The notification center applies a change (read, unread, mark-all, delete, clear-all) to its
// list at once, optimistically, and hands it to this engine with `perform(_:sending:in:)`. The
// engine remembers how to undo it, runs the call that confirms it, queues it in the outbox when
// that call fails for now, sends the outbox again (with backoff, one entry at a time, across
// launches), and asks the notification center to roll the change back when it fails for good.
// It never touches the list: the list is the notification center's, which reads the engine's
// state (`applyingPendingChanges(to:)`, `isDeletionPending(_:)`) to list what the backend sends
// with every unconfirmed change applied, and handles `Action.Delegate.rollBack(_:error:)`.
//
// A change goes through these states:
//
//     performed ──(waits while an older change to the same notifications is in flight)
//         │
//     call sent ──call succeeds──────────────────────────────────▶ confirmed (forgotten)
//         │
//         ├──call fails for good──▶ rolled back (delegate), error shown
//         │
//         └──call fails for now──▶ queued in the outbox ──sent──▶ confirmed (forgotten)
//                                      │
//                                      ├──fails for good, or fails for now
//                                      │  `maximumOutboxAttempts` times ──▶ rolled back
//                                      │
//                                      └──a newer change to the same notifications is
//                                         performed──▶ superseded by it: dropped if the newer
//                                         change is confirmed or queued, queued again if it
//                                         fails for good
//
// Invariants, true after every action (`SyncEngineInvariantTests` checks them after random
// sequences of actions):
//
// 1. A change is in `pendingChanges` from the moment it is performed until its call finishes:
//    `changeSucceeded` or `changeFailed` with its id removes it, and nothing else does. Each
//    pending change is either waiting (its request in `waiting`) or has exactly one call in
//    flight, so each id finishes once.
// 2. Every key of `superseded` is a key of `pendingChanges`: an entry is superseded only while
//    the change that replaced it is in flight, and is dropped or queued again when it finishes.
// 3. Every list in `superseded` is non-empty, and its entries left the outbox when they were
//    superseded. Only `outbox.first` is ever sent, so a superseded entry is not sent unless an
//    equal one is queued again meanwhile.
// 4. Every count in `outboxFailures` is between 1 and `maximumOutboxAttempts - 1`: the failure
//    that would reach the maximum gives the entry up instead.
// 5. Every key of `outboxRollbacks` and of `outboxFailures` is queued in `outbox` or superseded
//    in `superseded`: what is kept about an entry is forgotten once it is in neither, and kept
//    while it is in either (an entry queued again while an equal one is superseded shares it).
// 6. `outboxBeingSaved` is non-nil exactly while one write of the outbox is in flight, and is
//    what that write holds. At most one write is in flight; when it finishes, the outbox as it
//    is then is written if it differs. So with no write in flight and no change pending, the
//    last write is the outbox. (A change sent at once does not write the outbox it superseded
//    entries of: until it finishes, the saved outbox still has them, and a relaunch meanwhile
//    sends them again. A change that waits is written, with its request: see 9.)
// 7. A restored outbox never replaces what this launch queued: its entries are merged after
//    them (`enqueue`), each with what the previous launch kept about it unless this launch
//    already keeps something.
// 8. Every queued entry has a rollback, so a change that fails for good when retried is undone
//    exactly, unless it was restored from an outbox an older version saved without them.
// 9. Changes reach the backend in the order they were made, for each notification: no two
//    calls in flight (changes not waiting, and `outboxEntryInFlight`) touch one notification,
//    and a change waits exactly while an older pending change, or the queued entry being sent,
//    touches one of its notifications. Waiting requests are written with the outbox (after
//    its entries, each with its rollback), so a relaunch sends what was still waiting.
// 10. No queued entry touches a notification a pending change touches: a pending change
//    replaces what is queued for its notifications when it is performed, when an older change
//    fails and queues an entry (or what it had replaced), and when a restored outbox brings one. So the outbox never
//    sends an entry older than a change in flight for the same notification.
// 11. At most one queued entry is sent at a time (`outboxEntryInFlight`), and its call is never
//    cancelled: a retry scheduled meanwhile waits for it.
// 12. Every change confirmed (sent, or queued and sent) is appended to `confirmedWhileLoading`,
//    which applies to what the backend sends before the pending changes do: a page the backend
//    read before it applied a change, answered after the change was confirmed, still lists the
//    change. The notification center empties it whenever no page is loading.

/// The sync engine of ``NotificationsFeature``: the optimistic changes waiting for the backend,
/// the outbox of changes to send again, supersession and rollback. It owns no part of the list;
/// the notification center scopes to it at ``NotificationsFeature/State/sync`` and rolls back
/// what it says to roll back.
///
/// ```swift
/// Scope(state: \.sync, action: .sync) { NotificationSyncEngine() }
/// ```
///
/// The parent applies each change to its own state, hands it to ``perform(_:sending:in:)``, and
/// undoes it on ``Action/Delegate/rollBack(_:error:)``. The engine can be tested alone:
///
/// ```swift
/// let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
/// var state = NotificationSyncEngine.State()
/// state.pendingChanges[UUID(0)] = change
/// let store = TestStore(initialState: state) { NotificationSyncEngine() }
/// await store.send(.changeFailed(UUID(0), .notFound)) { $0.pendingChanges = [:] }
/// await store.receive(.delegate(.rollBack(change, error: .notFound)))
/// ```
///
/// The states a change goes through and the invariants the engine keeps are written at the top
/// of `NotificationSyncEngine.swift`.
public struct NotificationSyncEngine: Reducer {
  public typealias PendingChange = NotificationsFeature.PendingChange
  public typealias OutboxEntry = NotificationsFeature.OutboxEntry
  public typealias SavedOutbox = NotificationsFeature.SavedOutbox

  public struct State: Equatable, Sendable {
    /// Changes applied optimistically and not yet confirmed, by change id: each from the
    /// moment it is performed until its call finishes.
    public var pendingChanges: PendingChanges = [:]
    /// Changes waiting to be sent again after a retryable failure, oldest first.
    public var outbox: [OutboxEntry] = []
    /// How to undo each queued (or superseded) change if it fails for good when retried.
    public var outboxRollbacks: [OutboxEntry: PendingChange] = [:]
    /// How many times each queued change has failed again when retried. At
    /// ``NotificationSyncEngine/maximumOutboxAttempts`` it is given up and rolled back.
    public var outboxFailures: [OutboxEntry: Int] = [:]
    /// The outbox being written to the settings, if a write is in flight: one at a time, and a
    /// change made meanwhile is written after it.
    public var outboxBeingSaved: SavedOutbox?
    /// Queued changes a newer change to the same notifications replaced, by the newer change's
    /// id: dropped if it is confirmed or queued, restored to the outbox if it fails for good.
    public var superseded: [UUID: [OutboxEntry]] = [:]
    /// The requests of pending changes not sent yet, by change id: each waits until no older
    /// change to the same notifications is in flight, so that the backend gets a
    /// notification's changes in the order they were made.
    public var waiting: [UUID: OutboxEntry] = [:]
    /// The queued entry being sent, if any: one at a time.
    public var outboxEntryInFlight: OutboxEntry?
    /// The changes confirmed (sent, or queued and sent) while the notification center loads a
    /// page, oldest first: a page the backend read before it applied them, answered after,
    /// still lists them. The notification center empties it once no page loads.
    public var confirmedWhileLoading: [OutboxEntry] = []

    public init() {}

    /// The notification with every change still pending or queued for it applied, or `nil`
    /// when one of them deletes it: how a notification the backend sends is listed.
    ///
    /// - Complexity: O(*c*) for *c* notification ids in the pending and queued changes.
    public func applyingPendingChanges(to incoming: NotificationData) -> NotificationData? {
      var notification = incoming
      for entry in confirmedWhileLoading {
        guard let changed = entry.applied(to: notification) else { return nil }
        notification = changed
      }
      for change in pendingChanges.values {
        switch change {
        case .setRead(let id, let isRead, _) where id == notification.id:
          notification.isRead = isRead
        case .markAll(let ids) where ids.contains(notification.id):
          notification.isRead = true
        case .delete(let deleted, _) where deleted.id == notification.id:
          return nil
        case .clearAll(let cleared, _)
        where cleared.contains(where: { $0.id == notification.id })
          || change.outboxEntry.deletes(notification):
          return nil
        case .deleteNotLoaded(let id) where id == notification.id:
          return nil
        default:
          break
        }
      }
      for entry in outbox {
        guard let changed = entry.applied(to: notification) else { return nil }
        notification = changed
      }
      return notification
    }

    /// Whether a deletion of `id` is pending or queued: a delete of it, or a clear-all of a list
    /// that held it (or of everything).
    public func isDeletionPending(_ id: String) -> Bool {
      let pending = pendingChanges.values.contains { change in
        switch change {
        case .delete(let deleted, _): deleted.id == id
        case .clearAll(let cleared, _): cleared.contains { $0.id == id }
        case .deleteNotLoaded(let deleted): deleted == id
        case .setRead, .markAll: false
        }
      }
      return pending
        || outbox.contains { entry in
          switch entry {
          case .delete(let deleted): deleted == id
          case .deleteAll(upTo: nil): true
          case .deleteAll:
            // What the clear-all cleared, when it is known (its rollback lists it).
            if case .clearAll(let cleared, _) = outboxRollbacks[entry] {
              cleared.contains { $0.id == id }
            } else {
              false
            }
          case .markAsRead, .markAsUnread, .markAllAsRead: false
          }
        }
    }

    /// Whether a deletion of `notification` is pending or queued: a delete of it, or a
    /// clear-all that covers it (see ``FeedPosition``).
    public func isDeletionPending(of notification: NotificationData) -> Bool {
      isDeletionPending(notification.id)
        || outbox.contains { $0.deletes(notification) }
        || pendingChanges.values.contains { change in
          if case .clearAll = change { change.outboxEntry.deletes(notification) } else { false }
        }
    }

    /// Whether a clear-all is pending, or queued as a delete-all.
    public var isClearAllPending: Bool {
      outbox.contains { if case .deleteAll = $0 { true } else { false } }
        || pendingChanges.values.contains { change in
          if case .clearAll = change { true } else { false }
        }
    }

    /// The ids of the notifications that pending changes touch: a rollback leaves them alone,
    /// as they were changed again since.
    var idsTouchedByPendingChanges: Set<String> {
      Set(pendingChanges.values.flatMap(\.ids))
    }

    /// The outbox as the settings keep it: its entries with what is kept about each, then the
    /// requests still waiting, each with its change as its rollback (a relaunch sends them).
    public var saved: SavedOutbox {
      var entries = outbox
      var rollbacks = outboxRollbacks
      if !waiting.isEmpty {
        for changeID in pendingChanges.keys {
          guard let request = waiting[changeID] else { continue }
          // The newest waiting read or unread of a notification is what a relaunch sends: an
          // older opposite one is replaced, not cancelled out (the change in flight before
          // them may not reach the backend).
          switch request {
          case .markAsRead(let id): entries.removeAll { $0 == .markAsUnread(id) }
          case .markAsUnread(let id): entries.removeAll { $0 == .markAsRead(id) }
          case .markAllAsRead, .delete, .deleteAll: break
          }
          entries.enqueue(request)
          if let change = pendingChanges[changeID] { rollbacks[request] = change }
        }
      }
      let queued = Set(entries)
      return SavedOutbox(
        entries: entries,
        rollbacks: rollbacks.filter { queued.contains($0.key) },
        failures: outboxFailures.filter { queued.contains($0.key) })
    }

    /// Whether a change touching `ids` must wait: an older pending change, or the queued entry
    /// being sent, touches one of them.
    ///
    /// - Complexity: O(*k*) for *k* ids, and the ids of the entry being sent.
    func mustWait(touching ids: [String]) -> Bool {
      if pendingChanges.isEmpty && outboxEntryInFlight == nil { return false }
      if let entry = outboxEntryInFlight, !Set(ids).isDisjoint(with: entry.ids) { return true }
      return pendingChanges.touchAny(of: ids)
    }

    /// Forgets what is kept about the entries neither queued nor superseded any more: how to
    /// undo each and how often it failed. Entries are values, so an entry queued again while an
    /// equal one is superseded shares what is kept with it, which stays until both are gone.
    ///
    /// - Complexity: O(*q* + *s* + *k*) for *q* queued entries, *s* superseded ones and *k*
    ///   kept rollbacks and failure counts.
    mutating func forgetEntriesNoLongerHeld() {
      var held = Set(outbox)
      for entries in superseded.values { held.formUnion(entries) }
      outboxRollbacks = outboxRollbacks.filter { held.contains($0.key) }
      outboxFailures = outboxFailures.filter { held.contains($0.key) }
    }
  }

  public enum Action: Sendable, Equatable {
    /// The call of the pending change with this id succeeded; the backend answered with the
    /// cursor of its log right after the change, if it says (see `NotificationClient.apply`).
    case changeSucceeded(UUID, at: ChangeCursor?)
    /// The call of the pending change with this id failed.
    case changeFailed(UUID, UserFacingError)
    /// The outbox a previous launch saved was loaded.
    case outboxRestored(SavedOutbox)
    /// The write of `outboxBeingSaved` finished (saved or not).
    case outboxSaved
    /// Send the first queued entry.
    case retryOutbox(attempt: Int)
    /// A queued entry was sent; the backend answered with this cursor, if it says.
    case outboxEntrySent(OutboxEntry, at: ChangeCursor?)
    case outboxEntryFailed(OutboxEntry, UserFacingError, attempt: Int)
    case delegate(Delegate)

    /// What the engine tells the notification center.
    public enum Delegate: Sendable, Equatable {
      /// A change failed for good, or was given up after too many attempts: undo it in the
      /// list (if it is known how) and show `error`.
      case rollBack(PendingChange?, error: UserFacingError)
    }
  }

  enum CancelID: Hashable, Sendable {
    case outbox
  }

  /// How many times a queued change is sent again, across launches, before it is given up:
  /// rolled back, with an error the person sees.
  public static let maximumOutboxAttempts = 8

  @Dependency(\.notificationClient) var client
  @Dependency(\.settingsClient) var settings
  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid
  @Dependency(\.randomNumberGenerator) var random

  public init() {}

  /// Remembers an optimistic change the caller has just applied, replaces what is queued for
  /// the same notifications, and sends `request` to confirm it.
  ///
  /// The caller changes its own state first, then hands the change over and lifts the effect
  /// into its actions:
  ///
  /// ```swift
  /// state.readIDs.insert(id)
  /// return NotificationSyncEngine()
  ///   .perform(change, sending: .markAsRead(id), in: &state.sync)
  ///   .map(Action.sync)
  /// ```
  public func perform(
    _ change: PendingChange, sending request: OutboxEntry, in state: inout State
  ) -> Effect<Action> {
    let changeID = uuid()
    let mustWait = state.mustWait(touching: change.ids)
    state.pendingChanges[changeID] = change
    supersedeQueuedEntries(by: changeID, in: &state)
    guard mustWait else { return send(request, for: changeID) }
    // An older change to the same notifications is in flight: this one is sent once it
    // finishes, and written with the outbox meanwhile.
    state.waiting[changeID] = request
    return saveOutbox(&state)
  }

  /// Replaces what is queued for the notifications the pending change `changeID` touches: a
  /// newer change to them is the person's choice. A queued clear-all is replaced only by
  /// another: a change to one notification does not undo it.
  func supersedeQueuedEntries(by changeID: UUID, in state: inout State) {
    guard let change = state.pendingChanges[changeID] else { return }
    let touched = Set(change.ids)
    let replaced = state.outbox.filter { entry in
      if case .clearAll = change { return true }
      return !touched.isDisjoint(with: entry.ids)
    }
    guard !replaced.isEmpty else { return }
    state.outbox.removeAll { replaced.contains($0) }
    state.superseded[changeID, default: []].append(contentsOf: replaced)
    // A queued mark-all is replaced only for the notifications the newer change touches: the
    // others are still owed to the backend, and undone alone if they fail for good.
    let isClearAll = if case .clearAll = change { true } else { false }
    for case .markAllAsRead(let ids?) in replaced where !isClearAll {
      let rest = ids.filter { !touched.contains($0) }
      guard !rest.isEmpty else { continue }
      state.outbox.enqueue(.markAllAsRead(rest))
      state.outboxRollbacks[.markAllAsRead(rest)] = .markAll(ids: rest)
    }
  }

  /// Runs the call of the pending change `changeID`.
  func send(_ request: OutboxEntry, for changeID: UUID) -> Effect<Action> {
    .run { [client] send in
      do {
        let cursor = try await client.apply(ChangeRequest(id: changeID, request))
        await send(.changeSucceeded(changeID, at: cursor))
      } catch {
        await send(.changeFailed(changeID, UserFacingError(error)))
      }
    }
  }

  /// Sends the waiting changes no older change holds back any more, oldest first, and writes
  /// the outbox without them.
  ///
  /// - Complexity: O(*c*) for *c* notification ids in the pending changes, when any waits.
  func sendWaitingChanges(_ state: inout State) -> Effect<Action> {
    guard !state.waiting.isEmpty else { return .none }
    var held = Set(state.outboxEntryInFlight?.ids ?? [])
    var calls: [Effect<Action>] = []
    for changeID in state.pendingChanges.keys {
      guard let change = state.pendingChanges[changeID] else { continue }
      if let request = state.waiting[changeID], held.isDisjoint(with: change.ids) {
        state.waiting[changeID] = nil
        calls.append(send(request, for: changeID))
      }
      held.formUnion(change.ids)
    }
    guard !calls.isEmpty else { return .none }
    return .merge(saveOutbox(&state), .merge(calls))
  }

  /// Loads the outbox a previous launch saved (or, from an older version, its entries alone).
  func loadOutbox() -> Effect<Action> {
    .run { [settings] send in
      let saved = try await settings.load(SavedOutbox.self, forKey: SettingsKey.outbox)
      if let saved, !saved.entries.isEmpty { await send(.outboxRestored(saved)) }
    } catch: { _, _ in
    }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .changeSucceeded(let changeID, _):
      if let change = state.pendingChanges.removeValue(forKey: changeID) {
        state.confirmedWhileLoading.append(change.outboxEntry)
      }
      guard state.superseded.removeValue(forKey: changeID) != nil else {
        return sendWaitingChanges(&state)
      }
      state.forgetEntriesNoLongerHeld()
      return .merge(sendWaitingChanges(&state), saveOutbox(&state))

    case .changeFailed(let changeID, let error):
      guard state.pendingChanges[changeID] != nil else { return .none }
      let newer = state.pendingChanges.keys.drop { $0 != changeID }.dropFirst()
      guard let change = state.pendingChanges.removeValue(forKey: changeID) else { return .none }
      let replaced = state.superseded.removeValue(forKey: changeID) ?? []
      if error.isRetryable {
        state.forgetEntriesNoLongerHeld()
        let entry = change.outboxEntry
        state.outbox.enqueue(entry)
        if state.outbox.contains(entry) {
          state.outboxRollbacks[entry] = change
        }
        // A newer change to the same notifications (waiting for this one) replaces it.
        supersedeQueuedEntries(byEach: newer, in: &state)
        // Entries the new one cancelled out are gone.
        state.forgetEntriesNoLongerHeld()
        return .merge(
          sendWaitingChanges(&state),
          .concatenate(saveOutbox(&state), scheduleRetry(attempt: 0)))
      }
      // What the failed change had replaced is still owed to the backend, unless a newer change
      // replaces it in turn.
      for entry in replaced { state.outbox.enqueue(entry) }
      supersedeQueuedEntries(byEach: newer, in: &state)
      state.forgetEntriesNoLongerHeld()
      let sent = sendWaitingChanges(&state)
      return .merge(
        .send(.delegate(.rollBack(change, error: error))),
        replaced.isEmpty ? .none : .concatenate(saveOutbox(&state), scheduleRetry(attempt: 0)),
        sent)

    case .outboxRestored(let saved):
      for entry in saved.entries { state.outbox.enqueue(entry) }
      // What a previous launch kept about each entry still in the outbox comes with it.
      for entry in state.outbox {
        if state.outboxRollbacks[entry] == nil, let change = saved.rollbacks[entry] {
          state.outboxRollbacks[entry] = change
        }
        if state.outboxFailures[entry] == nil, let failures = saved.failures[entry] {
          state.outboxFailures[entry] = failures
        }
      }
      // A change this launch made since is newer than what a previous one queued for the same
      // notifications: it replaces it, as it would have had it been queued already.
      supersedeQueuedEntries(byEach: state.pendingChanges.keys, in: &state)
      state.forgetEntriesNoLongerHeld()
      let save = state.saved == saved ? Effect<Action>.none : saveOutbox(&state)
      return .concatenate(save, .send(.retryOutbox(attempt: 0)))

    case .outboxSaved:
      guard let written = state.outboxBeingSaved else { return .none }
      state.outboxBeingSaved = nil
      // A change made while the write was in flight is written now.
      return written == state.saved ? .none : saveOutbox(&state)

    case .retryOutbox(let attempt):
      // One entry at a time: the entry in flight sends the next when it is answered.
      guard state.outboxEntryInFlight == nil, let entry = state.outbox.first else { return .none }
      state.outboxEntryInFlight = entry
      return .run { [client] send in
        do {
          // A queued entry is a value, not told apart from an equal one queued later, so it has
          // no change id of its own: each attempt is a new change to the backend, and one whose
          // answer was lost is applied again (harmless for a read, unread, mark-all or
          // clear-all; a delete answers not found). The persisted log of changes, each with a
          // stable id, replaces the outbox.
          let cursor = try await client.apply(ChangeRequest(id: UUID(), entry))
          await send(.outboxEntrySent(entry, at: cursor))
        } catch {
          await send(.outboxEntryFailed(entry, UserFacingError(error), attempt: attempt))
        }
      }

    case .outboxEntrySent(let entry, _):
      if state.outboxEntryInFlight == entry { state.outboxEntryInFlight = nil }
      state.confirmedWhileLoading.append(entry)
      if let index = state.outbox.firstIndex(of: entry) { state.outbox.remove(at: index) }
      state.forgetEntriesNoLongerHeld()
      return .merge(
        sendWaitingChanges(&state),
        .concatenate(
          saveOutbox(&state), state.outbox.isEmpty ? .none : .send(.retryOutbox(attempt: 0))))

    case .outboxEntryFailed(let entry, let error, let attempt):
      if state.outboxEntryInFlight == entry { state.outboxEntryInFlight = nil }
      var shown = error
      if error.isRetryable {
        // Entries no longer queued (replaced meanwhile) count nothing: the next one is retried.
        guard state.outbox.contains(entry) else {
          return .merge(sendWaitingChanges(&state), scheduleRetry(attempt: attempt + 1))
        }
        let failures = state.outboxFailures[entry, default: 0] + 1
        if failures < Self.maximumOutboxAttempts {
          state.outboxFailures[entry] = failures
          return .merge(
            sendWaitingChanges(&state),
            .concatenate(saveOutbox(&state), scheduleRetry(attempt: attempt + 1)))
        }
        shown = .outboxGaveUp
      }
      // A permanent failure of a queued change, or one retried too many times: it is dropped
      // and the optimistic change it carried is undone.
      if let index = state.outbox.firstIndex(of: entry) { state.outbox.remove(at: index) }
      let change = state.outboxRollbacks[entry]
      state.forgetEntriesNoLongerHeld()
      let sent = sendWaitingChanges(&state)
      return .merge(
        .send(.delegate(.rollBack(change, error: shown))),
        .concatenate(
          saveOutbox(&state), state.outbox.isEmpty ? .none : .send(.retryOutbox(attempt: 0))),
        sent)

    case .delegate:
      return .none
    }
  }

  /// Sends the first queued entry again after a backoff, replacing a retry already scheduled
  /// (but not an entry being sent: that one is answered, and the retry then sends the next).
  func scheduleRetry(attempt: Int) -> Effect<Action> {
    let delay = NotificationFeature.backoff(attempt: attempt, random: random)
    return .run { [clock] send in
      try await clock.sleep(for: delay)
      await send(.retryOutbox(attempt: attempt))
    }
    .cancellable(id: CancelID.outbox, cancelInFlight: true)
  }

  /// Lets each of the pending changes `changeIDs` (oldest first) replace what is queued for its
  /// notifications, as it did when it was performed: the entries queued since are older.
  func supersedeQueuedEntries(
    byEach changeIDs: some Sequence<UUID>, in state: inout State
  ) {
    guard !state.outbox.isEmpty else { return }
    for changeID in changeIDs { supersedeQueuedEntries(by: changeID, in: &state) }
  }

  /// Writes the outbox with its rollbacks and failure counts, unless a write is in flight: then
  /// `outboxSaved` writes the latest outbox once it finishes, so the last write is the latest.
  func saveOutbox(_ state: inout State) -> Effect<Action> {
    guard state.outboxBeingSaved == nil else { return .none }
    let saved = state.saved
    state.outboxBeingSaved = saved
    return .run { [settings] send in
      try? await settings.save(saved, forKey: SettingsKey.outbox)
      await send(.outboxSaved)
    }
  }

  typealias SettingsKey = NotificationsFeature.SettingsKey
}
