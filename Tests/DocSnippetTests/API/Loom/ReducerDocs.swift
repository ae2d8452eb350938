// The doc-comment snippets of Sources/Loom/Reducer. `Counter` is README's unless a namespace
// declares its own; `App`, `Row` and `Detail` are the composition guide's.

import Foundation
import Loom
import LoomTesting
import Testing

enum ReducerDocs {
  // snippet: Reducer
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case incrementTapped, decrementTapped }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped: state.count += 1
      case .decrementTapped: state.count -= 1
      }
      return .none
    }
  }
  // snippet: end

  @MainActor
  @Test static func aReducerChangesItsState() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementTapped)
    store.send(.incrementTapped)
    store.send(.decrementTapped)
    #expect(store.state.count == 1)
  }
}

/// A parent of README's `Counter`, over the case paths of CasePathDocs.swift.
struct BodyDocs: Reducer {
  typealias State = CasePathDocsApp.State
  typealias Action = AppAction

  // snippet: Reducer.body
  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .counter) { Counter() }
    Reduce { state, action in
      .none
    }
  }
  // snippet: end

  @MainActor
  @Test static func aBodyRunsItsReducers() {
    let store = Store(initialState: State()) { BodyDocs() }
    store.send(.counter(.incrementTapped))
    #expect(store.state.counter.count == 1)
  }
}

/// Counts the actions it sees.
struct Logger: Reducer {
  struct State: Equatable { var counter = Counter.State(); var logged = 0 }
  typealias Action = AppAction
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.logged += 1
    return .none
  }
}

struct BuilderDocs: Reducer {
  typealias State = Logger.State
  typealias Action = AppAction
  var isLoggingEnabled: Bool

  // snippet: ReducerBuilder
  var body: some ReducerOf<Self> {
    Reduce { state, action in .none }
    if isLoggingEnabled {
      Logger()
    }
  }
  // snippet: end

  @MainActor
  @Test static func anIfInABodyIncludesAReducerOnlyWhenTrue() {
    let logging = Store(initialState: State()) { BuilderDocs(isLoggingEnabled: true) }
    logging.send(.refresh)
    #expect(logging.state.logged == 1)
    let quiet = Store(initialState: State()) { BuilderDocs(isLoggingEnabled: false) }
    quiet.send(.refresh)
    #expect(quiet.state.logged == 0)
  }
}

struct Sidebar: Reducer {
  struct State: Equatable { var selection: Int? }
  enum Action: Sendable, Equatable { case selected(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .selected(let id):
      state.selection = id
      return .none
    }
  }
}

struct Split: Reducer {
  struct State: Equatable { var sidebar = Sidebar.State() }
  enum Action: Sendable, Equatable { case sidebar(Sidebar.Action), selectionChanged }

  // snippet: CombineReducers
  var body: some ReducerOf<Self> {
    CombineReducers {
      Scope(state: \.sidebar, action: .sidebar) { Sidebar() }
      Reduce { state, action in .none }
    }
    .onChange(of: \.sidebar.selection) { _, _ in Reduce { _, _ in .send(.selectionChanged) } }
  }
  // snippet: end

  @MainActor
  @Test static func aModifierAppliesToTheCombinedReducers() async {
    let store = TestStore(initialState: State()) { Split() }
    await store.send(.sidebar(.selected(2))) { $0.sidebar.selection = 2 }
    await store.receive(.selectionChanged)
    await store.send(.sidebar(.selected(2)))
  }
}

extension CasePath where Root == Split.Action, Value == Sidebar.Action {
  static var sidebar: Self { Self(Split.Action.sidebar) { if case .sidebar(let a) = $0 { a } else { nil } } }
}

/// Hosts the dependency guide's `Feature` with its own dependencies.
struct PreviewHost: Reducer {
  struct State: Equatable { var preview = Feature.State() }
  enum Action: Sendable, Equatable { case preview(Feature.Action) }

  // snippet: Reducer.dependency
  var body: some ReducerOf<Self> {
    Scope(state: \.preview, action: .preview) {
      Feature().dependency(\.uuid, .incrementing)
    }
  }
  // snippet: end

