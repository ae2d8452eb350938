// The snippets of Docs/ReducersAndComposition.md. `Counter` is the tour's (README.swift).

// snippet: app
import Loom
// snippet: hide
import LoomTesting
import Testing
// snippet: show

struct App: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    var detail: Detail.State?
    var rows: IdentifiedArrayOf<Row.State> = []
  }
  enum Action: Sendable {
    case counter(Counter.Action)
    case detail(Detail.Action)
    case rows(IdentifiedActionOf<Row>)
    case showDetail
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .counter) { Counter() }
    Reduce { state, action in
      switch action {
      case .showDetail:
        state.detail = Detail.State()
        return .none
      case .counter, .detail, .rows:
        return .none
      }
    }
    .ifLet(\.detail, action: .detail) { Detail() }
    .forEach(\.rows, action: .rows) { Row() }
  }
}
// snippet: end

// snippet: case-paths
extension CasePath where Root == App.Action {
  static var counter: CasePath<Root, Counter.Action> { .init(Root.counter) { if case .counter(let a) = $0 { a } else { nil } } }
  static var detail: CasePath<Root, Detail.Action> { .init(Root.detail) { if case .detail(let a) = $0 { a } else { nil } } }
  static var rows: CasePath<Root, IdentifiedActionOf<Row>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}
// snippet: end

// snippet: children
struct Detail: Reducer {
  struct State: Equatable { var text = "" }
  enum Action: Sendable, Equatable { case textChanged(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .textChanged(let text):
      state.text = text
      return .none
    }
  }
}

struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var isDone = false
  }
  enum Action: Sendable, Equatable { case toggled }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isDone.toggle()
    return .none
  }
}
// snippet: end

// snippet: case-path-chains
extension CasePath where Root == Detail.Action {
  static var textChanged: CasePath<Root, String> { .init(Root.textChanged) { if case .textChanged(let t) = $0 { t } else { nil } } }
}
// snippet: end

@MainActor
@Test func casePathsChain() {
  // snippet: case-path-chain-use
  let text: CasePath<App.Action, String> = .detail.textChanged
  let typed = text.extract(from: .detail(.textChanged("hello")))   // "hello"
  // snippet: end
  #expect(typed == "hello")
  #expect(text.extract(from: .showDetail) == nil)
  guard case .detail(.textChanged("hi")) = text.embed("hi") else {
    Issue.record("embedded in the wrong case")
    return
  }
}

@MainActor
@Test func theComposedAppRunsEachChildOnItsPart() async {
  let store = Store(initialState: App.State(rows: [Row.State(id: 1), Row.State(id: 2)])) { App() }
  store.send(.counter(.incrementTapped))
  store.send(.showDetail)
  store.send(.detail(.textChanged("hello")))
  store.send(.rows(.element(id: 2, action: .toggled)))
  #expect(store.state.counter.count == 1)
  #expect(store.state.detail?.text == "hello")
  #expect(store.state.rows.map(\.isDone) == [false, true])
}

// snippet: bindings
struct Settings: Reducer {
  struct State: Equatable {
    var displayName = ""
    var notificationsOn = true
    var hasChanges = false
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case saveTapped

    var binding: BindingAction<State>? { if case .binding(let action) = self { action } else { nil } }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.displayName), .binding(\.notificationsOn):
        state.hasChanges = true
        return .none
      case .binding:
        return .none
      case .saveTapped:
        state.hasChanges = false
        return .none
      }
    }
  }
}
// snippet: end

// snippet: bindings-test
@MainActor
@Test func aFormFieldIsABindingAction() async {
  let store = TestStore(initialState: Settings.State()) { Settings() }
  await store.send(.binding(.set(\.displayName, "Ada"))) {
    $0.displayName = "Ada"
    $0.hasChanges = true
  }
  await store.send(.set(\.notificationsOn, false)) { $0.notificationsOn = false }
  await store.send(.saveTapped) { $0.hasChanges = false }
}
// snippet: end

@MainActor
@Test func aStoreFieldWrittenSendsItsBindingAction() {
  let store = Store(initialState: Settings.State()) { Settings() }
  // snippet: bindings-store
  store.displayName = "Ada"        // sends .binding(.set(\.displayName, "Ada"))
  let name = store.displayName     // reads store.state.displayName
  // snippet: end
  #expect(name == "Ada")
  #expect(store.state.hasChanges)
}

#if canImport(SwiftUI)
  import SwiftUI
#endif

// snippet: bindings-view
struct SettingsView: View {
  @Bindable var store: StoreOf<Settings>

  var body: some View {
    Form {
      TextField("Name", text: $store.displayName)
      Toggle("Notifications", isOn: $store.notificationsOn)
      Button("Save") { store.send(.saveTapped) }
    }
  }
}
// snippet: end
