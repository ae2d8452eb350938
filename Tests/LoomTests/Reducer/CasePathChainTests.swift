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
  static var renamed: CasePath<Root, String> { .init(Root.renamed) { if case .renamed(let n) = $0 { n } else { nil } } }
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
