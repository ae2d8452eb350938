import Loom
import LoomTesting
import Testing

/// A parent that answers the end of one presentation with the next: the child's `.dismiss`
/// shows the next child, the alert's "OK" a second alert.
struct Relay: Reducer {
  struct Child: Reducer {
    struct State: Equatable, Identifiable {
      let id: Int
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

  struct State: Equatable {
    @Presents var child: Child.State?
    @Presents var alert: AlertState<Action.Alert>?
  }
  enum Action: Sendable, Equatable {
    case child(PresentationAction<Child.Action>)
    case alert(PresentationAction<Alert>)
    case showAlert

    enum Alert: Sendable, Equatable { case ok }
  }

  static let first = AlertState<Action.Alert>(
    title: "Save?", buttons: [ButtonState(action: .ok, label: "OK")])
  static let second = AlertState<Action.Alert>(title: "Saved.")

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child(.dismiss):
        if let child = state.child { state.child = Child.State(id: child.id + 1) }
      case .alert(.presented(.ok)):
        state.alert = Self.second
      case .showAlert:
        state.alert = Self.first
      case .child, .alert:
        break
      }
      return .none
    }
    .ifLet(\.$child, action: .child) { Child() }
    .ifLet(\.$alert, action: .alert)
  }
}

extension CasePath where Root == Relay.Action {
  static var child: CasePath<Root, PresentationAction<Relay.Child.Action>> { .init(Root.child) { if case .child(let a) = $0 { a } else { nil } } }
  static var alert: CasePath<Root, PresentationAction<Relay.Action.Alert>> { .init(Root.alert) { if case .alert(let a) = $0 { a } else { nil } } }
}

/// A node that presents a node of its own type, as deep as the person goes: `@Presents` of the
/// type that holds it.
struct Node: Reducer {
  struct State: Equatable {
    var depth = 0
    var ticks = 0
    @Presents var child: State?
  }
  indirect enum Action: Sendable, Equatable {
    case child(PresentationAction<Action>)
    case openTapped, start, tick
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .openTapped:
        state.child = State(depth: state.depth + 1)
        return .none
      case .start:
        return .everySecond(on: clock, send: .tick)
      case .tick:
        state.ticks += 1
        return .none
      case .child:
        return .none
      }
    }
    .ifLet(\.$child, action: .child) { Node() }
  }
}

extension CasePath where Root == Node.Action {
  static var child: CasePath<Root, PresentationAction<Node.Action>> { .init(Root.child) { if case .child(let a) = $0 { a } else { nil } } }
}

@MainActor
struct PresentationFollowUpTests {
  @Test func aChildThePresentedOneIsReplacedWithOnItsDismissStaysAndTheOldOnesEffectsStop()
    async
  {
    let clock = TestClock()
    var state = Relay.State()
    state.child = Relay.Child.State(id: 1)
    let store = TestStore(initialState: state) { Relay() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.child(.presented(.start)))
    await store.send(.child(.dismiss)) { $0.child = Relay.Child.State(id: 2) }
    await clock.advance(by: .seconds(3))
    await store.send(.child(.dismiss)) { $0.child = Relay.Child.State(id: 3) }
  }

  @Test func anAlertsButtonCanShowTheNextAlert() async {
    let store = TestStore(initialState: Relay.State()) { Relay() }
    await store.send(.showAlert) { $0.alert = Relay.first }
    await store.send(.alert(.presented(.ok))) { $0.alert = Relay.second }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func anAlertRunWithAReducerOfItsOwnEndsAfterItsButtonToo() async {
    let store = TestStore(initialState: Relay.State()) {
      Reduce<Relay.State, Relay.Action> { state, action in
        if case .showAlert = action { state.alert = Relay.second }
        return .none
      }
      .ifLet(\.$alert, action: .alert) { EmptyReducer() }
    }
    await store.send(.showAlert) { $0.alert = Relay.second }
    await store.send(.alert(.presented(.ok))) { $0.alert = nil }
  }

  @Test func alertsMadeApartAreOtherPresentationsYetEqualByTheirContent() {
    let copy = Relay.first
    let remade = AlertState<Relay.Action.Alert>(
      title: "Save?", buttons: [ButtonState(action: .ok, label: "OK")])
    #expect(copy.id == Relay.first.id)
    #expect(remade.id != Relay.first.id)
    #expect(remade == Relay.first)
    #expect(Set([remade, Relay.first]).count == 1)
  }

  @Test func aNodePresentsItsOwnTypeAndDismissingItStopsEverythingBelow() async {
    let clock = TestClock()
    let store = TestStore(initialState: Node.State()) { Node() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.openTapped) { $0.child = Node.State(depth: 1) }
    await store.send(.child(.presented(.openTapped))) { $0.child?.child = Node.State(depth: 2) }
    await store.send(.child(.presented(.child(.presented(.start)))))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.presented(.child(.presented(.tick))))) {
      $0.child?.child?.ticks = 1
    }
    await store.send(.child(.dismiss)) { $0.child = nil }
    await clock.advance(by: .seconds(3))
  }
}

