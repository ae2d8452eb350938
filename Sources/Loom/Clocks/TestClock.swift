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
    /// Sleepers woken (by `advance`) or cancelled whose tasks have not run since.
    var waking: Set<Int> = []
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
  /// as the task is cancelled. Starts on the caller's actor, so the sleeper is registered before
  /// the caller first suspends (called through `any Clock`, the standard library's requirement
  /// switches to the global executor first: use `sleep(for:tolerance:)` there).
  ///
  /// A deadline of now (`sleep(for: .zero)`) waits for the next ``advance(by:)``, even
  /// `advance(by: .zero)`, as swift-clocks' `TestClock` does; a deadline already passed returns
  /// at once.
  nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil)
    async throws
  {
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
    let observer = Suspension.current
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
    // Runs on the caller's actor as soon as the task runs again, in the same job as whatever the
    // task does next up to its next suspension: `advance` waits for it.
    defer { _ = state.withLock { $0.waking.remove(id) } }
    try await withTaskCancellationHandler {
      _ = isolation
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
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
      // Runs on the thread that cancels the task, which may be off the main actor; the task
      // itself resumes on its actor, and `advance` waits for it there (`waking`).
      let sleeper = state.withLock { state in
        state.changes += 1
        let sleeper = state.sleepers.removeValue(forKey: id)
        if sleeper != nil { state.waking.insert(id) }
        return sleeper
      }
      sleeper?.observer?.didResume()
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in
  /// deadline order, and letting each run before moving on.
  ///
  /// Runs on the main actor, where stores run their effects. After waking a sleeper it waits
  /// until the sleeper's task has run again: a task on the main actor then has done everything up
  /// to its next suspension (sent its actions, started the next step of a `.concatenate`, slept
  /// on this clock again) before the next sleeper is woken or `advance` returns.
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
    // Work already queued on the main actor (an effect about to sleep, one whose sleep was
    // cancelled) runs first, so its sleeper is registered, or it has ended, before time moves.
    await waitUntilWokenTasksRan()
    await settle()
    while let next = popNext(notAfter: deadline) {
      next.observer?.didResume()
      next.continuation.resume()
      await waitUntilWokenTasksRan()
      // A store's effect says when it is settled (waiting on a test double again, or finished):
      // one that went on to await something else (work off the main actor) is given up to 50
      // more yields to come back.
      if let observer = next.observer {
        var yields = 0
        while !observer.isSettled, yields < 50 {
          await Task.yield()
          yields += 1
        }
      }
    }
    state.withLock { $0.now = max($0.now, deadline) }
  }

  /// Yields until the tasks of the sleepers just woken or cancelled have run again.
  ///
  /// A yield is not enough: a woken task and a yielding one are not always run in the order they
  /// were resumed (on Linux under load, a woken effect ran after up to 100 yields), so a clock
  /// that yielded a fixed number of times woke the next sleeper, or returned, too early. The wait
  /// ends on the tasks' own signal; the bound only keeps a task that can never run (its actor
  /// blocked) from hanging the test.
  @MainActor
  private func waitUntilWokenTasksRan() async {
    var yields = 0
    while !state.withLock({ $0.waking.isEmpty }), yields < 1_000_000 {
      await Task.yield()
      yields += 1
    }
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
  /// until no sleeper is left, the calling task is cancelled, or `maximumSteps` advances have
  /// not emptied the clock: then something sleeps again each time it wakes (a timer), and the
  /// run stops and reports it, rather than never return.
  ///
  /// ```swift
  /// await store.send(.remindMeTapped)
  /// await clock.run()   // every sleep has passed
  /// ```
  @MainActor
  public func run(
    maximumSteps: Int = 100_000,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    var steps = 0
    while !Task.isCancelled, let last = state.withLock({ $0.sleepers.values.map(\.deadline).max() })
    {
      guard steps < maximumSteps else {
        reportIssue(
          """
          TestClock.run() advanced \(maximumSteps) times and something still sleeps: an effect \
          sleeps again each time it wakes (a timer). Cancel it first, or advance by a duration.
          """, fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      steps += 1
      await advance(to: last)
    }
  }

  /// Removes the sleeper with the earliest deadline not after `deadline` (the first registered
  /// among equal ones) and moves time to its deadline.
  private func popNext(notAfter deadline: Instant) -> Sleeper? {
    state.withLock { state in
      guard
        let (id, sleeper) = state.sleepers
          .filter({ $0.value.deadline <= deadline })
          .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) })
      else { return nil }
      state.sleepers.removeValue(forKey: id)
      state.waking.insert(id)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }
  }
}
