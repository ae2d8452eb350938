import Synchronization

/// A clock whose time moves only when a test says so.
///
/// Sleepers wait until the test advances the clock past their deadline, so tests of debounce,
/// throttle, timers and retries are exact and never wait for real time.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.searchQueryChanged("loom"))
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.searchResponse(results)) { $0.results = results }
/// ```
///
/// While an effect waits on a test clock, the test store knows the effect cannot make progress
/// on its own, so a `receive` that would wait for it fails at once with a message saying to
/// advance the clock.
public final class TestClock: Clock, Sendable {
  public typealias Instant = ImmediateClock.Instant

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
    let observer: (any SuspensionObserver)?
  }

  private struct State {
    var now = Instant()
    var nextID = 0
    var sleepers: [Int: Sleeper] = [:]
  }

  private let state = Mutex(State())

  /// Creates a clock at time zero.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on the clock.
  package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline`, or throws `CancellationError` as soon
  /// as the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let observer = Suspension.observer
    let id = state.withLock { state -> Int? in
      guard deadline > state.now else { return nil }
      state.nextID += 1
      return state.nextID
    }
    guard let id else {
      await Task.yield()
      return
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let isCancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.sleepers[id] = Sleeper(
            deadline: deadline, continuation: continuation, observer: observer)
          return false
        }
        if isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          observer?.willSuspend()
        }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.observer?.didResume()
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in
  /// deadline order, and letting each run before moving on.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking sleepers in deadline order.
  ///
  /// Sleepers that a woken task schedules before `deadline` are woken too, so a timer that
  /// re-arms itself fires as many times as fit in the interval.
  public func advance(to deadline: Instant) async {
    while let next = popNext(notAfter: deadline) {
      next.observer?.didResume()
      next.continuation.resume()
      // Let the woken task run up to its next suspension before waking the next one.
      for _ in 0..<20 { await Task.yield() }
    }
    state.withLock { $0.now = max($0.now, deadline) }
    for _ in 0..<20 { await Task.yield() }
  }

  /// Advances to the last scheduled deadline, including sleepers scheduled while running,
  /// until no sleeper is left.
  public func run() async {
    while let last = state.withLock({ $0.sleepers.values.map(\.deadline).max() }) {
      await advance(to: last)
    }
  }

  private func popNext(notAfter deadline: Instant) -> Sleeper? {
    state.withLock { state in
      guard
        let (id, sleeper) = state.sleepers
          .filter({ $0.value.deadline <= deadline })
          .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) })
      else { return nil }
      state.sleepers.removeValue(forKey: id)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }
  }
}
