import Loom

/// The W1 reducer: `.increment` adds one and returns no effect.
struct CounterFeature: Reducer {
  struct State { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    }
  }
}

@MainActor
func runW0(scale: Int) {
  let count = 1_000_000 / scale
  let reducer = CounterFeature()
  var state = CounterFeature.State()
  let duration = median {
    for _ in 0..<count { blackHole(reducer.reduce(into: &state, action: .increment)) }
  }
  blackHole(state.count)
  print("W0 baseline: \(figure(duration.nanoseconds / Double(count))) ns/action")
}

@MainActor
func runW1(scale: Int) {
  let count = 1_000_000 / scale
  let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
  let duration = median {
    for _ in 0..<count { store.send(.increment) }
  }
  blackHole(store.state.count)
  print("W1 send-throughput: \(figure(duration.nanoseconds / Double(count))) ns/action")
}
