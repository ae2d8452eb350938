import Foundation
import Loom
import Testing

@MainActor
struct TestClockTests {
  struct Timer: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable { case start }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      // The capture list matters: with it, Swift 6.3 does not infer a closure passed as a
      // `nonisolated(nonsending)` parameter to be `nonisolated(nonsending)`.
      .run { [clock] _ in try await clock.sleep(for: .seconds(1)) }
    }
  }

  /// The effect starts on the main actor inside `send` and registers its sleeper before `send`
  /// returns, so a test can advance the clock right after sending. The registration used to
  /// happen on the global executor, after `send` had returned.
  @Test func anEffectSleepsOnTheClockBeforeSendReturns() async {
    let clock = TestClock()
    let store = Store(initialState: Timer.State()) { Timer(clock: clock) }
    let task = store.send(.start)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(clock.sleeperCount == 0)
  }

  /// The sleeper is registered on the caller's thread, before the caller suspends. It used to
  /// be registered on the global executor (the operation of `withTaskCancellationHandler` is
  /// not isolated to the caller), after the caller had moved on.
  @Test func aSleeperIsRegisteredBeforeTheCallerSuspends() async {
    let clock = TestClock()
    let recorder = SuspensionRecorder()
    let thread = pthread_self()
    let task = Suspension.withObserver(recorder) {
      Task.immediate { @MainActor in try? await clock.sleep(for: .seconds(1)) }
    }
    #expect(recorder.threads.value == [thread])
    await clock.advance(by: .seconds(1))
    await task.value
  }

  /// `sleep(until:)` too: called on the clock itself from the main actor, it used to switch to
  /// the global executor first (a plain `async` method), and a test that advanced the clock
  /// right after could pass the sleeper by.
  @Test func aSleepUntilADeadlineIsRegisteredBeforeTheCallerSuspends() async {
    let clock = TestClock()
    let recorder = SuspensionRecorder()
    let thread = pthread_self()
    let task = Suspension.withObserver(recorder) {
      Task.immediate { @MainActor in
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
      }
    }
    #expect(recorder.threads.value == [thread])
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await task.value
  }

  /// swift-clocks' TestClock suspends a zero-length sleep until the next advance, and tests
  /// ported from TCA rely on it (a `Task.yield` stand-in that the test controls).
  @Test func aSleepUntilNowWaitsForTheNextAdvance() async {
    let clock = TestClock()
    let woke = Locked(false)
    let task = Task {
      try await clock.sleep(for: .zero)
      woke.withValue { $0 = true }
    }
    for _ in 0..<20 { await Task.yield() }
    #expect(woke.value == false)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .zero)
    try? await task.value
    #expect(woke.value == true)
  }

  @Test func aSleepUntilADeadlineAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(5))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    #expect(clock.sleeperCount == 0)
  }
}

/// Records the threads a sleeper announced its suspension from.
final class SuspensionRecorder: SuspensionObserver {
  let threads = Locked<[pthread_t]>([])

  func willSuspend(on reason: SuspensionReason) {
    let thread = pthread_self()
    threads.withValue { $0.append(thread) }
  }

  func didResume() {}

  var isSettled: Bool { true }
}

/// `run()` with a timer running stops after its steps and says why (it never returned), and
/// stops when its task is cancelled.
@MainActor
struct TestClockRunTests {
  struct Ticking: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Sendable, Equatable { case start, tick }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func runWithATimerStopsAfterItsStepsAndSaysWhy() async {
    let clock = TestClock()
    let issues = IssueLog()
    let store = Store(initialState: Ticking.State()) { Ticking(clock: clock) }
    let timer = store.send(.start)
    await withDependencies { $0.issueReporter = issues.reporter } operation: {
      await clock.run(maximumSteps: 10)
    }
    #expect(store.state.ticks == 10)
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("advanced 10 times") == true)
    timer.cancel()
    await timer.finish()
  }

  @Test(.timeLimit(.minutes(1)))
  func runStopsWhenItsTaskIsCancelled() async {
    let clock = TestClock()
    let store = Store(initialState: Ticking.State()) { Ticking(clock: clock) }
    let timer = store.send(.start)
    let runner = Task { @MainActor in await clock.run() }
    while store.state.ticks < 3 { await Task.yield() }
    runner.cancel()
    await runner.value
    #expect(store.state.ticks < 100_000)
    timer.cancel()
    await timer.finish()
  }
}
