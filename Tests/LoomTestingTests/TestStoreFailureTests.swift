import Loom
import LoomTesting
import Testing

/// Each failure the test store reports, with the exact message it prints. These tests collect
/// the failures instead of failing, because the message is what they check.
@MainActor
struct TestStoreFailureTests {
  func makeStore(
    _ state: Counter.State = Counter.State(),
    log: FailureLog,
    dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<Counter.State, Counter.Action> {
    let store = TestStore(
      initialState: state, reducer: { Counter() }, withDependencies: dependencies)
    store.failureReporter = log.reporter
    return store
  }

  @Test func aStateMismatchShowsAMinimalDiff() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.increment) { $0.count = 2 }
    #expect(
      log.messages == [
        """
        A state change does not match expectation after sending .increment:

          Counter.State(
        −   count: 2
        +   count: 1
            … (2 unchanged)
          )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func anUnassertedStateChangeIsReported() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.increment)
    #expect(
      log.messages == [
        """
        State was not expected to change, but a change occurred after sending .increment:

          Counter.State(
        −   count: 0
        +   count: 1
            … (2 unchanged)
          )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aClosureForAnActionThatChangesNothingIsReported() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.noop) { $0.count = 0 }
    #expect(
      log.messages == [
        """
        Expected state to change, but no change occurred after sending .noop.

        The assertion closure made changes the state did not: if no change is expected, leave \
        out the closure.
        """
      ])
  }

  @Test func aClosureThatChangesNothingWhileTheStateChangedIsReported() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.increment) { _ in }
    #expect(
      log.messages.first?.hasPrefix(
        "The assertion closure changed nothing, but the state did change after sending .increment:"
      ) == true)
  }

  @Test func unassertedReceivedActionsAreListedBeforeTheNextSend() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.fireTwice)
    await store.send(.noop)
    #expect(
      log.messages == [
        """
        Must handle 2 received actions before sending an action:

          • .increment (sent by .send from .fireTwice)
          • .increment (sent by .send from .fireTwice)
        """
      ])
  }

  @Test func receivedActionsLeftAtTheEndOfTheTestAreReported() async {
    let log = FailureLog()
    do {
      let store = makeStore(log: log)
      await store.send(.fireTwice)
      await store.receive(.increment) { $0.count = 1 }
    }
    #expect(
      log.messages == [
        """
        The store received 1 unexpected action by the end of the test:

          • .increment (sent by .send from .fireTwice)
        """
      ])
  }

  @Test func actionsSkippedByANonExhaustiveReceiveAreNotReportedAtTheEnd() async {
    let log = FailureLog()
    do {
      let store = makeStore(log: log)
      store.exhaustivity = .off
      // .relay(3) sends .relay(2), then .relay(1), then .relay(0): receiving .relay(1) skips
      // .relay(2); the test then checks exhaustively again and leaves .relay(0) unasserted.
      await store.send(.relay(3))
      await store.receive(.relay(1))
      store.exhaustivity = .on
    }
    #expect(
      log.messages == [
        """
        The store received 1 unexpected action by the end of the test:

          • .relay(0) (sent by .send from .relay(1), which came from .relay(2) ← .relay(3))
        """
      ])
  }

  @Test func receiveFailsAtOnceWhenNoEffectIsInFlight() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.noop)
    await store.receive(.tick)
    #expect(log.messages == ["Expected to receive .tick, but no effects are in flight."])
  }

  @Test func receiveFailsAtOnceWhenEveryEffectWaitsOnATestClock() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(log: log) { $0.continuousClock = clock }
    await store.send(.startTimer) { $0.isTimerOn = true }
    let started = ContinuousClock.now
    await store.receive(.tick)
    #expect(ContinuousClock.now - started < .milliseconds(500))
    #expect(
      log.messages == [
        """
        Expected to receive .tick, but no effect can make progress: every effect in flight is \
        waiting on a test clock. Advance the clock before receiving.

        Effects in flight:
          • an effect of .startTimer at LoomTestingTests/CounterFeature.swift:43 (waiting on a test clock)
        """
      ])
    await store.send(.stopTimer) { $0.isTimerOn = false }
  }

  /// A `.concatenate` moves on only when its running step ends, so a step waiting on a test
  /// clock leaves nothing that can make progress.
  @Test func receiveFailsAtOnceWhenTheStepOfAConcatenateWaitsOnATestClock() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = makeStore(log: log) { $0.continuousClock = clock }
    await store.send(.startTwoTicks)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    let started = ContinuousClock.now
    await store.receive(.tick)
    #expect(ContinuousClock.now - started < .milliseconds(500))
    #expect(
      log.messages == [
        """
        Expected to receive .tick, but no effect can make progress: every effect in flight is \
        waiting on a test clock. Advance the clock before receiving.

        Effects in flight:
          • an effect of .startTwoTicks at LoomTestingTests/CounterFeature.swift:71 (waiting on a test clock)
        """
      ])
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 2 }
  }

  @Test func receiveTimesOutNamingTheEffectsStillInFlight() async {
    let log = FailureLog()
    let gate = AsyncStream<String>.makeStream()
    let store = makeStore(log: log) { values in
      values.numberFact.fetch = { _ in
        for await value in gate.stream { return value }
        return ""
      }
    }
    store.timeout = .milliseconds(100)
    await store.send(.factTapped)
    await store.receive(.factLoaded("late"))
    #expect(
      log.messages == [
        """
        Expected to receive .factLoaded("late"), but received nothing after 0.1 seconds.

        Effects in flight:
          • an effect of .factTapped at LoomTestingTests/CounterFeature.swift:37
        """
      ])
    gate.continuation.yield("late")
    await store.receive(.factLoaded("late")) { $0.fact = "late" }
  }

  @Test func effectsStillRunningAtTheEndOfTheTestAreReported() async {
    let log = FailureLog()
    let clock = TestClock()
    do {
      let store = makeStore(log: log) { $0.continuousClock = clock }
      await store.send(.startTimer) { $0.isTimerOn = true }
    }
    #expect(
      log.messages == [
        """
        1 effect is still running at the end of the test. Assert what it sends, cancel it (for \
        example with "await task.cancel()" on the task "send" returned), or end the test with \
        "await store.skipInFlightEffects()".

        Effects in flight:
          • an effect of .startTimer at LoomTestingTests/CounterFeature.swift:43 (waiting on a test clock)
        """
      ])
  }

  @Test func anEffectInFlightIsListedWithTheActionsThatLedToIt() async {
    let log = FailureLog()
    let clock = TestClock()
    do {
      let store = makeStore(log: log) { $0.continuousClock = clock }
      await store.send(.startTimerLater)
      await store.receive(.startTimer) { $0.isTimerOn = true }
    }
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasSuffix(
        """
        Effects in flight:
          • an effect of .startTimer at LoomTestingTests/CounterFeature.swift:43, which came \
        from .startTimerLater (waiting on a test clock)
        """) == true, "\(log.messages)")
  }

  @Test func receivingADifferentActionShowsTheActionDiff() async {
    let log = FailureLog()
    let store = makeStore(log: log) { $0.numberFact.fetch = { _ in "real" } }
    await store.send(.factTapped)
    await store.receive(.factLoaded("expected"))
    #expect(
      log.messages == [
        """
        Received unexpected action (from an effect of .factTapped at \
        LoomTestingTests/CounterFeature.swift:37):

          .factLoaded(
        −   "expected"
        +   "real"
          )

        (Expected: −, Received: +)
        """
      ])
  }

  @Test func failuresNameTheChainOfActionsThatLedToTheAction() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.chainStart)
    await store.receive(.chainMiddle)
    await store.receive(.tick)
    #expect(
      log.messages == [
        """
        Received unexpected action (from an effect of .chainMiddle at \
        LoomTestingTests/CounterFeature.swift:63, which came from .chainStart):

        − .tick
        + .chainEnd

        (Expected: −, Received: +)
        """
      ])
  }

  /// A chain of actions keeps its most recent ancestors only, however long it grows, so a retry
  /// loop that runs for hours holds a bounded chain.
  @Test func aLongChainNamesItsEightMostRecentAncestors() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.relay(30))
    for remaining in (11...29).reversed() { await store.receive(.relay(remaining)) }
    await store.receive(.tick)
    #expect(
      log.messages.first?.hasPrefix(
        """
        Received unexpected action (sent by .send from .relay(11), which came from .relay(12) ← \
        .relay(13) ← .relay(14) ← .relay(15) ← .relay(16) ← .relay(17) ← .relay(18) ← \
        .relay(19)):
        """) == true, "\(log.messages)")
    await store.skipReceivedActions()
  }

  @Test func aRuntimeWarningFromTheCoreBecomesAFailure() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.failing)
    await store.finish()
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasPrefix(
        """
        The store reported a runtime issue: An effect returned for the action below threw an \
        error it did not catch:

          .failing
        """) == true, "\(log.messages)")
  }

  @Test func aDependencyWithoutATestValueFailsNamingIt() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.factTapped)
    await store.receive(.factLoaded("0 is a number.")) { $0.fact = "0 is a number." }
    #expect(
      log.messages == [
        """
        The store reported a runtime issue: @Dependency(NumberFactKey) has no test value, and \
        it was used in a test. Override it in the test's "withDependencies", or give the key a \
        "testValue".
        """
      ])
  }

  @Test func nonExhaustiveStoresStillCheckWhatIsAsserted() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    store.exhaustivity = .off
    await store.send(.fireTwice)
    await store.receive(.increment) { $0.count = 5 }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.hasPrefix("A state change does not match expectation") == true)
  }
}

/// A key without a test value gives its preview value in a test (after failing it, naming the
/// key), as TCA does: a key with a preview runs no live code in a test. (It gave the live one.)
@MainActor
struct PreviewFallbackTests {
  struct Greeter: Reducer {
    struct State: Equatable { var greeting = "" }
    enum Action: Sendable, Equatable { case greet }
    @Dependency(\.greeting) var greeting

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.greeting = greeting
      return .none
    }
  }

  @Test func aKeyWithoutATestValueGivesItsPreviewValueInATest() async {
    let log = FailureLog()
    let store = TestStore(initialState: Greeter.State()) { Greeter() }
    store.failureReporter = log.reporter
    await store.send(.greet) { $0.greeting = "preview" }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("@Dependency(GreetingKey) has no test value") == true)
  }
}

private enum GreetingKey: DependencyKey {
  static let liveValue = "live"
  static let previewValue = "preview"
}

extension DependencyValues {
  fileprivate var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}
