import Loom
import LoomTesting
import Testing

/// An `ifLet` or `ifCaseLet` over an `Identifiable` child ends the child's effects when a child
/// of another `id` takes its place, as when it leaves (as TCA's do), whoever puts it there: the
/// store sees it after the action. The same `id` changed keeps them.
@MainActor
struct ChildIdentityTests {
  @Test func anotherIDInTheCaseEndsTheReplacedChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: CaseHolder.State.timer(Timed.State(id: 1))) {
      CaseHolder()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timer(.start))
    await store.send(.replace(2)) { $0 = .timer(Timed.State(id: 2)) }
    await clock.advance(by: .seconds(2))
    // The new child's effects are its own: they run until it is replaced.
    await store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0 = .timer(Timed.State(id: 2, ticks: 1)) }
    await store.send(.replace(3)) { $0 = .timer(Timed.State(id: 3)) }
    await clock.advance(by: .seconds(2))
  }

  @Test func theSameIDChangedInTheCaseKeepsTheChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: CaseHolder.State.timer(Timed.State(id: 1))) {
      CaseHolder()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timer(.start))
    await store.send(.reset) { $0 = .timer(Timed.State(id: 1, ticks: 100)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0 = .timer(Timed.State(id: 1, ticks: 101)) }
    await store.send(.leave) { $0 = .none }
    await clock.advance(by: .seconds(1))
  }

  @Test func anotherIDInTheOptionalEndsTheReplacedChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: OptionalHolder.State(timer: Timed.State(id: 1))) {
      OptionalHolder()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timer(.start))
    await store.send(.replace(2)) { $0.timer = Timed.State(id: 2) }
    await clock.advance(by: .seconds(2))
    await store.send(.reset) { $0.timer = Timed.State(id: 2, ticks: 100) }
    await store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer = Timed.State(id: 2, ticks: 101) }
    await store.send(.leave) { $0.timer = nil }
    await clock.advance(by: .seconds(1))
  }

  /// An ancestor replaces the child through a `Scope`: the reducer that runs the child never
  /// sees the action, and the store ends the replaced child's effects after it.
  @Test func anAncestorsReplacementEndsTheReplacedChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Ancestor.State(
        holder: OptionalHolder.State(timer: Timed.State(id: 1)),
        cases: .timer(Timed.State(id: 1)))
    ) {
      Ancestor()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.holder(.timer(.start)))
    await store.send(.cases(.timer(.start)))
    await store.send(.replaceBoth(2)) {
      $0.holder.timer = Timed.State(id: 2)
      $0.cases = .timer(Timed.State(id: 2))
    }
    await clock.advance(by: .seconds(2))
  }
}

/// A child that ticks once a second once started.
private struct Timed: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
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

/// Holds a `Timed` child in a case.
private struct CaseHolder: Reducer {
  enum State: Equatable { case timer(Timed.State), none }
  enum Action: Sendable, Equatable { case timer(Timed.Action), replace(Int), reset, leave }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .replace(let id): state = .timer(Timed.State(id: id))
      case .reset: if case .timer(let timer) = state { state = .timer(.init(id: timer.id, ticks: 100)) }
      case .leave: state = .none
      case .timer: break
      }
      return .none
    }
    .ifCaseLet(.timer, action: .timer) { Timed() }
  }
}

/// Holds an optional `Timed` child.
private struct OptionalHolder: Reducer {
  struct State: Equatable { var timer: Timed.State? }
  enum Action: Sendable, Equatable { case timer(Timed.Action), replace(Int), reset, leave }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .replace(let id): state.timer = Timed.State(id: id)
      case .reset: state.timer?.ticks = 100
      case .leave: state.timer = nil
      case .timer: break
      }
      return .none
    }
    .ifLet(\.timer, action: .timer) { Timed() }
  }
}

/// Holds both through `Scope`s, and replaces their children itself.
private struct Ancestor: Reducer {
  struct State: Equatable {
    var holder: OptionalHolder.State
    var cases: CaseHolder.State
  }
  enum Action: Sendable, Equatable {
    case holder(OptionalHolder.Action), cases(CaseHolder.Action), replaceBoth(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .replaceBoth(let id) = action {
        state.holder.timer = Timed.State(id: id)
        state.cases = .timer(Timed.State(id: id))
      }
      return .none
    }
    Scope(state: \.holder, action: .holder) { OptionalHolder() }
    Scope(state: \.cases, action: .cases) { CaseHolder() }
  }
}

extension CasePath where Root == CaseHolder.State {
  fileprivate static var timer: CasePath<Root, Timed.State> {
    .init(Root.timer) { if case .timer(let state) = $0 { state } else { nil } }
  }
}

extension CasePath where Root == CaseHolder.Action {
  fileprivate static var timer: CasePath<Root, Timed.Action> {
    .init(Root.timer) { if case .timer(let action) = $0 { action } else { nil } }
  }
}

extension CasePath where Root == OptionalHolder.Action {
  fileprivate static var timer: CasePath<Root, Timed.Action> {
    .init(Root.timer) { if case .timer(let action) = $0 { action } else { nil } }
  }
}

extension CasePath where Root == Ancestor.Action {
  fileprivate static var holder: CasePath<Root, OptionalHolder.Action> {
    .init(Root.holder) { if case .holder(let action) = $0 { action } else { nil } }
  }
  fileprivate static var cases: CasePath<Root, CaseHolder.Action> {
    .init(Root.cases) { if case .cases(let action) = $0 { action } else { nil } }
  }
}
