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

/// W11 (a): a level of a chain in which each feature presents the next.
protocol W11Level: Reducer, Sendable where State: Sendable {
  init()
  /// The state with every level below presented.
  static var allPresented: State { get }
  /// The innermost feature's action, as the root store receives it.
  static var innermostAction: Action { get }
}

struct W11Leaf: W11Level {
  struct State: Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  static var allPresented: State { State() }
  static var innermostAction: Action { .increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

struct W11Presenting<Child: W11Level>: W11Level {
  struct State: Sendable {
    @Presents var child: Child.State?
  }
  enum Action: Sendable { case child(PresentationAction<Child.Action>) }

  static var allPresented: State { State(child: Child.allPresented) }
  static var innermostAction: Action { .child(.presented(Child.innermostAction)) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.$child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { Child() }
  }
}

typealias W11Chain = W11Presenting<
  W11Presenting<
    W11Presenting<
      W11Presenting<
        W11Presenting<
          W11Presenting<W11Presenting<W11Presenting<W11Presenting<W11Presenting<W11Leaf>>>>>
        >
      >
    >
  >
>

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

@MainActor
func runW11Presentation(scale: Int) async {
  let count = 200_000 / scale
  let chain = Store(initialState: W11Chain.allPresented) { W11Chain() }
  let action = W11Chain.innermostAction
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
