import Foundation
import Loom
import LoomTesting
import Testing

/// A ticking child, which its parents hold in every way a parent can: presented, optional, as a
/// row, on a stack, as an enum case.
struct Tick: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }
  enum Action: Sendable, Equatable { case start, tick }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .everySecond(on: clock, send: .tick)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// A parent holding five ticking children, one per composition tool.
struct Keeper: Reducer {
  enum Mode: Equatable { case ticking(Tick.State), idle }
  enum ModeAction: Sendable, Equatable { case ticking(Tick.Action) }

  struct State: Equatable {
    @Presents var sheet: Tick.State?
    var optional: Tick.State?
    var rows: IdentifiedArrayOf<Tick.State> = []
    var path = StackState<Tick.State>()
    var mode = Mode.idle
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<Tick.Action>)
    case optional(Tick.Action)
    case rows(IdentifiedAction<Int, Tick.Action>)
    case path(StackActionOf<Tick>)
    case mode(ModeAction)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: .mode) {
      EmptyReducer().ifCaseLet(.ticking, action: .ticking) { Tick() }
    }
    EmptyReducer()
      .ifLet(\.$sheet, action: .sheet) { Tick() }
      .ifLet(\.optional, action: .optional) { Tick() }
      .forEach(\.rows, action: .rows) { Tick() }
      .forEach(\.path, action: .path) { Tick() }
  }
}

/// An ancestor that changes what its child (the keeper) holds itself: the keeper's reducers never
/// see these actions.
struct KeeperParent: Reducer {
  struct State: Equatable { var keeper = Keeper.State() }
  enum Action: Sendable, Equatable {
    case keeper(Keeper.Action)
    case setKeeper(Keeper.State)
    case presentSheet(Tick.State)
    case dropEverything
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setKeeper(let keeper): state.keeper = keeper
      case .presentSheet(let sheet): state.keeper.sheet = sheet
      case .dropEverything: state.keeper = Keeper.State()
      case .keeper: break
      }
      return .none
    }
    Scope(state: \.keeper, action: .keeper) { Keeper() }
  }
}

