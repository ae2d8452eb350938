import Loom

/// W11 (b): a navigation stack of N elements receives element actions to ids picked by a
/// fixed-seed generator. (a) presented children and (c) present/dismiss cycles wait for
/// presentation state, which Loom does not have yet.
struct StackedScreen: Reducer {
  struct State { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

struct StackFeature: Reducer {
  struct State { var path = StackState<StackedScreen.State>() }
  enum Action: Sendable { case path(StackActionOf<StackedScreen>) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: .path) { StackedScreen() }
  }
}

extension CasePath where Root == StackFeature.Action {
  static var path: CasePath<Root, StackActionOf<StackedScreen>> {
    .init(Root.path) { if case .path(let action) = $0 { action } else { nil } }
  }
}

@MainActor
func runW11(scale: Int) {
  let count = 100_000 / scale
  for size in [10, 1_000] {
    var state = StackFeature.State()
    for _ in 0..<size { state.path.append(StackedScreen.State()) }
    let store = Store(initialState: state) { StackFeature() }
    var generator = SeededRandomNumberGenerator(seed: 11)  // every run picks the same ids
    let ids = store.state.path.ids
    let actions = (0..<count).map { _ in
      StackFeature.Action.path(
        .element(id: ids[Int.random(in: 0..<size, using: &generator)], action: .increment))
    }
    let duration = median {
      for action in actions { store.send(action) }
    }
    report("W11", "stack-element n=\(size)", duration.nanoseconds / Double(count), "ns/action")
  }
}
