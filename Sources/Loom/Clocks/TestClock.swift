
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
    /// Counts sleepers registered and removed, so `advance` can tell when woken tasks settled.
    var changes = 0
  }

  private let state = LockedState(State())

  /// Creates a clock at time zero.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on the clock.
  package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline`, or throws `CancellationError` as soon
  /// as the task is cancelled.
  ///
  /// A deadline of now (`sleep(for: .zero)`) waits for the next ``advance(by:)``, even
  /// `advance(by: .zero)`, as swift-clocks' `TestClock` does; a deadline already passed returns
  /// at once.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await sleepOnCaller(until: deadline)
  }

  /// The implementation of ``sleep(until:tolerance:)``, running on the caller's actor so the
  /// sleeper is registered before the caller first suspends.
  ///
  /// Takes the caller's isolation as a parameter, and the cancellation handler's operation
  /// captures it, rather than being `nonisolated(nonsending)`: the operation closure of
  /// `withTaskCancellationHandler` is not isolated unless it captures an isolated parameter, so
  /// it ran on the global executor and the sleeper was registered there, after the caller had
  /// moved on; a test could then advance the clock before the sleeper existed.
  func sleepOnCaller(
    until deadline: Instant, isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try Task.checkCancellation()
    let observer = Suspension.observer
    // A deadline of now (`sleep(for: .zero)`) waits for the next `advance`, as swift-clocks'
    // TestClock does; only a deadline already passed returns at once.
    let id = state.withLock { state -> Int? in
      guard deadline >= state.now else { return nil }
      state.nextID += 1
      return state.nextID
    }
    guard let id else {
      await Task.yield()
      return
    }
    try await withTaskCancellationHandler {
      _ = isolation
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let isCancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          // Inside the lock, so it always comes before the `didResume` of the advance that
          // wakes the sleeper.
          observer?.willSuspend(on: .testClock)
          state.sleepers[id] = Sleeper(
            deadline: deadline, continuation: continuation, observer: observer)
          state.changes += 1
          return false
        }
        if isCancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper = state.withLock { state in
        state.changes += 1
        return state.sleepers.removeValue(forKey: id)
      }
      sleeper?.observer?.didResume()
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in
  /// deadline order, and letting each run before moving on.
  ///
  /// Runs on the main actor, where stores run their effects: a woken effect is resumed on the
  /// main actor ahead of the clock, so it reaches its next suspension (or sends its action)
  /// before the clock wakes the next sleeper or returns.
  @MainActor
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking sleepers in deadline order.
  ///
  /// Sleepers that a woken task schedules before `deadline` are woken too, so a timer that
  /// re-arms itself fires as many times as fit in the interval.
  @MainActor
  public func advance(to deadline: Instant) async {
    // Work already queued on the main actor (an effect about to sleep) runs first, so its
    // sleeper is registered before time moves.
    await settle()
    while let next = popNext(notAfter: deadline) {
      next.observer?.didResume()
      next.continuation.resume()
      // The woken task was enqueued on the main actor ahead of this one: yielding lets it run
      // up to its next suspension before the next sleeper is woken. An effect of a store says
      // when it is settled (waiting on a test clock again, or finished); other tasks are given
      // yields until one passes without them touching the clock. At most 50 yields: this
      // relies on the main actor running jobs in order, not on time.
      for _ in 0..<50 {
        if let observer = next.observer, observer.isSettled { break }
        let before = state.withLock { $0.changes }
        await Task.yield()
        if next.observer == nil, state.withLock({ $0.changes }) == before { break }
      }
    }
    state.withLock { $0.now = max($0.now, deadline) }
  }

  /// Yields on the main actor until a yield passes without any sleeper registered or
  /// cancelled (at most 50 times).
  @MainActor
  private func settle() async {
    for _ in 0..<50 {
      let before = state.withLock { $0.changes }
      await Task.yield()
      if state.withLock({ $0.changes }) == before { return }
    }
  }

  /// Advances to the last scheduled deadline, including sleepers scheduled while running,
  /// until no sleeper is left.
  @MainActor
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
