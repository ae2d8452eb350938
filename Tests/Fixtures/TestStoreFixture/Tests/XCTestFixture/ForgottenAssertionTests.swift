import FixtureFeature
import Loom
import LoomTesting
import XCTest

// `RealRunnerTests` runs these with `swift test`: a test whose name ends in "Fails" must fail,
// once, at the line marked "fails here", with the message the runner test expects; every other
// test must pass.

@MainActor
final class ForgottenAssertionTests: XCTestCase {
  func testACompleteTestPasses() async {
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
    await store.send(.stopTimer) { $0.isTimerOn = false }
  }

  func testACompleteTestThatCallsFinishPasses() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.factTapped)
    await store.receive(.factLoaded("0 is a good number.")) { $0.fact = "0 is a good number." }
    await store.finish()
  }

  func testAForgottenReceiveFails() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }  // fails here
    await store.send(.factTapped)
  }

  func testAForgottenReceiveFailsAtFinish() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.factTapped)
    await store.finish()  // fails here
  }

  func testAnEffectLeftRunningFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }  // fails here
  }

  func testAWrongStateFails() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementTapped) { $0.count = 2 }  // fails here
  }
}
