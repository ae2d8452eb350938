import Foundation
import Loom
import NotificationClients
import Notifications

/// W12: the sync log at scale. A notification center holds 2,000 notifications (all unread, the
/// seven known types in turn) on an in-memory backend that cannot be reached: every call fails
/// with `.network`, a retryable error. The person marks the first 1,000 read, one at a time,
/// each once the backend has refused the one before, so the sync engine queues the 1,000
/// changes and saves its log through the settings client (the feature's own path, nothing
/// built by hand). Then:
///
/// - (c) the saved log's size, divided by the 1,000 changes it queues;
/// - (b) the backend is reachable again and the person marks the 1,000 other notifications
///   read, each a `markAsRead` with its effect awaited as W8 does, while the 1,000 stay queued
///   (their retry waits on the clock, which never moves): an action's cost beside a full log.
///   1,000 actions, not W8's 10,000: the queue's size, not their number, sets the cost;
/// - (a) a relaunch: a new store with an empty state on the same backend (reachable) and the
///   same settings, timed from `store.send(.onAppear)` until the backend has applied all 1,000
///   queued changes and the saved log queues none. What a relaunch does besides (the saved
///   settings and pushes, the first page, the live stream, whose events for the 1,000 changes
///   come back) runs as in an app and is in the figure.
///
/// Each store's `continuousClock` is a `TestClock` that is never advanced. While the backend is
/// unreachable, each failure schedules a retry after a backoff on that clock: it waits forever,
/// so the 1,000 changes stay queued (an `ImmediateClock` would send them again at once, fail
/// and give each up after `maximumOutboxAttempts`, and real time would retry during (b)). After
/// the relaunch the engine sends the restored log without a backoff (the first entry when it is
/// restored, each next one when the previous is answered), so (a) measures the engine's work,
/// never a sleep: a drain that waited on a backoff would stall, and the workload fails saying so
/// instead of reporting a figure (the relaunch's clock must also have no sleeper at the end).
///
/// Figures are medians of 5 runs, each on a new backend and new settings, after a warm-up at
/// 1/10 of the size (it only has to run every path once; at full size it would cost a whole
/// relaunch). `--quick` divides both counts by 10. A run whose changes do not arrive, or whose
/// log is not as expected, stops loom-bench with exit status 1.
@MainActor
func runW12(scale: Int) async {
  let queued = 1_000 / scale
  let actions = 1_000 / scale
  _ = await runW12Once(queued: queued / 10, actions: actions / 10)
  var samples: [W12Sample] = []
  for _ in 0..<5 { samples.append(await runW12Once(queued: queued, actions: actions)) }
  func middle<Value: Comparable>(_ values: [Value]) -> Value {
    values.sorted()[values.count / 2]
  }
  let relaunch = middle(samples.map(\.relaunch)).nanoseconds / 1e6
  let perAction = middle(samples.map(\.marking)).nanoseconds / Double(actions) / 1_000
  let bytesPerChange = middle(samples.map(\.bytesPerChange))
  report("W12", "relaunch-drain queued=\(queued)", relaunch, "ms")
  report("W12", "mark-as-read queued=\(queued)", perAction, "µs/action")
  report("W12", "saved-log queued=\(queued)", bytesPerChange, "bytes/change")
}

/// What one run of W12 measured.
private struct W12Sample {
  /// (a): from `onAppear` until every queued change is applied and none is queued.
  var relaunch: Duration
  /// (b): all the `markAsRead` actions, sent and awaited.
  var marking: Duration
  /// (c): the saved log's size over the number of changes it queues.
  var bytesPerChange: Double
}