struct PresentationDumpTests {
  @Test func aPresentationIsDumpedUnderItsPropertysNameWithItsValue() {
    var state = Relay.State()
    state.alert = Relay.second
    #expect(
      loomDump(state) == """
        Relay.State(
          child: nil,
          alert: AlertState<Relay.Action.Alert>(
            title: "Saved.",
            message: nil,
            buttons: []
          )
        )
        """)
  }
}

/// A destination that is a feature or an alert: the alert's buttons end it, as they do an
/// alert presented alone.
struct Shelf: Reducer {
  struct Destination: Reducer {
    enum State: Equatable {
      case detail(Relay.Child.State)
      case alert(AlertState<Shelf.Action.Alert>)
    }
    enum Action: Sendable, Equatable {
      case detail(Relay.Child.Action)
      case alert(Shelf.Action.Alert)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer().ifCaseLet(.detail, action: .detail) { Relay.Child() }
    }
  }

  struct State: Equatable {
    var books = ["A", "B"]
    @Presents var destination: Destination.State?
  }
  enum Action: Sendable, Equatable {
    case destination(PresentationAction<Destination.Action>)
    case deleteTapped, openTapped

    enum Alert: Sendable, Equatable { case confirmDeletion }
  }

  static let deletion = AlertState<Action.Alert>(
    title: "Delete?", buttons: [ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete")])

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteTapped: state.destination = .alert(Self.deletion)
      case .openTapped: state.destination = .detail(Relay.Child.State(id: 1))
      case .destination(.presented(.alert(.confirmDeletion))): state.books = []
      case .destination: break
      }
      return .none
    }
    .ifLet(\.$destination, action: .destination) { Destination() }
  }
}

extension CasePath where Root == Shelf.Action {
  static var destination: CasePath<Root, PresentationAction<Shelf.Destination.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Shelf.Destination.State {
  static var detail: CasePath<Root, Relay.Child.State> { .init(Root.detail) { if case .detail(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Shelf.Destination.Action {
  static var detail: CasePath<Root, Relay.Child.Action> { .init(Root.detail) { if case .detail(let a) = $0 { a } else { nil } } }
}

@MainActor
struct DestinationAlertTests {
  @Test func anAlertCaseOfADestinationEndsAfterItsButton() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await store.send(.deleteTapped) { $0.destination = .alert(Shelf.deletion) }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
      $0.books = []
      $0.destination = nil
    }
  }

  @Test func aFeatureCaseOfTheSameDestinationStaysAfterItsActions() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await store.send(.openTapped) { $0.destination = .detail(Relay.Child.State(id: 1)) }
    await store.send(.destination(.presented(.detail(.tick)))) {
      $0.destination = .detail(Relay.Child.State(id: 1, ticks: 1))
    }
  }

  @Test func onlyEnumsAndOptionalsAreEnumTypes() {
    #expect(isEnumType(Shelf.Destination.State.self))
    #expect(isEnumType(Int?.self))
    #expect(!isEnumType(Shelf.State.self))
    #expect(!isEnumType(Int.self))
    #expect(!isEnumType(String.self))
    #expect(!isEnumType(TestClock.self))
    #expect(!isEnumType((Int, Int).self))
  }
}
