import Loom
import LoomTesting
import Testing

@MainActor
struct TestStoreTests {
  @Test func sendAssertsTheStateChange() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.noop)
  }

  @Test func receiveAssertsAnActionAnEffectSent() async {
    let store = TestStore(initialState: Counter.State(count: 3)) { Counter() } withDependencies: {
      $0.numberFact.fetch = { "\($0) is odd." }
    }
    await store.send(.factTapped)
    await store.receive(.factLoaded("3 is odd.")) { $0.fact = "3 is odd." }
  }

  @Test func aTimerIsTestedWithATestClockWithoutRealWaiting() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.count = 2 }
    await store.receive(.tick) { $0.count = 3 }
    await store.send(.stopTimer) { $0.isTimerOn = false }
  }

  @Test func sendEffectsAreReceivedInOrder() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.fireTwice)
    await store.receive(.increment) { $0.count = 1 }
    await store.receive(.increment) { $0.count = 2 }
  }

  @Test func receiveByCasePathMatchesAnyPayload() async {
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.numberFact.fetch = { _ in "a fact" }
    }
    await store.send(.factTapped)
    await store.receive(.factLoaded) { $0.fact = "a fact" }
  }

  @Test func receiveWherePredicateMatches() async {
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.numberFact.fetch = { _ in "a fact" }
    }
    await store.send(.factTapped)
    await store.receive(where: { if case .factLoaded = $0 { true } else { false } }) {
      $0.fact = "a fact"
    }
  }

  @Test func nonExhaustiveStoresSkipWhatTheTestDoesNotAssert() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.exhaustivity = .off
    await store.send(.fireTwice)
    await store.receive(.increment)
    await store.send(.increment) { $0.count = 3 }
  }

  @Test func assertChecksTheStateWithoutAnAction() async {
    let store = TestStore(initialState: Counter.State(count: 2)) { Counter() }
    store.assert { $0.count = 2 }
  }

  @Test func dependenciesCanBeChangedMidTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.numberFact.fetch = { _ in "first" }
    }
    await store.send(.factTapped)
    await store.receive(.factLoaded("first")) { $0.fact = "first" }
    store.dependencies.numberFact.fetch = { _ in "second" }
    await store.send(.factTapped)
    await store.receive(.factLoaded("second")) { $0.fact = "second" }
  }

  @Test func twoThousandSendReceiveStepsRunWithoutWaiting() async {
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.numberFact.fetch = { "\($0)" }
    }
    for step in 0..<2_000 {
      await store.send(.factTapped)
      await store.receive(.factLoaded("0"), assert: step == 0 ? { $0.fact = "0" } : nil)
    }
  }
}

extension CasePath where Root == Counter.Action, Value == String {
  static var factLoaded: Self {
    Self(Counter.Action.factLoaded) { if case .factLoaded(let fact) = $0 { fact } else { nil } }
  }
}
