// The snippets of README.md's tour. README shows the test as a whole file, in
// GuidePackageFiles.swift; the DocC catalog of LoomTesting shows its body, `tour-test`.

// snippet: tour-feature
import Loom
// snippet: hide
import LoomTesting
import Testing
// snippet: show

struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case incrementTapped, delayedIncrementTapped }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .delayedIncrementTapped:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.incrementTapped)
      }
    }
  }
}
// snippet: hide

@MainActor
@Test func theTourStoreCounts() {
// snippet: show

let store = Store(initialState: Counter.State()) { Counter() }
store.send(.incrementTapped)        // store.state.count == 1
// snippet: hide
  #expect(store.state.count == 1)
}
// snippet: end

@MainActor
@Test func theTourTestAdvancesTime() async {
  // snippet: tour-test
  let clock = TestClock()
  let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.delayedIncrementTapped)
  await clock.advance(by: .seconds(1))
  await store.receive(.incrementTapped) { $0.count = 1 }
  // snippet: end
}
