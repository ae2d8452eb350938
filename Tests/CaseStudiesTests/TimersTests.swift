import Loom
import LoomTesting
import Testing

@testable import CaseStudies

@MainActor
struct TimersTests {
  @Test func theTimerTicksUntilStopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State()) { Timers() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 3 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
    await clock.advance(by: .seconds(5))   // stopped: no tick arrives, nothing is left running
  }

  @Test func leavingTheScreenStopsTheTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State()) { Timers() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.onDisappear) { $0.isTimerActive = false }
    await clock.advance(by: .seconds(5))
  }
}
