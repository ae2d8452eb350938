// The snippets of Docs/GettingStarted.md.

// snippet: counter-feature
import Loom

struct CounterFeature: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }
  enum Action: Sendable, Equatable {
    case incrementTapped
    case factTapped
    case factLoaded(String)
  }

  @Dependency(\.numberFact) var numberFact

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .factTapped:
      let count = state.count
      return .run { send in
        await send(.factLoaded(try await numberFact(count)))
      } catch: { error, send in
        await send(.factLoaded("No fact today."))
      }
    case .factLoaded(let fact):
      state.fact = fact
      return .none
    }
  }
}
// snippet: end

// snippet: number-fact-dependency
struct NumberFact: Sendable {
  var fetch: @Sendable (Int) async throws -> String
  func callAsFunction(_ number: Int) async throws -> String { try await fetch(number) }
}

private enum NumberFactKey: DependencyKey {
  static let liveValue = NumberFact { "\($0) is a number." }
  static let testValue = NumberFact(fetch: unimplemented("NumberFact.fetch"))
}

extension DependencyValues {
  var numberFact: NumberFact {
    get { self[NumberFactKey.self] }
    set { self[NumberFactKey.self] = newValue }
  }
}
// snippet: end

// The guide's `main.swift` and its test are whole files of the reader's package, in
// GuidePackageFiles.swift; GuidePackageTests builds, runs and tests that package.

import LoomTesting
import Testing

@MainActor
@Test func aFailingFactFallsBackToTheApology() async {
  struct Offline: Error {}
  let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() } withDependencies: {
    $0.numberFact.fetch = { _ in throw Offline() }
  }
  await store.send(.factTapped)
  await store.receive(.factLoaded("No fact today.")) { $0.fact = "No fact today." }
}

/// Collects the failures: the guide shows their messages, which is what this checks.
@MainActor
@Test func theFailuresGettingStartedShowsAreTheOnesTestStoreReports() async throws {
  let failures = LockedState<[String]>([])
  do {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() } withDependencies: {
      $0.numberFact.fetch = { "\($0) is odd." }
    }
    store.failureReporter = .collecting { failure in failures.withLock { $0.append(failure.message) } }
    await store.send(.incrementTapped) { $0.count = 2 }
    await store.send(.factTapped)
    await store.finish()
  }
  let wrongState = try #require(try Documentation.output(named: "getting-started-wrong-state"))
  let forgotten = try #require(try Documentation.output(named: "getting-started-forgotten-receive"))
  let shown: [String] = [wrongState.lines, forgotten.lines].map { $0.joined(separator: "\n") }
  let reported: [String] = failures.withLock { $0 }
  #expect(reported == shown, "update the blocks in \(forgotten.path)")
}
