import Loom
import Testing

/// Stores for an optional child, a presented destination, one case of it, each row, and each
/// element of a stack.
@MainActor
struct PartStoreTests {
  @Test func anOptionalChildsStoreIsThereWhileTheChildIs() {
    let issues = IssueLog()
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    #expect(store.scope(state: \.optional, action: .optional) == nil)
    store.send(.showOptional)
    let child = store.scope(state: \.optional, action: .optional)
    #expect(child != nil)
    #expect(store.scope(state: \.optional, action: .optional) === child)
    child?.send(.woke(1))
    #expect(child?.state.received == ["woke 1"])
    store.send(.hideOptional)
    #expect(store.scope(state: \.optional, action: .optional) == nil)
    // Kept after the child left: it reads the child as it last read it, and what it sends is
    // reported, not a trap.
    #expect(child?.state.received == ["woke 1"])
    child?.send(.woke(2))
    #expect(store.state.optional == nil)
    #expect(issues.messages.value.count == 1)
  }

  @Test func aPresentedDestinationsStoreAndItsCasesStores() {
    let store = Store(initialState: Host.State()) { Host() }
    let nothingPresented = store.scope(state: \.destination, action: .destination)
    #expect(nothingPresented == nil)
    store.send(.presentA)
    let destination = store.scope(state: \.destination, action: .destination)
    let a = destination?.scope(state: .a, action: .a)
    #expect(destination?.scope(state: .b, action: .b) == nil)
    a?.send(.tick)  // sends .destination(.presented(.a(.tick)))
    #expect(store.state.destination == .a(Host.Ticker.State(ticks: 1)))
    #expect(destination?.scope(state: .a, action: .a) === a)
    store.send(.presentB)
    let aAfterB = destination?.scope(state: .a, action: .a)
    #expect(aAfterB == nil)
    let b = destination?.scope(state: .b, action: .b)
    b?.send(.tick)
    #expect(store.state.destination == .b(Host.Ticker.State(ticks: 1)))
    #expect(b !== a)
  }