@MainActor
private func runW12Once(queued: Int, actions: Int) async -> W12Sample {
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  let seed = (0..<(queued + actions)).map { index in
    NotificationData(
      id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "Title \(index)",
      message: "Message \(index)", timestamp: start.addingTimeInterval(-Double(index)))
  }
  let backend = InMemoryNotificationBackend(seed: seed)
  let settings = SettingsClient.inMemory()

  // Offline: every call fails for now, and each change is queued.
  backend.updateFaults {
    $0.failureRate = 1
    $0.randomError = .network
  }
  let refused = Arrivals()
  var store: Store<NotificationsFeature.State, NotificationsFeature.Action>? = Store(
    initialState: NotificationsFeature.State(notifications: seed)
  ) {
    NotificationsFeature()
  } withDependencies: {
    $0.notificationClient = counting(backend.client, failures: refused)
    $0.settingsClient = settings
    $0.continuousClock = TestClock()
  }
  // One at a time, as a person taps. The tasks are not awaited: each failure schedules a retry
  // that waits on the clock for good.
  for index in 0..<queued {
    store?.send(.markAsRead("n\(index)"))
    guard await refused.wait(for: index + 1, seconds: 60) else {
      fail("the backend was never asked for change \(index + 1) of \(queued)")
    }
  }
  guard await waitUntil({ await savedLog(in: settings).changes == queued }) else {
    fail("the saved log never queued \(queued) changes")
  }
  let saved = await savedLog(in: settings)

  // Online again; the queued changes wait for their retry.
  backend.updateFaults { $0.failureRate = 0 }
  let began = ContinuousClock.now
  var tasks: [StoreTask] = []
  tasks.reserveCapacity(actions)
  for index in queued..<(queued + actions) {
    if let task = store?.send(.markAsRead("n\(index)")) { tasks.append(task) }
  }
  for task in tasks { await task.finish() }
  let marking = ContinuousClock.now - began
  let stillQueued = await savedLog(in: settings).changes
  if store?.state.unreadCount != 0 || stillQueued != queued {
    fail("\(store?.state.unreadCount ?? -1) unread and \(stillQueued) queued after (b)")
  }
  store = nil

  // The relaunch.
  let received = Arrivals()
  let clock = TestClock()
  let relaunched = Store(initialState: NotificationsFeature.State()) {
    NotificationsFeature()
  } withDependencies: {
    $0.notificationClient = counting(backend.client, applied: received)
    $0.settingsClient = settings
    $0.continuousClock = clock
  }
  let launched = ContinuousClock.now
  relaunched.send(.onAppear)
  guard await received.wait(for: queued, seconds: 60) else {
    fail("the backend received \(received.count) of \(queued) changes in 60 s")
  }
  guard await waitUntil({ await savedLog(in: settings).changes == 0 }) else {
    fail("the saved log still queues changes after the backend received them all")
  }
  let relaunch = ContinuousClock.now - launched
  relaunched.send(.onDisappear)
  let queuedIDs = Set((0..<queued).map { "n\($0)" })
  let unapplied = backend.notifications.count(where: { queuedIDs.contains($0.id) && !$0.isRead })
  if unapplied != 0 || clock.sleeperCount != 0 {
    fail("\(unapplied) queued changes not applied, \(clock.sleeperCount) waiting on a backoff")
  }
  return W12Sample(
    relaunch: relaunch, marking: marking,
    bytesPerChange: Double(saved.bytes) / Double(queued))
}

/// `client`, counting the changes its backend applies in `applied` and those it refuses in
/// `failures`.
private func counting(
  _ client: NotificationClient, applied: Arrivals? = nil, failures: Arrivals? = nil
) -> NotificationClient {
  var counted = client
  let apply = client.apply
  counted.apply = { request in
    do {
      let cursor = try await apply(request)
      applied?.record()
      return cursor
    } catch {
      failures?.record()
      throw error
    }
  }
  return counted
}

/// What the saved log holds: its size in bytes and how many changes it queues (0 when nothing
/// is saved). The one part of W12 that knows how the log is stored: today the sync engine's
/// outbox, which the settings client keeps under `SettingsKey.outbox` as `SavedOutbox` JSON.
private func savedLog(in settings: SettingsClient) async -> (bytes: Int, changes: Int) {
  let key = NotificationsFeature.SettingsKey.outbox
  guard let data = try? await settings.loadData(key) else { return (0, 0) }
  let saved = try? JSONDecoder().decode(NotificationsFeature.SavedOutbox.self, from: data)
  return (data.count, saved?.entries.count ?? -1)
}

/// Polls `condition` between the main actor's other jobs until it holds, or for `seconds`;
/// answers whether it held.
@MainActor
private func waitUntil(
  seconds: Int = 60, _ condition: @MainActor () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !(await condition()) {
    if ContinuousClock.now > deadline { return false }
    await Task.yield()
  }
  return true
}

/// Stops loom-bench: a run that did not do its work must not pass as a figure.
private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("W12: \(message)\n".utf8))
  exit(1)
}

/// Counts calls and wakes one waiter once a number is reached, so the relaunch is timed without
/// polling (a polling main actor would take a core from the effects).
private final class Arrivals: Sendable {
  private struct State {
    var count = 0
    var target = Int.max
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state = LockedState(State())

  var count: Int { state.withLock { $0.count } }

  func record() {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      state.count += 1
      guard state.count >= state.target else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// Waits until `target` changes have arrived (true) or `seconds` have passed (false).
  func wait(for target: Int, seconds: Int) async -> Bool {
    let timeout = Task {
      try await Task.sleep(for: .seconds(seconds))
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: false)
    }
    defer { timeout.cancel() }
    return await withCheckedContinuation { continuation in
      let arrived = state.withLock { state -> Bool in
        guard state.count < target else { return true }
        state.target = target
        state.waiter = continuation
        return false
      }
      if arrived { continuation.resume(returning: true) }
    }
  }
}
