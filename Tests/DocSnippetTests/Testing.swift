// The snippets of Docs/Testing.md.

import Loom
import LoomTesting
import Testing

struct Stopwatch: Reducer {
  struct State: Equatable {
    var count = 0
    var isTimerOn = false
  }
  enum Action: Sendable, Equatable { case startTimer, tick, stopTimer }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      state.isTimerOn = true
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    case .stopTimer:
      state.isTimerOn = false
      return .cancel(id: CancelID.timer)
    }
  }
}

// snippet: exhaustive
@MainActor
@Test func timerTicks() async {
  let clock = TestClock()
  let store = TestStore(initialState: Stopwatch.State()) { Stopwatch() } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.startTimer) { $0.isTimerOn = true }
  await clock.advance(by: .seconds(1))
  await store.receive(.tick) { $0.count = 1 }
  await store.send(.stopTimer) { $0.isTimerOn = false }
}
// snippet: end

/// Fires twice, then counts.
struct Launcher: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case fireTwice, fire, increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fireTwice: return .concatenate(.send(.fire), .send(.fire), .send(.increment))
    case .fire: return .none
    case .increment:
      state.count += 1
      return .none
    }
  }
}

@MainActor
@Test func aNonExhaustiveReceiveSkipsWhatCameBeforeIt() async {
  let store = TestStore(initialState: Launcher.State()) { Launcher() }
  // snippet: non-exhaustive
  store.exhaustivity = .off                         // or .off(showSkippedAssertions: true)
  await store.send(.fireTwice)
  await store.receive(.increment)                   // skips what came before it
  // snippet: end
  #expect(store.state.count == 1)
}

@MainActor
/// Collects the failure: the guide shows its message, which is what this checks.
@Test func theFailureInTheTestingGuideIsTheOneTestStoreReports() async throws {
  let failures = LockedState<[TestFailure]>([])
  let store = TestStore(initialState: Stopwatch.State()) { Stopwatch() }
  store.failureReporter = .collecting { failure in failures.withLock { $0.append(failure) } }
  await store.send(.tick) { $0.count = 2 }

  let reported = failures.withLock { $0 }.map(\.message)
  let shown = try #require(try Documentation.output(named: "state-mismatch"))
  #expect(reported == [shown.lines.joined(separator: "\n")], "update the block in \(shown.path)")
}
