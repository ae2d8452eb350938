import Foundation
import Loom
import LoomTesting
import Testing

/// A settings screen with an optional profile editor, inside an app: three levels of actions.
struct ChainedApp: Reducer {
  struct Profile: Reducer {
    struct State: Equatable { var name = "" }
    enum Action: Sendable, Equatable { case rename(String), renamed(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let name):
        return .send(.renamed(name))
      case .renamed(let name):
        state.name = name
        return .none
      }
    }
  }

  struct Settings: Reducer {
    struct State: Equatable { var profile: Profile.State? }
    enum Action: Sendable, Equatable { case profile(Profile.Action), editTapped }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .editTapped = action { state.profile = Profile.State() }
        return .none
      }
    }
  }

  struct State: Equatable { var settings = Settings.State() }
  enum Action: Sendable, Equatable { case settings(Settings.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.settings, action: .settings) { Settings() }
      // The chain reaches through two cases to the optional child's actions.
      .ifLet(\.settings.profile, action: .settings.profile) { Profile() }
  }
}

extension CasePath where Root == ChainedApp.Action {
  static var settings: CasePath<Root, ChainedApp.Settings.Action> { .init(Root.settings) { if case .settings(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == ChainedApp.Settings.Action {
  static var profile: CasePath<Root, ChainedApp.Profile.Action> { .init(Root.profile) { if case .profile(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == ChainedApp.Profile.Action {
  static var rename: CasePath<Root, String> { .init(Root.rename) { if case .rename(let n) = $0 { n } else { nil } } }
  static var renamed: CasePath<Root, String> { .init(Root.renamed) { if case .renamed(let n) = $0 { n } else { nil } } }
}

/// A list of rows one level down: `forEach` reaches them through a chain.
struct ChainedList: Reducer {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      let id: Int
      var count = 0
    }
    enum Action: Sendable, Equatable { case bump }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Inner: Equatable { var rows: IdentifiedArrayOf<Row.State> = [] }
  enum InnerAction: Sendable, Equatable { case rows(IdentifiedActionOf<Row>) }

  struct State: Equatable { var inner = Inner() }
  enum Action: Sendable, Equatable { case inner(InnerAction) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.inner.rows, action: .inner.rows) { Row() }
  }
}

extension CasePath where Root == ChainedList.Action {
  static var inner: CasePath<Root, ChainedList.InnerAction> { .init(Root.inner) { if case .inner(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == ChainedList.InnerAction {
  static var rows: CasePath<Root, IdentifiedActionOf<ChainedList.Row>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}

@MainActor
struct CasePathChainTests {
  @Test func aChainEmbedsIntoAndExtractsFromEveryLevel() {
    let renamed: CasePath<ChainedApp.Action, String> = .settings.profile.renamed
    #expect(renamed.embed("Ada") == .settings(.profile(.renamed("Ada"))))
    #expect(renamed.extract(from: .settings(.profile(.renamed("Ada")))) == "Ada")
    #expect(renamed.extract(from: .settings(.profile(.rename("Ada")))) == nil)
    #expect(renamed.extract(from: .settings(.editTapped)) == nil)
  }

  @Test func chainsComposeReducersAndNameReceivedActions() async {
    let store = TestStore(initialState: ChainedApp.State()) { ChainedApp() }
    await store.send(.settings(.editTapped)) { $0.settings.profile = ChainedApp.Profile.State() }
    await store.send(.settings(.profile(.rename("Ada"))))
    await store.receive(.settings.profile.renamed) { $0.settings.profile?.name = "Ada" }
  }

  @Test func aChainNamesTheActionAStoreOrATestStoreSends() async {
    let store = Store(initialState: ChainedApp.State()) { ChainedApp() }
    store.send(.settings(.editTapped))
    store.send(.settings.profile.renamed, "Ada")
    #expect(store.state.settings.profile?.name == "Ada")

    let testStore = TestStore(initialState: ChainedApp.State()) { ChainedApp() }
    await testStore.send(.settings(.editTapped)) {
      $0.settings.profile = ChainedApp.Profile.State()
    }
    await testStore.send(.settings.profile.rename, "Grace")
    await testStore.receive(.settings.profile.renamed, "Grace") {
      $0.settings.profile?.name = "Grace"
    }
    await testStore.send(.settings.profile.renamed, "Ada") { $0.settings.profile?.name = "Ada" }
  }

  @Test func forEachRunsRowsAChainReaches() async {
    var state = ChainedList.State()
    state.inner.rows = [ChainedList.Row.State(id: 1), ChainedList.Row.State(id: 2)]
    let store = TestStore(initialState: state) { ChainedList() }
    await store.send(.inner(.rows(.element(id: 2, action: .bump)))) {
      $0.inner.rows[id: 2]?.count = 1
    }
    await store.send(.inner.rows, .element(id: 1, action: .bump)) {
      $0.inner.rows[id: 1]?.count = 1
    }
  }

  @Test func aStoreScopesThroughAChain() {
    let store = Store(initialState: ChainedApp.State()) { ChainedApp() }
    store.send(.settings(.editTapped))
    let settings = store.scope(state: \.settings, action: .settings)
    settings.send(.profile(.renamed("Grace")))
    let profile = store.scope(state: \.settings.profile, action: .settings.profile)
    #expect(profile != nil)
    profile?.send(.renamed("Ada"))
    #expect(store.state.settings.profile?.name == "Ada")
  }
}
