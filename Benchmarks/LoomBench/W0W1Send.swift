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

/// One call of the reducer, kept out of line: once `Effect.none` became inlinable the optimizer
/// folded a loop of inlined calls into one addition, and W0 measured 0.0 ns.
@inline(never)
func reduceOnce(_ reducer: CounterFeature, _ state: inout CounterFeature.State) {
  blackHole(reducer.reduce(into: &state, action: .increment))
}

@MainActor
func runW0(scale: Int) {
  let count = 1_000_000 / scale
  let reducer = CounterFeature()
  var state = CounterFeature.State()
  let duration = median {
    for _ in 0..<count { reduceOnce(reducer, &state) }
  }
  blackHole(state.count)
  report("W0", "baseline", duration.nanoseconds / Double(count), "ns/action")
}

@MainActor
func runW1(scale: Int) {
  let count = 1_000_000 / scale
  let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
  let duration = median {
    for _ in 0..<count { store.send(.increment) }
  }
  blackHole(store.state.count)
  report("W1", "send-throughput", duration.nanoseconds / Double(count), "ns/action")
}

/// The W1s and W1m reducer: actions sent by `.send` effects, in a chain or fanned out by
/// `.merge`.
struct ChainFeature: Reducer {
  struct State {
    var count = 0
    var leaves = 0
  }
  enum Action: Sendable { case count(Int), fan(Int), leaf }
  let limit: Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .count(let n):
      state.count = n
      return n < limit ? .send(.count(n + 1)) : .none
    case .fan(let n):
      return n < limit ? .merge(.send(.leaf), .send(.leaf), .send(.fan(n + 1))) : .none
    case .leaf:
      state.leaves += 1
      return .none
    }
  }
}

@MainActor
func runW1s(scale: Int) {
  for size in [1_000, 10_000, 100_000] {
    let count = size / scale
    let store = Store(initialState: ChainFeature.State()) { ChainFeature(limit: count) }
    let duration = median { store.send(.count(1)) }
    blackHole(store.state.count)
    report("W1s", "effect-sent n=\(size)", duration.nanoseconds / Double(count), "ns/action")
  }
}

@MainActor
func runW1m(scale: Int) {
  // Each `.fan` is processed with the two `.leaf`s it sends: three actions per step.
  let steps = 100_000 / 3 / scale
  let store = Store(initialState: ChainFeature.State()) { ChainFeature(limit: steps) }
  let duration = median { store.send(.fan(0)) }
  blackHole(store.state.leaves)
  report("W1m", "merge-of-sends", duration.nanoseconds / Double(steps * 3), "ns/action")
}
