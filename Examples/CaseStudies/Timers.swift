// A timer: "Start" runs an effect that ticks every second on the injected clock, "Stop" (the
// same button) and leaving the screen cancel it. Since the clock is a dependency, a test drives
// time with a `TestClock` and sees exactly the ticks that fit.
import Loom

struct Timers: Reducer {
  struct State: Equatable {
    var isTimerActive = false
    var secondsElapsed = 0
  }
  enum Action: Sendable, Equatable { case onDisappear, timerTicked, toggleTimerButtonTapped }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onDisappear:
      state.isTimerActive = false
      return .cancel(id: CancelID.timer)
    case .timerTicked:
      state.secondsElapsed += 1
      return .none
    case .toggleTimerButtonTapped:
      state.isTimerActive.toggle()
      guard state.isTimerActive else { return .cancel(id: CancelID.timer) }
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.timerTicked)
        }
      }
      .cancellable(id: CancelID.timer)
    }
  }
}