  @MainActor
  @Test static func aSubtreeGetsItsOwnDependencies() async {
    let store = TestStore(initialState: State()) { PreviewHost() } withDependencies: {
      $0.apiClient.fetch = { "item \($0)" }
    }
    await store.send(.preview(.fetchTapped(1)))
    await store.receive(.preview(.fetched(1, "item 1"))) { $0.preview.items = [UUID(0): "item 1"] }
  }

  @MainActor
  @Test static func dependenciesChangesSeveralAtOnce() async {
    // snippet: Reducer.dependencies
    let reducer = Feature().dependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) }
    // snippet: end
    let store = TestStore(initialState: Feature.State()) { reducer } withDependencies: {
      $0.uuid = .incrementing
      $0.apiClient.fetch = { "item \($0)" }
    }
    await store.send(.fetchTapped(2))
    await store.receive(.fetched(2, "item 2")) { $0.items = [UUID(0): "item 2"] }
  }
}

extension CasePath where Root == PreviewHost.Action, Value == Feature.Action {
  static var preview: Self { Self(PreviewHost.Action.preview) { if case .preview(let a) = $0 { a } else { nil } } }
}

struct Blank: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case tapped }
  // snippet: EmptyReducer
  var body: some ReducerOf<Self> {
    EmptyReducer()
  }
  // snippet: end

  @MainActor
  @Test static func anEmptyReducerDoesNothing() async {
    let store = TestStore(initialState: State()) { Blank() }
    await store.send(.tapped)
  }
}

struct RowList: Reducer {
  typealias State = App.State
  typealias Action = App.Action
  // snippet: Reducer.forEach
  var body: some ReducerOf<Self> {
    Reduce { state, action in .none }
      .forEach(\.rows, action: .rows) { Row() }
  }
  // snippet: end

  @MainActor
  @Test static func eachRowRunsByID() async {
    let store = Store(initialState: State(rows: [Row.State(id: 1), Row.State(id: 2)])) { RowList() }
    store.send(.rows(.element(id: 2, action: .toggled)))
    #expect(store.state.rows.map(\.isDone) == [false, true])
  }
}

enum IdentifiedActionDocs {
  struct Rows: Reducer {
    struct State { var rows: IdentifiedArrayOf<Row.State> = [] }
    // snippet: IdentifiedAction
    enum Action: Sendable {
      case rows(IdentifiedActionOf<Row>)
    }

    // snippet: hide
    var body: some ReducerOf<Self> {
      EmptyReducer()
    }
  }
  @MainActor
  @Test static func anIdentifiedActionNamesItsElement() {
    let store = Store(initialState: Rows.State()) { Rows() }
    let row = Row.State(id: 2)
    // snippet: show
    store.send(.rows(.element(id: row.id, action: .toggled)))
    // snippet: end
    #expect(store.state.rows.isEmpty)
  }
}

struct Login: Reducer {
  struct State: Equatable { var name = "" }
  enum Action: Sendable, Equatable { case loggedIn }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

struct Home: Reducer {
  struct State: Equatable { var visits = 0 }
  enum Action: Sendable, Equatable { case visited }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.visits += 1
    return .none
  }
}

struct Session: Reducer {
  // snippet: Reducer.ifCaseLet
  enum State { case loggedOut(Login.State), loggedIn(Home.State) }

  // snippet: hide
  enum Action: Sendable { case login(Login.Action), home(Home.Action) }
  // snippet: show
  var body: some ReducerOf<Self> {
    Reduce { state, action in .none }
      .ifCaseLet(.loggedIn, action: .home) { Home() }
  }
  // snippet: end

  @MainActor
  @Test static func theChildRunsInItsCase() {
    let store = Store(initialState: State.loggedIn(Home.State())) { Session() }
    store.send(.home(.visited))
    guard case .loggedIn(let home) = store.state else {
      Issue.record("left the logged-in case")
      return
    }
    #expect(home.visits == 1)
  }
}

