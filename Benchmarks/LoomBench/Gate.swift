import Foundation
import Loom
import LoomTesting
import Notifications

// The workloads of the instruction-count regression gate (`Benchmarks/callgrind/gate`):
// `loom-bench --gate W1` runs one of them once, at a fixed size, with no warm-up and no
// repetitions, and prints nothing. Each measured part is an `@inline(never)` function whose
// name starts with `loomGateMeasured`, so callgrind can count only it
// (`--toggle-collect='*loomGateMeasured*'`); setup (building the store, the rows, the actions)
// happens outside it. W6 is asynchronous: its steps resume on the main actor's executor, outside
// any one function, so the gate counts the whole process of `--gate W6` minus that of
// `--gate W6-setup` (the same run with no steps). W8 is W8 at a reduced size: its
// effects answer from memory, so each `markAsRead` runs to completion, its effects and the
// `.changeAnswered` they send included, inside its `send`, and the measured function counts them
// all. The sizes are fixed: changing one changes every count, so it needs a new baseline.

/// The ids `--gate` takes.
let gateWorkloads = [
  "W1", "W1s", "W1m", "W3", "W6", "W6-setup", "W8", "W9a", "W9b", "W9f", "W11p", "W11w", "W11s",
  "W11e", "W2d", "W2i", "W2c",
]

