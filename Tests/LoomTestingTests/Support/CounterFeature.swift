import Loom
import LoomTesting

/// The feature the test store's own tests drive.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isTimerOn = false
  }
  enum Action: Sendable, Equatable {
    case increment
    case noop
    case factTapped
    case factLoaded(String)
    case startTimer
    case stopTimer
    case tick
    case fireTwice
    case failing
    case chainStart, chainMiddle, chainEnd, startTimerLater, relay(Int), startTwoTicks
  }
  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.numberFact) var numberFact

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .factTapped:
      let count = state.count
      return .run { send in await send(.factLoaded(try await numberFact(count))) }
    case .factLoaded(let fact):
      state.fact = fact
      return .none
    case .startTimer:
      state.isTimerOn = true
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      state.isTimerOn = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    case .fireTwice:
      return .merge(.send(.increment), .send(.increment))
    case .failing:
      return .run { _ in throw Boom() }
    case .chainStart:
      return .run { send in await send(.chainMiddle) }
    case .chainMiddle:
      return .run { send in await send(.chainEnd) }
    case .chainEnd:
      return .none
    case .startTimerLater:
      return .run { send in await send(.startTimer) }
    case .relay(let remaining):
      return remaining == 0 ? .none : .send(.relay(remaining - 1))
    case .startTwoTicks:
      let tick = Effect<Action>.run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
      return .concatenate(tick, tick)
    }
  }
}

struct Boom: Error {}

/// A number-fact client for tests.
struct NumberFact: Sendable {
  var fetch: @Sendable (Int) async throws -> String
  func callAsFunction(_ number: Int) async throws -> String { try await fetch(number) }
}

private enum NumberFactKey: DependencyKey {
  static let liveValue = NumberFact { "\($0) is a number." }
}

extension DependencyValues {
  var numberFact: NumberFact {
    get { self[NumberFactKey.self] }
    set { self[NumberFactKey.self] = newValue }
  }
}

/// Collects the failures a test store reports, instead of failing the test.
final class FailureLog: Sendable {
  private let failures = LockedState<[TestFailure]>([])

  var messages: [String] { failures.withLock { $0.map(\.message) } }

  var reporter: TestFailureReporter {
    .collecting { failure in self.failures.withLock { $0.append(failure) } }
  }
}
