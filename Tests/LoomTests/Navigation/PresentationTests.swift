import Foundation
import Loom
import LoomTesting
import Testing

/// A host presenting one of two destinations, each a ticking timer that can close itself or
/// switch to the other destination.
struct Host: Reducer {
  struct Ticker: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Sendable, Equatable { case start, tick, closeTapped, switchTapped }
    @Dependency(\.continuousClock) var clock
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .everySecond(on: clock, send: .tick)
      case .tick:
        state.ticks += 1
        return .none
      case .closeTapped:
        return .run { _ in await dismiss() }
      case .switchTapped:
        return .none
      }
    }
  }

  struct Destination: Reducer {
    enum State: Equatable { case a(Ticker.State), b(Ticker.State) }
    enum Action: Sendable, Equatable { case a(Ticker.Action), b(Ticker.Action) }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        // The child switches its own case.
        if case .a(.switchTapped) = action { state = .b(Ticker.State()) }
        return .none
      }
      .ifCaseLet(.a, action: .a) { Ticker() }
      .ifCaseLet(.b, action: .b) { Ticker() }
    }
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
  }
  enum Action: Sendable, Equatable {
    case destination(PresentationAction<Destination.Action>)
    case presentA, presentB, dismissTapped, resetA
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .presentA: state.destination = .a(Ticker.State())
      case .presentB: state.destination = .b(Ticker.State())
      case .dismissTapped: state.destination = nil
      case .resetA: state.destination = .a(Ticker.State(ticks: 100))
      case .destination: break
      }
      return .none
    }
    .ifLet(\.$destination, action: .destination) { Destination() }
  }
}

/// An ancestor that ends the host's presentation itself.
struct HostParent: Reducer {
  struct State: Equatable { var host = Host.State() }
  enum Action: Sendable, Equatable { case host(Host.Action), closeEverything, switchToB }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeEverything: state.host.destination = nil
      case .switchToB: state.host.destination = .b(Host.Ticker.State())
      case .host: break
      }
      return .none
    }
    Scope(state: \.host, action: .host) { Host() }
  }
}

