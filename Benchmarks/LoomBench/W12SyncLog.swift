import Foundation
import Loom
import NotificationClients
import Notifications

/// W12: the sync log at scale, on `NotificationFeature` and the SQLite inbox's change log store
/// (`LocalInbox.changeLogStore(scope:)`, a database in a temporary folder, removed after each
/// run). A notification center holds 2,000 notifications (all unread, the seven known types in
/// turn), launched with the whole seed as its first page as W8 is, on an in-memory backend that
/// cannot be reached: every call fails with `.network`, a retryable error. The person marks the
/// first 1,000 read, one at a time, each once the backend has refused the one before, so the
/// log holds the 1,000 changes waiting to be sent again, each saved as a row by the feature's
/// own writes (nothing built by hand). Then:
///
/// - (c) the saved log's size on disk: how much the database file grew from before the first
///   change (the store opened, its tables made) to the 1,000 changes waiting, divided by them
///   (the file grows by whole pages of 4 KiB: ±4 bytes per change);
/// - (b) the backend is reachable again and the person marks the 1,000 other notifications
///   read, each a `markAsRead` with its effects awaited as W8 does (recorded, shown, written,
///   sent, answered), while the 1,000 stay waiting (their retry waits on the clock, which never
///   moves): an action's cost beside a full log. 1,000 actions, not W8's 10,000: the log's
///   size, not their number, sets the cost;
/// - (a) a relaunch: a new store with an empty state on the same backend (reachable) and a new
///   inbox on the same database, timed from `store.send(.onAppear)` until the backend has
///   applied all 1,000 waiting changes and the saved log holds no record. What a relaunch does
///   besides (reading the log, the first page, the live stream, whose events for the changes
///   let the acknowledged records leave) runs as in an app and is in the figure.
///
/// Each store's `continuousClock` is a `TestClock` that is never advanced. While the backend is
/// unreachable, each failure schedules a retry after a backoff on that clock: it waits forever,
/// so the 1,000 changes stay waiting (an `ImmediateClock` would send them again at once, and
/// real time would retry during (b)). The relaunch sends the restored records at once, without
/// a backoff, so (a) measures the feature's work, never a sleep: a drain that waited on a
/// backoff would stall, and the workload fails saying so instead of reporting a figure (the
/// relaunch's clock must also have no sleeper at the end).
///
/// Every write of the log is a SQLite transaction committed to the file: (a) and (b) count the
/// disk's commits too, as an app's would. Figures are medians of 5 runs, each on a new backend
/// and a new database, after a warm-up at 1/10 of the size. `--quick` divides both counts by 10.
/// A run whose changes do not arrive, or whose log is not as expected, stops loom-bench with
/// exit status 1.
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
  /// (a): from `onAppear` until every waiting change is applied and the saved log is empty.
  var relaunch: Duration
  /// (b): all the `markAsRead` actions, sent and awaited.
  var marking: Duration
  /// (c): the database's growth over the number of changes waiting.
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
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-bench-w12-\(UUID().uuidString)", isDirectory: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  } catch {
    fail("no temporary folder for the inbox: \(error)")
  }
  let database = folder.appendingPathComponent("inbox.sqlite")
  let saved = LocalInbox(url: database).changeLogStore(scope: "w12")
  // The store opened and its tables made: the size the log's rows add to.
  guard (try? await saved.load()) != nil else { fail("the inbox's change log cannot be read") }
  let emptySize = fileSize(database)

  // Offline: every call fails for now, and each change waits to be sent again.
  backend.updateFaults {
    $0.failureRate = 1
    $0.randomError = .network
  }
  var launched = NotificationFeature.State()
  launched.launch = .ready
  // The backend's log starts at 0 (its seed is no change): the page reflects that.
  launched.server.replace(with: NotificationPage(items: seed, changeCursor: 0))
  launched.reshowAll()
  let refused = Arrivals()
  var store: Store<NotificationFeature.State, NotificationFeature.Action>? = Store(
    initialState: launched
  ) {
    NotificationFeature()
  } withDependencies: {
    $0.notificationClient = counting(backend.client, failures: refused)
    $0.changeLogStore = saved
    $0.settingsClient = .inMemory()
    $0.pushClient = .unavailable
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
  guard await waitUntil({ await waiting(in: saved) == queued }) else {
    fail("the saved log never held \(queued) changes waiting")
  }
  let grown = fileSize(database) - emptySize

  // Online again; the waiting changes wait for their retry.
  backend.updateFaults { $0.failureRate = 0 }
  let began = ContinuousClock.now
  var tasks: [StoreTask] = []
  tasks.reserveCapacity(actions)
  for index in queued..<(queued + actions) {
    if let task = store?.send(.markAsRead("n\(index)")) { tasks.append(task) }
  }
  for task in tasks { await task.finish() }
  let marking = ContinuousClock.now - began
  let stillWaiting = await waiting(in: saved)
  if store?.state.unreadCount != 0 || stillWaiting != queued {
    fail("\(store?.state.unreadCount ?? -1) unread and \(stillWaiting) waiting after (b)")
  }
  store = nil

  // The relaunch: a new inbox on the same database.
  let received = Arrivals()
  let clock = TestClock()
  let relaunched = Store(initialState: NotificationFeature.State()) {
    NotificationFeature()
  } withDependencies: {
    $0.notificationClient = counting(backend.client, applied: received)
    $0.changeLogStore = LocalInbox(url: database).changeLogStore(scope: "w12")
    $0.settingsClient = .inMemory()
    $0.pushClient = .unavailable
    $0.continuousClock = clock
  }
  let launchedAt = ContinuousClock.now
  relaunched.send(.onAppear)
  guard await received.wait(for: queued, seconds: 60) else {
    fail("the backend received \(received.count) of \(queued) changes in 60 s")
  }
  guard await waitUntil({ relaunched.state.log.records.isEmpty }) else {
    fail("the log still holds \(relaunched.state.log.records.count) records after the drain")
  }
  guard await waitUntil({ await records(in: saved) == 0 }) else {
    fail("the saved log still holds records after the backend received them all")
  }
  let relaunch = ContinuousClock.now - launchedAt
  relaunched.send(.onDisappear)
  let queuedIDs = Set((0..<queued).map { "n\($0)" })
  let unapplied = backend.notifications.count(where: { queuedIDs.contains($0.id) && !$0.isRead })
  if unapplied != 0 || clock.sleeperCount != 0 {
    fail("\(unapplied) waiting changes not applied, \(clock.sleeperCount) waiting on a backoff")
  }
  relaunched.cancelAll()
  return W12Sample(
    relaunch: relaunch, marking: marking, bytesPerChange: Double(grown) / Double(queued))
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

/// How many records of the saved log wait to be sent again after failing for now (-1 when it
/// cannot be read).
private func waiting(in store: ChangeLogStore) async -> Int {
  guard let log = try? await store.load() else { return -1 }
  return log.records.count { if case .waiting = $0.status { true } else { false } }
}

/// How many records the saved log holds (-1 when it cannot be read).
private func records(in store: ChangeLogStore) async -> Int {
  guard let log = try? await store.load() else { return -1 }
  return log.records.count
}

/// The size of the file at `url` in bytes (0 when it cannot be read).
private func fileSize(_ url: URL) -> Int {
  let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes?[.size] as? NSNumber)?.intValue ?? 0
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