extension CasePath where Root == Session.State, Value == Home.State {
  static var loggedIn: Self { Self(Session.State.loggedIn) { if case .loggedIn(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Session.Action, Value == Home.Action {
  static var home: Self { Self(Session.Action.home) { if case .home(let a) = $0 { a } else { nil } } }
}

struct DetailHost: Reducer {
  struct State: Equatable { var detail: Detail.State? }
  enum Action: Sendable, Equatable { case showDetail, detail(Detail.Action) }

  // snippet: Reducer.ifLet
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showDetail: state.detail = Detail.State(); return .none
      case .detail: return .none
      }
    }
    .ifLet(\.detail, action: .detail) { Detail() }
  }
  // snippet: end

  @MainActor
  @Test static func theOptionalChildRunsOnceShown() async {
    let store = TestStore(initialState: State()) { DetailHost() }
    await store.send(.showDetail) { $0.detail = Detail.State() }
    await store.send(.detail(.textChanged("hi"))) { $0.detail?.text = "hi" }
  }
}

extension CasePath where Root == DetailHost.Action, Value == Detail.Action {
  static var detail: Self { Self(DetailHost.Action.detail) { if case .detail(let a) = $0 { a } else { nil } } }
}

struct FilterBar: Reducer {
  enum Filter: Equatable, Sendable { case all, unread }
  struct State: Equatable { var filter = Filter.all }
  enum Action: Sendable, Equatable { case filterTapped(Filter), filterChanged(Filter) }

  // snippet: Reducer.onChange
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .filterTapped(let filter) = action { state.filter = filter }
      return .none
    }
    .onChange(of: \.filter) { oldFilter, newFilter in
      Reduce { state, _ in .send(.filterChanged(newFilter)) }
    }
  }
  // snippet: end

  @MainActor
  @Test static func onChangeRunsWhenTheValueChanges() async {
    let store = TestStore(initialState: State()) { FilterBar() }
    await store.send(.filterTapped(.unread)) { $0.filter = .unread }
    await store.receive(.filterChanged(.unread))
    await store.send(.filterTapped(.unread))
  }
}

enum ReduceDocs {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case incrementTapped }
    // snippet: Reduce
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .incrementTapped:
          state.count += 1
          return .none
        }
      }
    }
    // snippet: end
  }

  @MainActor
  @Test static func reduceRunsItsClosure() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementTapped)
    #expect(store.state.count == 1)
  }
}

struct PrintChangesDocs {
  @MainActor
  @Test func printChangesPrintsTheActionAndTheDiff() throws {
    // snippet: Reducer.printChanges
    let store = Store(initialState: Counter.State()) {
      Counter().printChanges()
    }
    store.send(.incrementTapped)
    // received action:
    //   .incrementTapped
    //     Counter.State(
    //   -   count: 0
    //   +   count: 1
    //     )
    // snippet: end
    #expect(store.state.count == 1)

    var printed: [String] = []
    let recorded = Store(initialState: Counter.State()) {
      Counter().printChanges { printed.append($0) }
    }
    recorded.send(.incrementTapped)
    #expect(printed.joined(separator: "\n") == (try commentedOutput(ofSnippet: "Reducer.printChanges")))
  }

  @MainActor
  @Test func reduceWrapsAReducer() {
    // snippet: Reduce.init
    let reducer = Reduce(Counter())
    // snippet: end
    let store = Store(initialState: Counter.State()) { reducer }
    store.send(.incrementTapped)
    #expect(store.state.count == 1)
  }
}

// snippet: Scope
struct Parent: Reducer {
  struct State { var counter = Counter.State() }
  enum Action: Sendable { case counter(Counter.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .counter) { Counter() }
  }
}

extension CasePath where Root == Parent.Action, Value == Counter.Action {
  static var counter: Self { Self(Parent.Action.counter) { if case .counter(let a) = $0 { a } else { nil } } }
}
// snippet: end

@MainActor
@Test func aScopeRunsTheChildOnItsState() {
  let store = Store(initialState: Parent.State()) { Parent() }
  store.send(.counter(.incrementTapped))
  #expect(store.state.counter.count == 1)
}
