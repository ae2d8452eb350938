import Foundation
import Loom
import LoomTesting
import Testing

struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var filterChanges = 0
    var id: UUID?
  }
  enum Action: Sendable, Equatable {
    case queryChanged(String)
    case results([String])
    case scrolled(Int)
    case loaded(Int)
    case makeID
  }
  enum CancelID { case search, scroll }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in await send(.results([query])) }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .results(let results):
        state.results = results
        return .none
      case .scrolled(let offset):
        return .send(.loaded(offset))
          .throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
      case .loaded:
        return .none
      case .makeID:
        state.id = uuid()
        return .none
      }
    }
    .onChange(of: \.query) { _, _ in
      Reduce { state, _ in
        state.filterChanges += 1
        return .none
      }
    }
  }
}

@MainActor
struct ModifierTests {
  @Test func debounceRunsOnlyTheLastEffectOfABurst() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.queryChanged("l")) {
      $0.query = "l"
      $0.filterChanges = 1
    }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("lo")) {
      $0.query = "lo"
      $0.filterChanges = 2
    }
    await clock.advance(by: .milliseconds(299))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.results(["lo"])) { $0.results = ["lo"] }
  }

  @Test func throttleRunsTheFirstAtOnceAndTheLatestAtTheEndOfTheWindow() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.scrolled(1))
    await store.receive(.loaded(1))
    await store.send(.scrolled(2))
    await store.send(.scrolled(3))
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded(3))
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func onChangeRunsOnlyWhenTheValueChanges() async {
    let store = TestStore(initialState: Search.State(query: "a")) { Search() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.queryChanged("a"))
    await store.receive(.results(["a"])) { $0.results = ["a"] }
  }

  @Test func dependencyModifierOverridesForTheSubtree() {
    let store = Store(initialState: Search.State()) {
      Search().dependency(\.uuid, .incrementing)
    }
    store.send(.makeID)
    #expect(store.state.id == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
  }

  @Test func printChangesPrintsTheActionAndTheDiff() {
    let lines = Locked<[String]>([])
    let store = Store(initialState: Search.State()) {
      Search().printChanges(to: { lines.append($0) }).dependency(\.continuousClock, ImmediateClock())
    }
    store.send(.results(["x"]))
    #expect(
      lines.value == [
        """
        received action:
          .results(["x"])
            Search.State(
              … (1 unchanged)
              results: [
          +     [0]: "x"
              ]
              … (2 unchanged)
            )
        """
      ])
  }
}