extension CasePath where Root == Host.Action {
  static var destination: CasePath<Root, PresentationAction<Host.Destination.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Host.Destination.State {
  static var a: CasePath<Root, Host.Ticker.State> { .init(Root.a) { if case .a(let s) = $0 { s } else { nil } } }
  static var b: CasePath<Root, Host.Ticker.State> { .init(Root.b) { if case .b(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Host.Destination.Action {
  static var a: CasePath<Root, Host.Ticker.Action> { .init(Root.a) { if case .a(let a) = $0 { a } else { nil } } }
  static var b: CasePath<Root, Host.Ticker.Action> { .init(Root.b) { if case .b(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == HostParent.Action {
  static var host: CasePath<Root, Host.Action> { .init(Root.host) { if case .host(let a) = $0 { a } else { nil } } }
}

@MainActor
struct PresentationTests {
  func hostStore(_ clock: TestClock) -> TestStoreOf<Host> {
    TestStore(initialState: Host.State()) { Host() } withDependencies: {
      $0.continuousClock = clock
    }
  }

  /// Presents `.a` and starts its timer, which ticks once.
  func presentTickingA(_ store: TestStoreOf<Host>, _ clock: TestClock) async {
    await store.send(.presentA) { $0.destination = .a(Host.Ticker.State()) }
    await store.send(.destination(.presented(.a(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.a(.tick)))) {
      $0.destination = .a(Host.Ticker.State(ticks: 1))
    }
  }

  @Test func theParentSettingNilCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = hostStore(clock)
    await presentTickingA(store, clock)
    await store.send(.dismissTapped) { $0.destination = nil }
    await clock.advance(by: .seconds(5))
  }

  @Test func theChildDismissingItselfCancelsItsEffects() async {
    let clock = TestClock()
    let store = hostStore(clock)
    await presentTickingA(store, clock)
    await store.send(.destination(.presented(.a(.closeTapped))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(5))
  }

  @Test func replacingItWithAnotherCaseCancelsTheOldOnesEffects() async {
    let clock = TestClock()
    let store = hostStore(clock)
    await presentTickingA(store, clock)
    await store.send(.presentB) { $0.destination = .b(Host.Ticker.State()) }
    await clock.advance(by: .seconds(5))
    await store.send(.dismissTapped) { $0.destination = nil }
  }

  @Test func theChildSwitchingItsOwnCaseCancelsTheOldCasesEffects() async {
    let clock = TestClock()
    let store = hostStore(clock)
    await presentTickingA(store, clock)
    await store.send(.destination(.presented(.a(.switchTapped)))) {
      $0.destination = .b(Host.Ticker.State())
    }
    await clock.advance(by: .seconds(5))
    await store.send(.dismissTapped) { $0.destination = nil }
  }

  @Test func changingThePresentedValueKeepsItsEffects() async {
    let clock = TestClock()
    let store = hostStore(clock)
    await presentTickingA(store, clock)
    // The same case: the same presentation, its timer goes on.
    await store.send(.resetA) { $0.destination = .a(Host.Ticker.State(ticks: 100)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.a(.tick)))) {
      $0.destination = .a(Host.Ticker.State(ticks: 101))
    }
    await store.send(.dismissTapped) { $0.destination = nil }
  }

  @Test func anAncestorEndingItCancelsItsEffectsAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: HostParent.State()) { HostParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.host(.presentA)) { $0.host.destination = .a(Host.Ticker.State()) }
    await store.send(.host(.destination(.presented(.a(.start)))))
    await store.send(.closeEverything) { $0.host.destination = nil }
    // The host's reducer never saw the change; the timer stopped with the action all the same.
    await clock.advance(by: .seconds(5))
    await store.send(.host(.dismissTapped))
  }

  @Test func anAncestorSwitchingItsCaseCancelsTheOldCasesEffectsAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: HostParent.State()) { HostParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.host(.presentA)) { $0.host.destination = .a(Host.Ticker.State()) }
    await store.send(.host(.destination(.presented(.a(.start)))))
    await clock.advance(by: .seconds(1))
    await store.receive(.host(.destination(.presented(.a(.tick))))) {
      $0.host.destination = .a(Host.Ticker.State(ticks: 1))
    }
    // Another case, set by the ancestor: the host's reducer never saw the change, and a's
    // timer stopped with the action.
    await store.send(.switchToB) { $0.host.destination = .b(Host.Ticker.State()) }
    await clock.advance(by: .seconds(5))
    await store.send(.host(.dismissTapped)) { $0.host.destination = nil }
  }

  @Test func aChildActionWithNothingPresentedIsReportedAndChangesNothing() {
    let reports = LockedState<[String]>([])
    let store = Store(initialState: Host.State()) { Host() } withDependencies: {
      $0.issueReporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
    }
    store.send(.destination(.presented(.a(.tick))))
    store.send(.destination(.dismiss))
    #expect(store.state == Host.State())
    let messages = reports.withLock { $0 }
    #expect(messages.count == 1)
    #expect(messages.first?.contains(".tick") == true)
  }

  @Test func presentationStatesAreEqualByTheirValues() {
    let first = PresentationState(wrappedValue: 1)
    var second = PresentationState<Int>(wrappedValue: nil)
    second.wrappedValue = 1
    #expect(first == second)
    #expect(first != PresentationState(wrappedValue: 2))
  }

  @Test func aCopyTakenBeforeAChildActionKeepsItsValuesAtEveryLevel() {
    let original = Chain.State(count: 0, child: .init(count: 10, child: .init(count: 20)))
    let store = Store(initialState: original) { Chain() }
    let deepest = Chain.Action.child(.presented(.child(.presented(.increment))))

    store.send(deepest)
    let copy = store.state
    store.send(deepest)
    store.send(.child(.presented(.increment)))

    #expect(copy == Chain.State(count: 0, child: .init(count: 10, child: .init(count: 21))))
    #expect(
      store.state == Chain.State(count: 0, child: .init(count: 11, child: .init(count: 22))))
  }
}

/// A feature that presents one of its own kind: a chain of presentations as deep as its state.
private struct Chain: Reducer {
  struct State: Equatable {
    var count = 0
    @Presents var child: State?
  }
  indirect enum Action: Sendable { case increment, child(PresentationAction<Action>) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Reduce<State, Action> { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(
      \.$child,
      action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
    ) { Chain() }
    .reduce(into: &state, action: action)
  }
}

/// A destination whose cases are told apart by the presentation alone: its effects are the
/// destination's own, not a case's (no `ifCaseLet`).
struct Switcher: Reducer {
  struct Destination: Reducer {
    enum State: Equatable { case a(ticks: Int), b(ticks: Int) }
    enum Action: Sendable, Equatable { case start, tick }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .everySecond(on: clock, send: .tick)
      case .tick:
        if case .a(let ticks) = state { state = .a(ticks: ticks + 1) }
        return .none
      }
    }
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
  }
  enum Action: Sendable, Equatable {
    case destination(PresentationAction<Destination.Action>)
    case show(Destination.State)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .show(let destination) = action { state.destination = destination }
      return .none
    }
    .ifLet(\.$destination, action: .destination) { Destination() }
  }
}

extension CasePath where Root == Switcher.Action {
  static var destination: CasePath<Root, PresentationAction<Switcher.Destination.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}

@MainActor
struct PresentationIdentityTests {
  @Test func anotherCaseIsAnotherPresentationAndTheSameCaseIsTheSame() async {
    let clock = TestClock()
    let store = TestStore(initialState: Switcher.State()) { Switcher() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.show(.a(ticks: 0))) { $0.destination = .a(ticks: 0) }
    await store.send(.destination(.presented(.start)))
    // The same case, another value: the same presentation, whose timer goes on.
    await store.send(.show(.a(ticks: 10))) { $0.destination = .a(ticks: 10) }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.tick))) { $0.destination = .a(ticks: 11) }
    // Another case: another presentation, and the old one's timer stops.
    await store.send(.show(.b(ticks: 0))) { $0.destination = .b(ticks: 0) }
    await clock.advance(by: .seconds(5))
  }
}
