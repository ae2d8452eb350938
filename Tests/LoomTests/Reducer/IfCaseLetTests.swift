import Foundation
import Loom
import LoomTesting
import Testing

struct Session: Reducer {
  enum State: Equatable {
    case loggedOut
    case loggedIn(Sleeper.State)
  }
  enum Action: Sendable, Equatable {
    case logIn, logOut
    case home(Sleeper.Action)
  }
  let events: Locked<[String]>

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .logIn: state = .loggedIn(Sleeper.State())
      case .logOut: state = .loggedOut
      case .home: break
      }
      return .none
    }
    .ifCaseLet(
      CasePath(State.loggedIn) { if case .loggedIn(let home) = $0 { home } else { nil } },
      action: CasePath(Action.home) { if case .home(let action) = $0 { action } else { nil } }
    ) {
      Sleeper(events: events)
    }
  }
}

/// A mode whose ticking case an ancestor leaves by setting the state itself.
struct ModeParent: Reducer {
  struct Mode: Reducer {
    enum State: Equatable { case ticking(Host.Ticker.State), idle }
    enum Action: Sendable, Equatable { case ticking(Host.Ticker.Action) }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(
          CasePath(State.ticking) { if case .ticking(let s) = $0 { s } else { nil } },
          action: CasePath(Action.ticking) { if case .ticking(let a) = $0 { a } else { nil } }
        ) { Host.Ticker() }
    }
  }

  struct State: Equatable { var mode = Mode.State.ticking(Host.Ticker.State()) }
  enum Action: Sendable, Equatable { case mode(Mode.Action), stop }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .stop = action { state.mode = .idle }
      return .none
    }
    Scope(
      state: \.mode,
      action: CasePath(Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
    ) { Mode() }
  }
}

/// `ModeParent` embedding its mode by hand, with no `Scope`: the store cannot walk to the mode
/// from the root's state, so the `ifCaseLet` itself stops what an ancestor left running.
struct MappedModeParent: Reducer {
  struct State: Equatable { var mode = ModeParent.Mode.State.ticking(Host.Ticker.State()) }
  enum Action: Sendable, Equatable { case mode(ModeParent.Mode.Action), stop }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stop:
      state.mode = .idle
      return .none
    case .mode(let action):
      return ModeParent.Mode().reduce(into: &state.mode, action: action).map(Action.mode)
    }
  }
}

@MainActor
struct IfCaseLetTests {
  @Test func aCaseLeftBehindAnEmbeddingByHandStopsItsEffectsAtTheirNextAction() async {
    let clock = TestClock()
    let issues = IssueLog()
    let store = Store(initialState: MappedModeParent.State()) { MappedModeParent() } withDependencies: {
      $0.continuousClock = clock
      $0.issueReporter = issues.reporter
    }
    store.send(.mode(.ticking(.start)))
    await clock.advance(by: .seconds(1))
    store.send(.stop)
    await clock.advance(by: .seconds(5))
    // The first tick after the case was left is reported, and stopped the timer.
    #expect(issues.messages.value.count == 1)
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func aCaseAnAncestorLeftHasItsEffectsCancelledAtOnce() async {
    let clock = TestClock()
    let issues = IssueLog()
    let store = Store(initialState: ModeParent.State()) { ModeParent() } withDependencies: {
      $0.continuousClock = clock
      $0.issueReporter = issues.reporter
    }
    store.send(.mode(.ticking(.start)))
    await clock.advance(by: .seconds(1))
    #expect(store.state.mode == .ticking(Host.Ticker.State(ticks: 1)))
    store.send(.stop)
    await clock.advance(by: .seconds(5))
    // The timer stopped with the action that left the case: no tick reached the `ifCaseLet`.
    #expect(issues.messages.value.isEmpty)
    #expect(store.state.mode == .idle)
  }

  @Test func theChildRunsInItsCaseAndItsEffectsAreCancelledWhenTheCaseChanges() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Session.State.loggedOut) { Session(events: events) }
    store.send(.logIn)
    store.send(.home(.woke(1)))
    #expect(store.state == .loggedIn(Sleeper.State(received: ["woke 1"])))
    let task = store.send(.home(.start(id: 1)))
    store.send(.logOut)
    await task.finish()
    #expect(events.value == ["cancelled 1"])
  }

  @Test func aChildActionInAnotherCaseIsReported() {
    let issues = IssueLog()
    let store = Store(initialState: Session.State.loggedOut) {
      Session(events: Locked([]))
    } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    store.send(.home(.woke(1)))
    #expect(store.state == .loggedOut)
    #expect(issues.messages.value.first?.contains("ifCaseLet") == true)
  }
}

/// An effect runs with the dependencies of the subtree that returned it.
struct Stamper: Reducer {
  struct State: Equatable { var stamp: UUID? }
  enum Action: Sendable, Equatable { case stamp, stamped(UUID) }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      return .run { send in
        @Dependency(\.uuid) var uuid
        await send(.stamped(uuid()))
      }
    case .stamped(let id):
      state.stamp = id
      return .none
    }
  }
}

@MainActor
struct EffectDependencyTests {
  @Test func effectsSeeTheDependencyOverridesOfTheirSubtree() async {
    let fixed = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000000") ?? UUID()
    let store = Store(initialState: Stamper.State()) {
      Stamper().dependency(\.uuid, .constant(fixed))
    }
    await store.send(.stamp).finish()
    #expect(store.state.stamp == fixed)
  }

  @Test func effectsSeeTheStoresDependencies() async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.stamp)
    await store.receive(.stamped(UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID())) {
      $0.stamp = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
    }
  }
}