extension CasePath where Root == Keeper.Mode {
  static var ticking: CasePath<Root, Tick.State> { .init(Root.ticking) { if case .ticking(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Keeper.ModeAction {
  static var ticking: CasePath<Root, Tick.Action> { .init(Root.ticking) { if case .ticking(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Keeper.Action {
  static var sheet: CasePath<Root, PresentationAction<Tick.Action>> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
  static var optional: CasePath<Root, Tick.Action> { .init(Root.optional) { if case .optional(let a) = $0 { a } else { nil } } }
  static var rows: CasePath<Root, IdentifiedAction<Int, Tick.Action>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
  static var path: CasePath<Root, StackActionOf<Tick>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
  static var mode: CasePath<Root, Keeper.ModeAction> { .init(Root.mode) { if case .mode(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == KeeperParent.Action {
  static var keeper: CasePath<Root, Keeper.Action> { .init(Root.keeper) { if case .keeper(let a) = $0 { a } else { nil } } }
}

/// A child's effects end with the child, whoever ends it: here an ancestor, through a parent of
/// the reducer that runs the child. Each test is exhaustive: a timer left running, or a tick
/// received and not asserted, fails it.
@MainActor
struct AncestorCancellationTests {
  let clock = TestClock()

  func store(_ keeper: Keeper.State = Keeper.State()) -> TestStoreOf<KeeperParent> {
    TestStore(initialState: KeeperParent.State(keeper: keeper)) { KeeperParent() } withDependencies: {
      [clock] in $0.continuousClock = clock
    }
  }

  /// Every child there but rows (see `anAncestorRemovingARowStopsItsEffectsAtItsNextAction`),
  /// each ticking once.
  func startEveryTimer(_ store: TestStoreOf<KeeperParent>) async {
    await store.send(.keeper(.sheet(.presented(.start))))
    await store.send(.keeper(.optional(.start)))
    await store.send(.keeper(.path(.element(id: 0, action: .start))))
    await store.send(.keeper(.mode(.ticking(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.keeper(.sheet(.presented(.tick)))) { $0.keeper.sheet?.ticks = 1 }
    await store.receive(.keeper(.optional(.tick))) { $0.keeper.optional?.ticks = 1 }
    await store.receive(.keeper(.path(.element(id: 0, action: .tick)))) {
      $0.keeper.path[id: 0]?.ticks = 1
    }
    await store.receive(.keeper(.mode(.ticking(.tick)))) {
      $0.keeper.mode = .ticking(Tick.State(ticks: 1))
    }
  }

  var everything: Keeper.State {
    var keeper = Keeper.State()
    keeper.sheet = Tick.State()
    keeper.optional = Tick.State()
    keeper.rows = [Tick.State(id: 1), Tick.State(id: 2)]  // idle: no effects
    keeper.path.append(Tick.State())
    keeper.mode = .ticking(Tick.State())
    return keeper
  }

  @Test func anAncestorDroppingEveryChildCancelsEveryEffectAtOnce() async {
    let store = store(everything)
    await startEveryTimer(store)
    await store.send(.dropEverything) { $0.keeper = Keeper.State() }
    // Not one more tick: the timers stopped with the action that ended their children.
    await clock.advance(by: .seconds(5))
  }

  @Test func anAncestorEndingEachChildCancelsThatChildsEffectsOnly() async {
    let store = store(everything)
    await startEveryTimer(store)
    var keeper = store.state.keeper
    keeper.sheet = nil
    keeper.optional = nil
    keeper.path.removeAll()
    keeper.mode = .idle
    await store.send(.setKeeper(keeper)) { $0.keeper = keeper }
    await clock.advance(by: .seconds(5))
  }

  @Test func aChildAnAncestorKeepsKeepsItsEffects() async {
    let store = store(everything)
    await startEveryTimer(store)
    // The same children, changed: each is the same child, and its timer goes on.
    var keeper = store.state.keeper
    keeper.sheet?.ticks = 10
    await store.send(.setKeeper(keeper)) { $0.keeper = keeper }
    await clock.advance(by: .seconds(1))
    await store.receive(.keeper(.sheet(.presented(.tick)))) { $0.keeper.sheet?.ticks = 11 }
    await store.receive(.keeper(.optional(.tick))) { $0.keeper.optional?.ticks = 2 }
    await store.receive(.keeper(.path(.element(id: 0, action: .tick)))) {
      $0.keeper.path[id: 0]?.ticks = 2
    }
    await store.receive(.keeper(.mode(.ticking(.tick)))) {
      $0.keeper.mode = .ticking(Tick.State(ticks: 2))
    }
    await store.send(.dropEverything) { $0.keeper = Keeper.State() }
  }

  @Test func aPresentationAnAncestorReplacesEndsAndTheNewOneRuns() async {
    var keeper = Keeper.State()
    keeper.sheet = Tick.State(id: 1)
    let store = store(keeper)
    await store.send(.keeper(.sheet(.presented(.start))))
    // Another identity, set in place: another presentation, whose first action is its own.
    await store.send(.presentSheet(Tick.State(id: 2))) { $0.keeper.sheet = Tick.State(id: 2) }
    await clock.advance(by: .seconds(1))
    await store.send(.keeper(.sheet(.presented(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.keeper(.sheet(.presented(.tick)))) { $0.keeper.sheet?.ticks = 1 }
    await store.send(.keeper(.sheet(.dismiss))) { $0.keeper.sheet = nil }
  }

  @Test func aStackAnAncestorMakesAnewEndsTheOldElementsThoughItsIDsComeAgain() async {
    var keeper = Keeper.State()
    keeper.path.append(Tick.State(id: 1))
    let store = store(keeper)
    await store.send(.keeper(.path(.element(id: 0, action: .start))))
    // The new stack's element 0 is another element: the old one's timer stops.
    var replaced = Keeper.State()
    replaced.path.append(Tick.State(id: 2))
    await store.send(.setKeeper(replaced)) { $0.keeper = replaced }
    await clock.advance(by: .seconds(1))
    await store.send(.keeper(.path(.element(id: 0, action: .start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.keeper(.path(.element(id: 0, action: .tick)))) {
      $0.keeper.path[id: 0]?.ticks = 1
    }
    await store.send(.keeper(.path(.popFrom(id: 0)))) { $0.keeper.path.removeAll() }
  }

  @Test func anAncestorRemovingARowStopsItsEffectsAtItsNextAction() async {
    // Rows are not checked after each action (a list may hold thousands with effects): the
    // row's `forEach` stops a removed row's effects when their next action reaches it.
    let issues = IssueLog()
    var keeper = Keeper.State()
    keeper.rows = [Tick.State(id: 1), Tick.State(id: 2)]
    let store = Store(initialState: KeeperParent.State(keeper: keeper)) {
      KeeperParent()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.issueReporter = issues.reporter
    }
    store.send(.keeper(.rows(.element(id: 1, action: .start))))
    await clock.advance(by: .seconds(1))
    #expect(store.state.keeper.rows[id: 1]?.ticks == 1)
    keeper.rows.remove(id: 1)
    store.send(.setKeeper(keeper))
    await clock.advance(by: .seconds(5))
    // The first tick after the row left is reported, and stopped the timer.
    #expect(issues.messages.value.count == 1)
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func anActionAChildQueuedIsDroppedWhenAnAncestorEndsTheChildFirst() async {
    var root = PingRoot.State()
    root.host.sheet = Pinger.State(id: 1)
    let store = TestStore(initialState: root) { PingRoot() }
    // Sheet 1 queues `.pong`; in the same action the ancestor presents sheet 2. The queued
    // action was sheet 1's: it must not reach sheet 2 (an exhaustive store fails on it).
    await store.send(.host(.sheet(.presented(.ping)))) { $0.host.sheet = Pinger.State(id: 2) }
  }
}

/// A child that answers `ping` with a `.send(.pong)`.
struct Pinger: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var pongs = 0
  }
  enum Action: Sendable, Equatable { case ping, pong }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .send(.pong)
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

/// A host presenting a pinger, under an ancestor that presents another one when the first pings.
struct PingRoot: Reducer {
  struct Host: Reducer {
    struct State: Equatable { @Presents var sheet: Pinger.State? }
    enum Action: Sendable, Equatable { case sheet(PresentationAction<Pinger.Action>) }

    var body: some ReducerOf<Self> {
      EmptyReducer().ifLet(\.$sheet, action: .sheet) { Pinger() }
    }
  }

  struct State: Equatable { var host = Host.State() }
  enum Action: Sendable, Equatable { case host(Host.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.host, action: .host) { Host() }
    Reduce { state, action in
      if case .host(.sheet(.presented(.ping))) = action { state.host.sheet = Pinger.State(id: 2) }
      return .none
    }
  }
}

extension CasePath where Root == PingRoot.Host.Action {
  static var sheet: CasePath<Root, PresentationAction<Pinger.Action>> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == PingRoot.Action {
  static var host: CasePath<Root, PingRoot.Host.Action> { .init(Root.host) { if case .host(let a) = $0 { a } else { nil } } }
}