@MainActor
func runGate(_ workload: String) async {
  switch workload {
  case "W1":
    let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
    loomGateMeasuredW1(store, count: 100_000)
    expect(store.state.count == 100_000, "W1 counted \(store.state.count) of 100,000 sends")
  case "W1S":
    let count = 20_000
    let store = Store(initialState: ChainFeature.State()) { ChainFeature(limit: count) }
    loomGateMeasuredW1s(store)
    // The chain must run within the one send: counting a chain that finishes later would
    // measure almost nothing and pass.
    expect(store.state.count == count, "W1s reached \(store.state.count) of \(count) in one send")
  case "W1M":
    let steps = 10_000
    let store = Store(initialState: ChainFeature.State()) { ChainFeature(limit: steps) }
    loomGateMeasuredW1m(store)
    expect(
      store.state.leaves == 2 * steps, "W1m counted \(store.state.leaves) leaves of \(2 * steps)")
  case "W3":
    let size = 1_000
    let rows = IdentifiedArray(uniqueElements: (0..<size).map { ToggleRow.State(id: $0) })
    let store = Store(initialState: RowsFeature.State(rows: rows)) { RowsFeature() }
    var generator = SeededRandomNumberGenerator(seed: 42)
    let actions = (0..<50_000).map { _ in
      RowsFeature.Action.rows(
        .element(id: Int.random(in: 0..<size, using: &generator), action: .toggle))
    }
    loomGateMeasuredW3(store, actions)
    var toggles = [Int: Int]()
    for case .rows(.element(let id, _)) in actions { toggles[id, default: 0] += 1 }
    let on = store.state.rows.filter(\.isOn).count
    let expected = toggles.values.filter { $0 % 2 == 1 }.count
    expect(on == expected, "W3 left \(on) rows on, expected \(expected)")
  case "W6":
    await loomGateMeasuredW6(steps: 500)
  case "W6-SETUP":
    await loomGateMeasuredW6(steps: 0)
  case "W8":
    let count = 1_000
    let store = w8ChangeLogFixture(count: count)()
    let ids = (0..<500).map { "n\($0)" }
    let tasks = loomGateMeasuredW8(store, ids)
    // Counting effects that finish after the measured function would measure almost nothing.
    let running = tasks.filter { !$0.isFinished }.count
    expect(running == 0, "W8 left \(running) of \(ids.count) markAsRead with effects running")
    let unread = store.state.shown.unreadCount
    expect(unread == count - ids.count, "W8 left \(unread) unread of \(count - ids.count)")
  case "W9A", "W9B":
    // W9: 1,000 observed row stores and an observed field outside the list; (a) each action
    // changes one row, (b) none changes anything.
    let changes = workload == "W9A"
    let rows = IdentifiedArray(uniqueElements: (0..<1_000).map { ObservedList.Row(id: $0) })
    let store = Store(initialState: ObservedList.State(rows: rows)) { ObservedList() }
    let observers = store.scope(state: \.rows, action: .rows).map { row in
      W9Observer { _ = row.state }
    }
    let outside = W9Observer { _ = store.title }
    var generator = SeededRandomNumberGenerator(seed: 9)
    let actions = (0..<5_000).map { _ in
      ObservedList.Action.rows(
        .element(
          id: Int.random(in: 0..<1_000, using: &generator), action: changes ? .bump : .nothing))
    }
    loomGateMeasuredW9(store, actions)
    let told = observers.reduce(outside.invalidations) { $0 + $1.invalidations }
    expect(told == (changes ? 5_000 : 0), "W9 told observers \(told) times for 5,000 actions")
  case "W9F":
    // W9's floor: 1,000 observed `Observable` objects (no store), one changed per action.
    let models = (0..<1_000).map { _ in W9FloorModel() }
    let observers = models.map { model in W9Observer { _ = model.value } }
    var generator = SeededRandomNumberGenerator(seed: 9)
    let picks = (0..<5_000).map { _ in Int.random(in: 0..<1_000, using: &generator) }
    loomGateMeasuredW9f(models, picks)
    let told = observers.reduce(0) { $0 + $1.invalidations }
    expect(told == 5_000, "W9f told observers \(told) times for 5,000 changes")
  case "W11P":
    let store = Store(initialState: W11Level1.allPresented) { W11Level1() }
    loomGateMeasuredW11p(store, w11DeepestAction, count: 2_000)
    let count = store.state.child?.child?.child?.child?.child?.child?.child?.child?.child?.child?
      .count
    expect(count == 2_000, "W11p counted \(count ?? -1) of 2,000 actions 10 deep")
  case "W11W":
    let store = Store(initialState: W11WideParent.State()) { W11WideParent() }
    loomGateMeasuredW11w(store, count: 20_000)
    let count = store.state.child?.count
    expect(count == 20_000, "W11w counted \(count ?? -1) of 20,000 actions")
  case "W11S":
    var state = StackFeature.State()
    for _ in 0..<1_000 { state.path.append(StackedScreen.State()) }
    let store = Store(initialState: state) { StackFeature() }
    var generator = SeededRandomNumberGenerator(seed: 11)
    let ids = store.state.path.ids
    let actions = (0..<20_000).map { _ in
      StackFeature.Action.path(
        .element(id: ids[Int.random(in: 0..<ids.count, using: &generator)], action: .increment))
    }
    loomGateMeasuredW11s(store, actions)
    let total = store.state.path.reduce(0) { $0 + $1.count }
    expect(total == 20_000, "W11s counted \(total) of 20,000 element actions")
  case "W2D":
    // W2 (d): a child's action, through a `Scope`, whose reducer reads a dependency. The child
    // reducer is made anew in its parent's `body` at each action, its `@Dependency` with it.
    let store = Store(initialState: ReadingParent.State()) { ReadingParent() }
    loomGateMeasuredW2d(store, count: 5_000)
    expect(store.state.child.reads == 5_000, "W2d read \(store.state.child.reads) of 5,000")
  case "W2I":
    // W2 (i): a child's action through an `ifLet` over an optional child's state.
    let store = Store(initialState: OptionalChildParent.State()) { OptionalChildParent() }
    loomGateMeasuredW2i(store, count: 20_000)
    let count = store.state.child?.count
    expect(count == 20_000, "W2i counted \(count ?? -1) of 20,000 actions")
  case "W2C":
    // W2 (c): a child's action through an `ifCaseLet` over an enum state's case.
    let store = Store(initialState: CaseChildParent.State.counting(W11Leaf.State())) {
      CaseChildParent()
    }
    loomGateMeasuredW2c(store, count: 20_000)
    guard case .counting(let child) = store.state else {
      expect(false, "W2c left the case")
      return
    }
    expect(child.count == 20_000, "W2c counted \(child.count) of 20,000 actions")
  case "W11E":
    // W11 (e): actions to a parent while a presented child's effect runs, so that after each
    // one the store checks that the child is still there (its effects end with it, whoever
    // ends it).
    let clock = TestClock()
    let store = Store(initialState: W11Cycle.State()) {
      W11Cycle()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.present)
    let effect = store.send(.sleeper(.presented(.start)))
    loomGateMeasuredW11e(store, count: 5_000)
    // Left running: ending it would resume its task off the main thread, which valgrind does
    // not survive here; the process ends with it.
    expect(!effect.isFinished, "W11e: the presented child's effect ended")
  default:
    FileHandle.standardError.write(
      Data("loom-bench: --gate takes \(gateWorkloads.joined(separator: ", "))\n".utf8))
    exit(2)
  }
}

/// Exits with a failure when a gate workload did not do its work, so the gate never compares
/// the instructions of a run that went wrong.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  FileHandle.standardError.write(Data("loom-bench --gate: \(message())\n".utf8))
  exit(1)
}

@MainActor @inline(never)
func loomGateMeasuredW1(
  _ store: Store<CounterFeature.State, CounterFeature.Action>, count: Int
) {
  for _ in 0..<count { store.send(.increment) }
}

