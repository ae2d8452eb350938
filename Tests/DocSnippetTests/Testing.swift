// The snippets of Docs/Testing.md. Its test file's imports are in GuidePackageFiles.swift.

import LoomTesting
import Testing
// snippet: stopwatch
import Loom

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
// snippet: end

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

// snippet: launcher
/// Sends `.fire` twice, then `.increment`, which counts.
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
// snippet: end

// snippet: non-exhaustive
@MainActor
@Test func aNonExhaustiveReceiveSkipsWhatCameBeforeIt() async {
  let store = TestStore(initialState: Launcher.State()) { Launcher() }
  store.exhaustivity = .off                         // or .off(showSkippedAssertions: true)
  await store.send(.fireTwice)
  await store.receive(.increment)                   // skips what came before it
  #expect(store.state.count == 1)
}
// snippet: end

@MainActor
/// Collects the failure: the guide shows its message, which is what this checks.
@Test func theFailureInTheTestingGuideIsTheOneTestStoreReports() async throws {
  let failures = LockedState<[TestFailure]>([])
  let store = TestStore(initialState: Stopwatch.State()) { Stopwatch() }
  store.failureReporter = .collecting { failure in failures.withLock { $0.append(failure) } }
  await store.send(.tick) { $0.count = 2 }

  let reported: [String] = failures.withLock { $0 }.map(\.message)
  let shown = try #require(try Documentation.output(named: "state-mismatch"))
  let expected: String = shown.lines.joined(separator: "\n")
  #expect(reported == [expected], "update the block in \(shown.path)")
}

/// Collects the failures: the guide shows their messages, which is what this checks.
@MainActor
@Test func theEndOfTestFailuresInTheTestingGuideAreTheOnesTestStoreReports() async throws {
  let failures = LockedState<[TestFailure]>([])
  do {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) { Stopwatch() } withDependencies: {
      $0.continuousClock = clock
    }
    store.failureReporter = .collecting { failure in failures.withLock { $0.append(failure) } }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
  }
  let reported = failures.withLock { $0 }.map(\.message)
  let unreceived = try #require(try Documentation.output(named: "unreceived-action"))
  let running = try #require(try Documentation.output(named: "effect-still-running"))
  let shown: [String] = [unreceived.lines, running.lines].map { $0.joined(separator: "\n") }
  #expect(reported == shown, "update the blocks in \(unreceived.path)")
}

// snippet: fact-listener
/// Facts as a server announces them.
struct FactUpdates: Sendable {
  var stream: @Sendable () -> AsyncStream<String>
}

extension FactUpdates: DependencyKey {
  // A real one listens to a server.
  static let liveValue = FactUpdates { AsyncStream { $0.finish() } }
}

extension DependencyValues {
  var factUpdates: FactUpdates {
    get { self[FactUpdates.self] }
    set { self[FactUpdates.self] = newValue }
  }
}

/// Lists the facts as they arrive.
struct FactListener: Reducer {
  struct State: Equatable { var facts: [String] = [] }
  enum Action: Sendable, Equatable { case onAppear, factReceived(String) }
  @Dependency(\.factUpdates) var factUpdates

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { [factUpdates] send in
        for await fact in factUpdates.stream() { await send(.factReceived(fact)) }
      }
    case .factReceived(let fact):
      state.facts.append(fact)
      return .none
    }
  }
}
// snippet: end

// snippet: test-stream
@MainActor
@Test func factsArriveAsTheTestYieldsThem() async {
  let updates = TestStream<String>()
  let store = TestStore(initialState: FactListener.State()) { FactListener() } withDependencies: {
    $0.factUpdates.stream = { updates.stream }
  }
  await store.send(.onAppear)
  updates.yield("1 is a number.")
  await store.receive(.factReceived("1 is a number.")) { $0.facts = ["1 is a number."] }
  updates.finish()
  await store.finish()
}
// snippet: end
