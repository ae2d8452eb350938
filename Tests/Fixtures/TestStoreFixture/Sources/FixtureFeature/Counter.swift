import Loom

/// A counter with an effect that answers, and a timer that runs until it is stopped.
public struct Counter: Reducer {
  public struct State: Equatable {
    public var count = 0
    public var fact: String?
    public var isTimerOn = false

    public init(count: Int = 0, fact: String? = nil, isTimerOn: Bool = false) {
      self.count = count
      self.fact = fact
      self.isTimerOn = isTimerOn
    }
  }

  public enum Action: Equatable, Sendable {
    case incrementTapped
    case factTapped
    case factLoaded(String)
    case startTimer
    case stopTimer
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .factTapped:
      let count = state.count
      return .run { send in await send(.factLoaded("\(count) is a good number.")) }
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
    }
  }
}
