// The doc-comment snippets of Sources/Loom/CasePaths. `Counter` is README's.

import Loom
import LoomTesting
import Testing

// snippet: CasePath
enum AppAction {
  case counter(Counter.Action)
  case refresh
}

extension CasePath where Root == AppAction {
  static var counter: CasePath<Root, Counter.Action> { .init(Root.counter) { if case .counter(let a) = $0 { a } else { nil } } }
}

// snippet: hide
struct CasePathDocsApp: Reducer {
  struct State: Equatable { var counter = Counter.State() }
  typealias Action = AppAction
  var body: some ReducerOf<Self> {
// snippet: show
Scope(state: \.counter, action: .counter) { Counter() }
// snippet: hide
  }
}
// snippet: end

// snippet: CasePath.refresh
extension CasePath where Root == AppAction, Value == Void {
  static var refresh: Self { Self(.refresh) { if case .refresh = $0 { () } else { nil } } }
}
// snippet: end

enum AccountAction { case settings(SettingsAction) }
enum SettingsAction { case row(Row.Action) }

extension CasePath where Root == AccountAction, Value == SettingsAction {
  static var settings: Self { Self(AccountAction.settings) { if case .settings(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == SettingsAction, Value == Row.Action {
  static var row: Self { Self(SettingsAction.row) { if case .row(let a) = $0 { a } else { nil } } }
}

extension CasePath where Root == Counter.Action {
  static var incrementTapped: CasePath<Root, Void> { .init(.incrementTapped) { if case .incrementTapped = $0 { () } else { nil } } }
}

struct CasePathDocTests {
  @MainActor
  @Test func casePathsChainWithDots() async {
    let clock = TestClock()
    let store = TestStore(initialState: CasePathDocsApp.State()) { CasePathDocsApp() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.counter(.delayedIncrementTapped))
    await clock.advance(by: .seconds(1))
    // snippet: CasePath.dynamicMember
    await store.receive(.counter.incrementTapped) { $0.counter.count = 1 }
    // snippet: end
    #expect(store.state.counter.count == 1)
    let chain: CasePath<AppAction, Void> = .counter.incrementTapped
    guard case .counter(.incrementTapped) = chain.embed(()) else {
      Issue.record("embedded in the wrong case")
      return
    }
    #expect(chain.extract(from: .counter(.delayedIncrementTapped)) == nil)
    #expect(chain.extract(from: .refresh) == nil)
  }

  @Test func aCasePathEmbedsAndExtracts() {
    // snippet: CasePath.init
    let path = CasePath(AppAction.counter) { if case .counter(let a) = $0 { a } else { nil } }
    // snippet: end
    #expect(path.extract(from: path.embed(.incrementTapped)) == .incrementTapped)
    #expect(path.extract(from: .refresh) == nil)
  }

  @Test func appendedCasePathsReachIntoNestedActions() {
    // snippet: CasePath.appending
    let settings: CasePath<AccountAction, SettingsAction> = .settings
    let settingsRow = settings.appending(.row)   // CasePath<AccountAction, Row.Action>
    // snippet: end
    let deep: CasePath<AccountAction, Row.Action> = settingsRow
    guard case .settings(.row(.toggled)) = deep.embed(.toggled) else {
      Issue.record("embedded in the wrong case")
      return
    }
    #expect(deep.extract(from: .settings(.row(.toggled))) == .toggled)
  }

  @Test func aVoidCasePathMatchesItsCase() {
    let refresh = CasePath<AppAction, Void>.refresh
    #expect(refresh.extract(from: .refresh) != nil)
    #expect(refresh.extract(from: .counter(.incrementTapped)) == nil)
  }

  @MainActor
  @Test func aScopeUsesTheCasePath() {
    let store = Store(initialState: CasePathDocsApp.State()) { CasePathDocsApp() }
    store.send(.counter(.incrementTapped))
    #expect(store.state.counter.count == 1)
  }
}