@MainActor @inline(never)
func loomGateMeasuredW1s(_ store: Store<ChainFeature.State, ChainFeature.Action>) {
  store.send(.count(1))
}

@MainActor @inline(never)
func loomGateMeasuredW1m(_ store: Store<ChainFeature.State, ChainFeature.Action>) {
  store.send(.fan(0))
}

@MainActor @inline(never)
func loomGateMeasuredW3(
  _ store: Store<RowsFeature.State, RowsFeature.Action>, _ actions: [RowsFeature.Action]
) {
  for action in actions { store.send(action) }
}

@MainActor @inline(never)
func loomGateMeasuredW9(_ store: StoreOf<ObservedList>, _ actions: [ObservedList.Action]) {
  for action in actions { store.send(action) }
}

@MainActor @inline(never)
func loomGateMeasuredW9f(_ models: [W9FloorModel], _ picks: [Int]) {
  for pick in picks { models[pick].value += 1 }
}

@MainActor @inline(never)
func loomGateMeasuredW11p(
  _ store: Store<W11Level1.State, W11Level1.Action>, _ action: W11Level1.Action, count: Int
) {
  for _ in 0..<count { store.send(action) }
}

@MainActor @inline(never)
func loomGateMeasuredW11w(_ store: Store<W11WideParent.State, W11WideParent.Action>, count: Int) {
  for _ in 0..<count { store.send(.child(.presented(.increment))) }
}

@MainActor @inline(never)
func loomGateMeasuredW11s(
  _ store: Store<StackFeature.State, StackFeature.Action>, _ actions: [StackFeature.Action]
) {
  for action in actions { store.send(action) }
}

@MainActor @inline(never)
func loomGateMeasuredW11e(_ store: Store<W11Cycle.State, W11Cycle.Action>, count: Int) {
  // The same presentation each time (the same identity): its effect goes on.
  for _ in 0..<count { store.send(.present) }
}

@MainActor @inline(never)
func loomGateMeasuredW8(
  _ store: Store<NotificationFeature.State, NotificationFeature.Action>, _ ids: [String]
) -> [StoreTask] {
  ids.map { store.send(.markAsRead($0)) }
}

@MainActor @inline(never)
func loomGateMeasuredW6(steps: Int) async {
  let store = TestStore(initialState: RoundTripFeature.State()) { RoundTripFeature() }
  store.failureReporter = .collecting { failure in
    expect(false, "W6 failed: \(failure)")
  }
  for step in 0..<steps {
    await store.send(.start)
    await store.receive(.done) { $0.done = step + 1 }
  }
}

/// W2 (d)'s child: it reads the clock at each action.
struct ReadingChild: Reducer {
  struct State { var reads = 0 }
  enum Action: Sendable { case read }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    blackHole(clock)
    state.reads += 1
    return .none
  }
}

struct ReadingParent: Reducer {
  struct State { var child = ReadingChild.State() }
  enum Action: Sendable { case child(ReadingChild.Action) }

  var body: some ReducerOf<Self> {
    Scope(
      state: \.child,
      action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
    ) { ReadingChild() }
  }
}

@MainActor @inline(never)
func loomGateMeasuredW2d(_ store: Store<ReadingParent.State, ReadingParent.Action>, count: Int) {
  for _ in 0..<count { store.send(.child(.read)) }
}

/// W2 (i)'s parent: its child's state is optional, run by `ifLet`.
struct OptionalChildParent: Reducer {
  struct State { var child: W11Leaf.State? = W11Leaf.State() }
  enum Action: Sendable { case child(W11Leaf.Action) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(
        \.child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Leaf() }
  }
}

@MainActor @inline(never)
func loomGateMeasuredW2i(
  _ store: Store<OptionalChildParent.State, OptionalChildParent.Action>, count: Int
) {
  for _ in 0..<count { store.send(.child(.increment)) }
}

/// W2 (c)'s parent: its state is an enum, one case of which is its child's, run by
/// `ifCaseLet`.
struct CaseChildParent: Reducer {
  enum State { case counting(W11Leaf.State), idle }
  enum Action: Sendable { case child(W11Leaf.Action) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifCaseLet(
        CasePath(State.counting) { if case .counting(let child) = $0 { child } else { nil } },
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { W11Leaf() }
  }
}

@MainActor @inline(never)
func loomGateMeasuredW2c(
  _ store: Store<CaseChildParent.State, CaseChildParent.Action>, count: Int
) {
  for _ in 0..<count { store.send(.child(.increment)) }
}
