import Loom

/// W11 (b): a navigation stack of N elements receives element actions to ids picked by a
/// fixed-seed generator.
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

/// W11 (a): a chain of 10 features, each presenting the next (concrete types, as W2's levels
/// are: a key path literal in a generic feature is instantiated at run time on every action).
struct W11Leaf: Reducer {
  struct State: Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

struct W11Level10: Reducer {
  struct State: Sendable { @Presents var child: W11Leaf.State? = W11Leaf.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Leaf.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Leaf() }
  }
}

struct W11Level9: Reducer {
  struct State: Sendable { @Presents var child: W11Level10.State? = W11Level10.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level10.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level10() }
  }
}

struct W11Level8: Reducer {
  struct State: Sendable { @Presents var child: W11Level9.State? = W11Level9.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level9.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level9() }
  }
}

struct W11Level7: Reducer {
  struct State: Sendable { @Presents var child: W11Level8.State? = W11Level8.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level8.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level8() }
  }
}

struct W11Level6: Reducer {
  struct State: Sendable { @Presents var child: W11Level7.State? = W11Level7.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level7.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level7() }
  }
}

struct W11Level5: Reducer {
  struct State: Sendable { @Presents var child: W11Level6.State? = W11Level6.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level6.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level6() }
  }
}

struct W11Level4: Reducer {
  struct State: Sendable { @Presents var child: W11Level5.State? = W11Level5.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level5.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level5() }
  }
}

struct W11Level3: Reducer {
  struct State: Sendable { @Presents var child: W11Level4.State? = W11Level4.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level4.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level4() }
  }
}

struct W11Level2: Reducer {
  struct State: Sendable { @Presents var child: W11Level3.State? = W11Level3.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level3.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level3() }
  }
}

struct W11Level1: Reducer {
  struct State: Sendable { @Presents var child: W11Level2.State? = W11Level2.allPresented }
  enum Action: Sendable { case child(PresentationAction<W11Level2.Action>) }

  static var allPresented: State { State() }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Level2() }
  }
}

extension W11Leaf {
  static var allPresented: State { State() }
}

/// W11 (c): a child that starts one effect running until it is cancelled, presented and
/// dismissed.
struct W11Cycle: Reducer {
  struct Sleeper: Reducer {
    struct State: Sendable {}
    enum Action: Sendable { case start }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      .run { _ in try await clock.sleep(for: .seconds(3_600)) }
    }
  }

  struct State: Sendable {
    @Presents var sleeper: Sleeper.State?
  }
  enum Action: Sendable {
    case sleeper(PresentationAction<Sleeper.Action>)
    case present
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .present = action { state.sleeper = Sleeper.State() }
      return .none
    }
    .ifLet(
      \.$sleeper,
      action: CasePath(Action.sleeper) { if case .sleeper(let action) = $0 { action } else { nil } }
    ) { Sleeper() }
  }
}

/// An action for the leaf, presented 10 levels down.
let w11DeepestAction = W11Level1.Action.child(.presented(.child(.presented(.child(.presented(
  .child(.presented(.child(.presented(.child(.presented(.child(.presented(.child(.presented(
    .child(.presented(.child(.presented(.increment))))))))))))))))))))

@MainActor
func runW11Presentation(scale: Int) async {
  let count = 200_000 / scale
  let chain = Store(initialState: W11Level1.allPresented) { W11Level1() }
  let action = w11DeepestAction
  let perAction = median {
    for _ in 0..<count { chain.send(action) }
  }
  report("W11", "presented depth=10", perAction.nanoseconds / Double(count), "ns/action")

  let cycles = 10_000 / scale
  // A clock that never moves: an effect that is not cancelled never ends.
  let clock = TestClock()
  let store = Store(initialState: W11Cycle.State()) { W11Cycle() } withDependencies: {
    $0.continuousClock = clock
  }
  var effects: [StoreTask] = []
  effects.reserveCapacity(cycles)
  let began = ContinuousClock.now
  for _ in 0..<cycles {
    store.send(.present)
    effects.append(store.send(.sleeper(.presented(.start))))
    store.send(.sleeper(.dismiss))
  }
  let elapsed = ContinuousClock.now - began
  // Cancelled effects end as their tasks next run: give them the main actor a while.
  var running = effects.filter { !$0.isFinished }.count
  for _ in 0..<1_000 where running > 0 {
    await Task.yield()
    running = effects.filter { !$0.isFinished }.count
  }
  report("W11", "present-dismiss cycles=\(cycles)", elapsed.nanoseconds / Double(cycles) / 1_000, "µs/cycle")
  report("W11", "present-dismiss effects-running", Double(running), "effects")
}

/// The gate's W11 (w): a child presented by a feature whose body holds more than six parts (two
/// scoped children beside the presentation). The optimizer takes apart only a body of at most
/// six parts, so here the presentation's key path runs through the run time's key-path code: the
/// gate counts that path too, not only W11 (p)'s, where the key path becomes direct accesses.
struct W11WideParent: Reducer {
  struct State: Sendable {
    var first = W11Leaf.State()
    var second = W11Leaf.State()
    @Presents var child: W11Leaf.State? = W11Leaf.State()
  }
  enum Action: Sendable {
    case first(W11Leaf.Action)
    case second(W11Leaf.Action)
    case child(PresentationAction<W11Leaf.Action>)
  }

  var body: some ReducerOf<Self> {
    Scope(
      state: \.first,
      action: CasePath(Action.first) { if case .first(let action) = $0 { action } else { nil } }
    ) { W11Leaf() }
    Scope(
      state: \.second,
      action: CasePath(Action.second) { if case .second(let action) = $0 { action } else { nil } }
    ) { W11Leaf() }
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Leaf() }
  }
}
