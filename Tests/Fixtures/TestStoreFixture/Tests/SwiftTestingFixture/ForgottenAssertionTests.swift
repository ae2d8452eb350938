import FixtureFeature
import Loom
import LoomTesting
import Testing

// `RealRunnerTests` runs these with `swift test`: a test whose name ends in "Fails" must fail,
// once, at the line marked "fails here", with the message the runner test expects; every other
// test must pass.

@MainActor
struct ForgottenAssertionTests {
  @Test func aCompleteTestPasses() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.factTapped)
    await store.receive(.factLoaded("1 is a good number.")) { $0.fact = "1 is a good number." }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 2 }
    // The timer is cancelled here and may still be unwinding when the test ends: it must not
    // count as running.
    await store.send(.stopTimer) { $0.isTimerOn = false }
  }

  @Test func aCompleteTestThatCallsFinishPasses() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.factTapped)
    await store.receive(.factLoaded("0 is a good number.")) { $0.fact = "0 is a good number." }
    await store.finish()
  }

  @Test func aForgottenReceiveFails() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }  // fails here
    await store.send(.factTapped)
  }

  @Test func aForgottenReceiveFailsAtFinish() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.factTapped)
    await store.finish()  // fails here
  }

  @Test func anEffectLeftRunningFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }  // fails here
  }

  @Test func aWrongStateFails() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementTapped) { $0.count = 2 }  // fails here
  }
}
