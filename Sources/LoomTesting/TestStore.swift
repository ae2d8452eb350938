import Loom

/// A store for tests that makes you assert every state change, every action effects send back,
/// and the end of every effect.
///
/// ```swift
/// @MainActor
/// @Test func incrementThenFetchFact() async {
///   let store = TestStore(initialState: CounterFeature.State()) {
///     CounterFeature()
///   } withDependencies: {
///     $0.numberFact.fetch = { "\($0) is a good number." }
///   }
///
///   await store.send(.incrementTapped) {
///     $0.count = 1
///   }
///   await store.send(.factTapped)
///   await store.receive(.factLoaded("1 is a good number.")) {
///     $0.fact = "1 is a good number."
///   }
/// }
/// ```
///
/// By default the test store is exhaustive (see ``exhaustivity``): a test fails if it leaves a
/// state change, a received action or a running effect unasserted. The end-of-test checks run
/// when the test releases the store (at the end of the test function), or earlier and
/// explicitly with ``finish(timeout:fileID:filePath:line:column:)``; failures are recorded
/// against the test that created the store, under Swift Testing and XCTest alike.
///
/// Waiting is driven by the store's own events, not by polling: `receive` fails at once when no
/// effect can make progress (every effect waits on a `TestClock` the test has not advanced, a
/// `TestStream` it has not yielded to, or a `TestContinuation` it has not resumed), and the
/// wall-clock ``timeout`` is only the last resort for effects that wait on something else.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  @usableFromInline
  struct Received {
    @usableFromInline let action: Action
    @usableFromInline let state: State
    @usableFromInline let origin: EffectOrigin<Action>

    @usableFromInline
    init(action: Action, state: State, origin: EffectOrigin<Action>) {
      self.action = action
      self.state = state
      self.origin = origin
    }
  }

  // The test store's steps (`send`, `receive`) are inlinable, and so is what they touch: made
  // in the test, where the state's and the action's types are known, they run specialized.
  // Compiled here, generically, every step looked up the metadata of the types it derives
  // (`[Received]`, `State?`, `EffectOrigin<Action>`…) at run time: ~16,000 instructions a step.
  @usableFromInline let store: Store<State, Action>
  @usableFromInline let hooks: any StoreTestingHooks<State, Action>
  @usableFromInline let monitor = ActivityMonitor()
  /// What the end-of-test checks need, reachable from the nonisolated deinit.
  @usableFromInline let ledger: TestStoreLedger<State, Action>

  // The three below are not checked for exclusivity at run time (~150 instructions and a
  // thread-local look-up an access): they are the main actor's, only this file's code and its
  // extensions touch them, and each access is one read or one write, never held across a call
  // (the effects' actions arrive through `hooks.didProcess` while `store.send` runs or while a
  // step awaits in `settleEffects` or `awaitProgress`, when no access to them is open).

  /// The state the test has asserted so far; assertions are made relative to it.
  @exclusivity(unchecked) @usableFromInline var reference: State
  /// Actions effects sent that the test has not asserted yet, oldest first. Their actions and
  /// origins are in the ledger too (what the end-of-test checks report): change it only through
  /// ``appendReceived(_:)``, ``removeReceived(first:)`` and ``removeAllReceived()``.
  @exclusivity(unchecked) @usableFromInline var received: [Received] = []
  /// The state right after the last action sent with ``send(_:assert:fileID:filePath:line:column:)``.
  @exclusivity(unchecked) @usableFromInline var stateAfterSentAction: State?

  @inlinable
  func appendReceived(_ received: Received) {
    self.received.append(received)
    let count = self.received.count
    ledger.entries.withLock {
      $0.unreceived.append((received.action, received.origin))
      Swift.assert($0.unreceived.count == count, "the ledger's received actions went out of step")
    }
  }

  @inlinable
  func removeReceived(first count: Int) {
    received.removeFirst(count)
    let left = received.count
    ledger.entries.withLock {
      $0.unreceived.removeFirst(count)
      Swift.assert($0.unreceived.count == left, "the ledger's received actions went out of step")
    }
  }

  @inlinable
  func removeAllReceived() {
    received.removeAll()
    ledger.entries.withLock { $0.unreceived.removeAll() }
  }

  /// How strictly the store checks the test. `.on` by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet {
      let exhaustivity = exhaustivity
      ledger.entries.withLock { $0.exhaustivity = exhaustivity }
    }
  }

  /// How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait for effects
  /// that wait on something the test does not control. One second by default.
  public var timeout: Duration = .seconds(1)

  /// Where failures go: the framework of the test that created the store, by default.
  ///
  /// Keep the default in every test except one that checks a failure message: a test whose
  /// failures go elsewhere cannot fail.
  public var failureReporter: TestFailureReporter {
    get { ledger.entries.withLock { $0.failureReporter } }
    set { ledger.entries.withLock { $0.failureReporter = newValue } }
  }

  /// Creates a test store.
  ///
  /// The dependencies start from the test context: a dependency the test uses without a test
  /// value fails the test, naming it.
  ///
  /// - Parameters:
  ///   - initialState: The state to start with.
  ///   - reducer: The reducer under test.
  ///   - prepareDependencies: Overrides the dependencies the reducer and its effects use.
  ///   - fileID: Where the test store was created, where end-of-test failures point; leave the
  ///     default.
  ///   - filePath: Where the test store was created; leave the default.
  ///   - line: Where the test store was created; leave the default.
  ///   - column: Where the test store was created; leave the default.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    // The store is made here, where the reducer's type is known (this initializer is inlined
    // into the test), so that it runs specialized for it; the rest is `LoomTesting`'s.
    let (dependencies, runtimeIssues) = Self.dependencies(prepareDependencies)
    let (store, hooks) = Store.withTestingHooks(
      initialState: initialState, reducer: reducer(), dependencies: dependencies)
    self.init(
      store: store, hooks: hooks, initialState: initialState, runtimeIssues: runtimeIssues,
      creation: (fileID, filePath, line, column))
  }

  /// The test context's dependencies, with `prepareDependencies` applied, reporting runtime
  /// issues to what it returns with them.
  @usableFromInline
  static func dependencies(
    _ prepareDependencies: (inout DependencyValues) -> Void
  ) -> (DependencyValues, RuntimeIssues) {
    let runtimeIssues = RuntimeIssues()
    var dependencies = DependencyValues.testing
    dependencies.issueReporter = IssueReporter { message, location in
      runtimeIssues.append(message: message, location: location)
    }
    dependencies.isPreparing = true
    prepareDependencies(&dependencies)
    dependencies.isPreparing = false
    return (dependencies, runtimeIssues)
  }

  @inlinable
  init(
    store: Store<State, Action>, hooks: any StoreTestingHooks<State, Action>,
    initialState: State, runtimeIssues: RuntimeIssues,
    creation: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
  ) {
    let (fileID, filePath, line, column) = creation
    self.store = store
    self.hooks = hooks
    self.reference = initialState
    self.ledger = TestStoreLedger(
      hooks: hooks, runtimeIssues: runtimeIssues,
      creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      framework: .current)
    let monitor = monitor
    hooks.setActivityHandler { monitor.notify() }
    hooks.didProcess = { [weak self] (action: Action, origin: EffectOrigin<Action>?, state: State) in
      guard let self else { return }
      if let origin {
        self.appendReceived(Received(action: action, state: state, origin: origin))
      } else {
        self.stateAfterSentAction = state
      }
      self.monitor.notify()
    }
  }

  // Not isolated, so that it runs in the task that releases the store and its failures reach
  // the running test (see `TestStoreLedger`).
  deinit {
    ledger.completeTest()
  }

  /// The current state of the store.
  public var state: State { store.state }

  /// The dependencies the reducer and the effects it starts from now on see. Change them to
  /// override a dependency in the middle of a test.
  ///
  /// ```swift
  /// store.dependencies.numberFact.fetch = { _ in throw URLError(.notConnectedToInternet) }
  /// ```
  public var dependencies: DependencyValues {
    get { hooks.dependencies }
    set { hooks.dependencies = newValue }
    _modify {
      var values = hooks.dependencies
      values.isPreparing = true
      yield &values
      values.isPreparing = false
      hooks.dependencies = values
    }
  }

  /// Waits until every effect in flight has begun running and has settled, so what the test
  /// does next (advance a clock, send an action) happens after the effects reached their first
  /// suspension.
  ///
  /// Effects run on the main actor, as the test does. Where the runtime cannot start an effect
  /// in place (or an effect's operation is resumed as a separate job), its work is queued on the
  /// main actor ahead of the test; yielding lets it run. Yielding stops once every effect waits on
  /// the test or has ended, once three yields in a row pass with no activity in the store
  /// (nothing started, suspended on the test, sent or ended), and at most after 50 yields: this
  /// relies on the main actor running jobs roughly in order, not on time. (One quiet yield was
  /// not enough on a loaded machine: an effect resuming from `ImmediateClock`'s yield could still
  /// be pending.)
  @inlinable
  func settleEffects() async {
    let deadline = ContinuousClock.now + timeout
    while !hooks.haveAllEffectsStarted {
      let generation = monitor.generation
      if hooks.haveAllEffectsStarted { break }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, await monitor.wait(after: generation, timeout: remaining) else {
        break
      }
    }
    var yields = 0
    var quietYields = 0
    while hooks.inFlightEffectCount > 0, !hooks.isIdle, yields < 50, quietYields < 3 {
      let generation = monitor.generation
      await Task.yield()
      yields += 1
      quietYields = monitor.generation == generation ? quietYields + 1 : 0
    }
  }

  /// What happened while waiting on the store.
  @usableFromInline
  enum Progress {
    /// Something happened: an action was processed, an effect started, suspended or ended.
    case activity
    /// No effect is in flight, so nothing more will happen on its own.
    case noEffects
    /// Every effect in flight waits on a test clock the test has not advanced.
    case idle
    /// Nothing happened before the deadline.
    case timedOut
  }

  /// Waits for the next activity in the store, or says at once why there cannot be any.
  @inlinable
  func awaitProgress(until deadline: ContinuousClock.Instant) async -> Progress {
    let generation = monitor.generation
    if hooks.inFlightWorkCount == 0 { return .noEffects }
    if hooks.isIdle { return .idle }
    let remaining = deadline - ContinuousClock.now
    guard remaining > .zero, await monitor.wait(after: generation, timeout: remaining) else {
      return .timedOut
    }
    return .activity
  }

  /// Reports a failure to ``failureReporter``.
  @usableFromInline
  func fail(_ message: String, at callSite: CallSite) {
    ledger.fail(message, at: callSite)
  }

  /// Reports the runtime issues the store raised since the last check, as failures at `callSite`.
  @inlinable
  func reportRuntimeIssues(at callSite: CallSite) {
    ledger.reportRuntimeIssues(at: callSite)
  }
}

/// The test store of a reducer's state and action.
///
/// ```swift
/// let store: TestStoreOf<Counter> = TestStore(initialState: Counter.State()) { Counter() }
/// ```
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