  /// A case store ends when its case is scoped while the state is another case: the case, when
  /// it comes back, gets a store of its own, and the ended one does not read it. (The case
  /// store was kept, and read the case that came back.)
  @Test func aCaseScopedWhileAnotherIsThereGetsAStoreOfItsOwnWhenItComesBack() {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.presentA)
    let destination = store.scope(state: \.destination, action: .destination)
    let a = destination?.scope(state: .a, action: .a)
    #expect(a?.state.ticks == 0)
    store.send(.destination(.presented(.a(.tick))))
    store.send(.presentB)
    #expect(destination?.scope(state: .a, action: .a) == nil)
    store.send(.presentA)
    let again = store.scope(state: \.destination, action: .destination)?.scope(
      state: .a, action: .a)
    #expect(again != nil && again !== a)
    #expect(again?.state.ticks == 0)
    // The ended store reads its own case as it was last there.
    #expect(a?.state.ticks == 1)
  }

  @Test func eachRowHasAStoreOfItsOwnForAsLongAsItIsThere() {
    let events = Locked<[String]>([])
    var state = Rows.State()
    state.rows = [Rows.Row(id: 1), Rows.Row(id: 2), Rows.Row(id: 3)]
    let store = Store(initialState: state) { Rows(events: events) }
    let rows = store.scope(state: \.rows, action: .rows)
    #expect(rows.map(\.state.id) == [1, 2, 3])
    rows[1].send(.woke(7))
    #expect(store.state.seen == ["2: woke(7)"])
    #expect(store.state.rows[id: 2]?.sleeper.received == ["woke 7"])
    store.send(.remove(2))
    let after = store.scope(state: \.rows, action: .rows)
    #expect(after.map(\.state.id) == [1, 3])
    #expect(after[0] === rows[0] && after[1] === rows[2])
  }

  @Test func aScopeOfAScopeThroughAStoreNobodyKeepsIsCachedToo() {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.presentA)
    func a() -> Store<Host.Ticker.State, Host.Ticker.Action>? {
      store.scope(state: \.destination, action: .destination)?.scope(state: .a, action: .a)
    }
    let first = a()
    #expect(first != nil)
    #expect(a() === first)
  }

  @Test func aKeptStoreOfAPresentationThatWasReplacedEndsAndSendsNothingToTheNewOne() {
    let issues = IssueLog()
    var state = Relay.State()
    state.child = Relay.Child.State(id: 1)
    let store = Store(initialState: state) { Relay() }
    let first = store.scope(state: \.child, action: .child)
    store.send(.child(.dismiss))  // Relay presents child 2 in its place
    let second = store.scope(state: \.child, action: .child)
    #expect(second != nil && second !== first)
    #expect(first?.state.id == 1)
    withDependencies { $0.issueReporter = issues.reporter } operation: {
      _ = first?.send(.tick)
    }
    #expect(store.state.child == Relay.Child.State(id: 2))
    #expect(issues.messages.value.count == 1)
    second?.send(.tick)
    #expect(store.state.child == Relay.Child.State(id: 2, ticks: 1))
  }

  @Test func casesNestedUnderOneCaseHaveStoresOfTheirOwn() {
    let store = Store(initialState: Nested.State.settings(.profile("Ada"))) { Nested() }
    let profile = store.scope(state: .settings.profile, action: .settings.profile)
    #expect(profile?.state == "Ada")
    let noAccount = store.scope(state: .settings.account, action: .settings.account)
    #expect(noAccount == nil)
    store.send(.switchToAccount)
    let account = store.scope(state: .settings.account, action: .settings.account)
    #expect(account != nil && account !== profile)
    #expect(account?.state == "ada@example.com")
    account?.send("grace@example.com")
    #expect(store.state == .settings(.account("grace@example.com")))
  }

  @Test func eachElementOfAStackHasAStoreOfItsOwnForAsLongAsItIsThere() {
    let issues = IssueLog()
    let store = Store(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    #expect(store.scope(state: \.path, action: .path).isEmpty)
    store.send(.pushTapped)
    store.send(.pushTapped)
    let screens = store.scope(state: \.path, action: .path)
    #expect(screens.count == 2)
    screens[1].send(.tick)  // sends .path(.element(id: 1, action: .tick))
    #expect(store.state.path.ids == [0, 1])
    #expect(store.state.path[id: 0] == Flow.Screen.State(ticks: 0))
    #expect(store.state.path[id: 1] == Flow.Screen.State(ticks: 1))
    #expect(screens[1].state.ticks == 1)
    store.send(.pushTapped)
    let three = store.scope(state: \.path, action: .path)
    #expect(three.count == 3 && three[0] === screens[0] && three[1] === screens[1])
    store.send(.path(.popFrom(id: 1)))
    let one = store.scope(state: \.path, action: .path)
    #expect(one.count == 1 && one[0] === screens[0])
    // A popped element's store reads the element as it last read it, and what it sends goes
    // to the stack's reducer, which reports an action for an element it does not hold.
    #expect(screens[1].state.ticks == 1)
    withDependencies { $0.issueReporter = issues.reporter } operation: {
      _ = screens[1].send(.tick)
    }
    #expect(store.state.path.ids == [0])
    #expect(store.state.path[id: 0] == Flow.Screen.State(ticks: 0))
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("\"forEach\" over a stack") == true)
  }

  @Test func aStackMadeAnewGivesItsElementsStoresOfTheirOwn() {
    let issues = IssueLog()
    let store = Store(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    store.send(.pushTapped)
    let old = store.scope(state: \.path, action: .path)
    old[0].send(.tick)
    #expect(old[0].state.ticks == 1)
    store.send(.resetTapped)  // a new stack, whose element is 0 too
    let new = store.scope(state: \.path, action: .path)
    #expect(new.count == 1 && new[0] !== old[0])
    #expect(new[0].state.ticks == 0)
    #expect(old[0].state.ticks == 1)  // as it last read it
    // The old element 0's store sends nothing to the new element 0.
    withDependencies { $0.issueReporter = issues.reporter } operation: {
      _ = old[0].send(.tick)
    }
    #expect(store.state.path.ids == [0])
    #expect(store.state.path[id: 0] == Flow.Screen.State(ticks: 0))
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("another part is there: dropped") == true)
    new[0].send(.tick)
    #expect(store.state.path[id: 0] == Flow.Screen.State(ticks: 1))
  }

  /// The same, with the old element's store not read between the new stack and its send: the
  /// send finds its element gone. (It took a part it could not find for its own and sent the
  /// action to the new element 0.)
  @Test func aKeptStoreOfAnElementOfAReplacedStackSendsNothingEvenUnread() {
    let issues = IssueLog()
    let store = Store(initialState: Flow.State()) { Flow() }
    store.send(.pushTapped)
    let old = store.scope(state: \.path, action: .path)[0]
    store.send(.resetTapped)
    withDependencies { $0.issueReporter = issues.reporter } operation: {
      _ = old.send(.tick)
    }
    #expect(store.state.path[id: 0] == Flow.Screen.State(ticks: 0))
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("another part is there: dropped") == true)
  }
}

/// An enum state whose one case holds another enum: stores for the inner cases.
private struct Nested: Reducer {
  enum Settings: Equatable { case profile(String), account(String) }
  enum SettingsAction: Sendable, Equatable { case profile(String), account(String) }
  enum State: Equatable { case settings(Settings) }
  enum Action: Sendable, Equatable { case settings(SettingsAction), switchToAccount }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .switchToAccount: state = .settings(.account("ada@example.com"))
    case .settings(.account(let email)): state = .settings(.account(email))
    case .settings(.profile(let name)): state = .settings(.profile(name))
    }
    return .none
  }
}

extension CasePath where Root == Nested.State {
  fileprivate static var settings: CasePath<Root, Nested.Settings> { .init(Root.settings) { if case .settings(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Nested.Settings {
  fileprivate static var profile: CasePath<Root, String> { .init(Root.profile) { if case .profile(let s) = $0 { s } else { nil } } }
  fileprivate static var account: CasePath<Root, String> { .init(Root.account) { if case .account(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == Nested.Action {
  fileprivate static var settings: CasePath<Root, Nested.SettingsAction> { .init(Root.settings) { if case .settings(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Nested.SettingsAction {
  fileprivate static var profile: CasePath<Root, String> { .init(Root.profile) { if case .profile(let a) = $0 { a } else { nil } } }
  fileprivate static var account: CasePath<Root, String> { .init(Root.account) { if case .account(let a) = $0 { a } else { nil } } }
}
