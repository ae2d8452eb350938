// The doc-comment snippets of Sources/Loom/Store.

import Foundation
import Loom
import LoomTesting
import Testing

struct StoreDocs {
  @MainActor
  @Test func storesForPartsThatComeAndGo() {
    let store = Store(initialState: App.State(rows: [Row.State(id: 1)])) { App() }
    store.send(.showDetail)
    // snippet: Store-scope-optional
    if let detail = store.scope(state: \.detail, action: .detail) {
      detail.send(.textChanged("Hi"))   // sends .detail(.textChanged("Hi"))
    }
    // snippet: end
    #expect(store.state.detail?.text == "Hi")
    store.send(.detail(.textChanged("")))
    // snippet: Store-send-casePath
    store.send(.detail.textChanged, "Hi")   // sends .detail(.textChanged("Hi"))
    // snippet: end
    #expect(store.state.detail?.text == "Hi")
    // snippet: Store-scope-rows
    for row in store.scope(state: \.rows, action: .rows) {
      row.send(.toggled)   // sends .rows(.element(id: row.state.id, action: .toggled))
    }
    // snippet: end
    #expect(store.state.rows.map(\.isDone) == [true])
    // snippet: Store-Identifiable
    let ids = store.scope(state: \.rows, action: .rows).map(\.id)
    // snippet: end
    #expect(ids == [1])

  }

  @MainActor
  @Test func storesForAStacksElements() async {
    let store = Store(initialState: ReadingList.State()) { ReadingList() }
    store.send(.open(Book(id: 1, title: "Dune")))
    store.send(.open(Book(id: 2, title: "Emma")))
    // snippet: Store-scope-stack
    for screen in store.scope(state: \.path, action: .path) {
      screen.send(.closeTapped)   // sends .path(.element(id: …, action: .closeTapped))
    }
    // snippet: end
    // Each screen dismisses itself: pops it, and every screen above it.
    for _ in 0..<100 where !store.state.path.isEmpty { await Task.yield() }
    #expect(store.state.path.isEmpty)
  }

  @MainActor
  @Test func storesForAPresentedChildAndOneOfItsCases() async {
    let store = Store(initialState: Library.State(books: [Book(id: 1, title: "Dune")])) {
      Library()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    store.send(.bookTapped(id: 1))
    guard let destination = store.scope(state: \.destination, action: .destination) else {
      Issue.record("no destination")
      return
    }
    // snippet: Store-scope-case
    if let detail = destination.scope(state: .detail, action: .detail) {
      detail.send(.onAppear)   // sends .detail(.onAppear) to the destination's store
    }
    // snippet: end
    for _ in 0..<100 where store.state.destination == .detail(BookDetail.State(book: Book(id: 1, title: "Dune"))) {
      await Task.yield()
    }
    #expect(
      store.state.destination
        == .detail(BookDetail.State(book: Book(id: 1, title: "Dune"), pages: 320)))
    // snippet: Store-scope-presented
    if let destination = store.scope(state: \.destination, action: .destination) {
      destination.send(.detail(.closeTapped))   // sends .destination(.presented(.detail(…)))
    }
    // snippet: end
    for _ in 0..<100 where store.state.destination != nil { await Task.yield() }
    #expect(store.state.destination == nil)
  }

  @MainActor
  @Test func aStoreRunsItsReducer() {
    var printed: [Int] = []
    func print(_ count: Int) { printed.append(count) }
    // snippet: Store
    let store = Store(initialState: Counter.State()) {
      Counter()
    }
    store.send(.incrementTapped)
    print(store.state.count)  // 1
    // snippet: end
    #expect(printed == [1])
  }

  @MainActor
  @Test func storeOfNamesAReducersStore() {
    // snippet: StoreOf
    let store: StoreOf<Counter> = Store(initialState: Counter.State()) { Counter() }
    // snippet: end
    #expect(store.state.count == 0)
  }

  @MainActor
  @Test func aStoreTakesDependencies() async {
    // snippet: Store.init
    let store = Store(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    // snippet: end
    await store.send(.fetchTapped(3)).finish()
    #expect(store.state.items == [UUID(0): "item 3"])
  }

  @MainActor
  @Test func aScopedStoreSendsThroughItsParent() {
    let appStore = Store(initialState: CasePathDocsApp.State()) { CasePathDocsApp() }
    // snippet: Store.scope
    let counterStore = appStore.scope(state: \.counter, action: .counter)
    counterStore.send(.incrementTapped)
    // snippet: end
    #expect(appStore.state.counter.count == 1)
    #expect(counterStore.state.count == 1)
  }

  @MainActor
  @Test func statesYieldsEachDistinctState() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    var rendered: [Int] = []
    func render(_ state: Counter.State) { rendered.append(state.count) }
    let watching = Task {
      // snippet: Store.states
      for await state in store.states {
        render(state)
      }
      // snippet: end
    }
    for _ in 0..<10_000 where rendered.isEmpty { await Task.yield() }
    store.send(.incrementTapped)
    for _ in 0..<10_000 where rendered.count < 2 { await Task.yield() }
    watching.cancel()
    await watching.value
    #expect(rendered == [0, 1])
  }
}

enum StoreTaskDocs {
  struct Feature: Reducer {
    struct State: Equatable { var refreshed = false; var ticks = 0 }
    enum Action: Sendable, Equatable { case refresh, refreshed, startTimer, tick }
    @Dependency(\.continuousClock) var clock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .refresh:
        return .run { send in await send(.refreshed) }
      case .refreshed:
        state.refreshed = true
        return .none
      case .startTimer:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  @MainActor
  @Test static func aStoreTaskWaitsForOrCancelsItsEffects() async {
    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.continuousClock = TestClock()
    }
    // snippet: StoreTask
    await store.send(.refresh).finish()   // waits until the refresh and its follow-ups are done
    let task = store.send(.startTimer)
    task.cancel()
    // snippet: end
    #expect(store.state.refreshed)
    await task.finish()
    #expect(task.isFinished)
    #expect(store.state.ticks == 0)
  }

  @MainActor
  @Test static func finishWaitsForTheEffects() async {
    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    // snippet: Store.send
    await store.send(.refresh).finish()
    // snippet: end
    #expect(store.state.refreshed)
  }
}
