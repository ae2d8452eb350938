import Loom
import Observation
import Testing

@MainActor
struct StoreSendTests {
  struct Logger: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable { case a, b, c, d, chain(Int), observed }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .a:
        state.log.append("a")
        return .merge(.send(.b), .send(.c))
      case .b:
        state.log.append("b")
        return .send(.d)
      case .c:
        state.log.append("c")
        return .none
      case .d:
        state.log.append("d")
        return .none
      case .chain(let remaining):
        state.log = ["\(remaining)"]
        return remaining == 0 ? .none : .send(.chain(remaining - 1))
      case .observed:
        state.log.append("observed")
        return .none
      }
    }
  }

  @Test func sendRunsTheReducerAndUpdatesState() {
    let store = Store(initialState: Logger.State()) { Logger() }
    store.send(.c)
    #expect(store.state.log == ["c"])
  }

  @Test func sendEffectsAreQueuedFirstInFirstOut() {
    let store = Store(initialState: Logger.State()) { Logger() }
    store.send(.a)
    // Depth-first re-entrant processing would give a, b, d, c.
    #expect(store.state.log == ["a", "b", "c", "d"])
  }

  @Test func aChainOf100000SynchronousSendsDoesNotOverflowTheStack() {
    let store = Store(initialState: Logger.State()) { Logger() }
    store.send(.chain(100_000))
    #expect(store.state.log == ["0"])
  }

  @Test func sendingFromAnObserverIsQueuedNotReentrant() {
    let store = Store(initialState: Logger.State()) { Logger() }
    withObservationTracking {
      _ = store.state
    } onChange: {
      MainActor.assumeIsolated { _ = store.send(.observed) }
    }
    store.send(.c)
    #expect(store.state.log == ["c", "observed"])
  }

  @Test func observationSeesStateChanges() {
    let store = Store(initialState: Logger.State()) { Logger() }
    let changes = Locked(0)
    withObservationTracking {
      _ = store.state.log
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    store.send(.c)
    #expect(changes.value == 1)
  }

  @Test func statesStreamYieldsTheCurrentStateThenDistinctChanges() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next() == Logger.State())
    store.send(.c)
    #expect(await iterator.next()?.log == ["c"])
    store.send(.chain(0))
    store.send(.chain(0))  // same state again: not yielded
    store.send(.d)
    #expect(await iterator.next()?.log == ["0"])
    #expect(await iterator.next()?.log == ["0", "d"])
  }

  /// Every state, the first too, reaches a consumer that reads only after many batches (it
  /// kept the newest 64 and dropped the others).
  @Test func statesKeepsEveryStateForAConsumerThatReadsLate() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    let states = store.states
    for _ in 0..<100 { store.send(.c) }
    var seen: [Int] = []
    for await state in states {
      seen.append(state.log.count)
      if state.log.count == 100 { break }
    }
    #expect(seen == Array(0...100))
  }

  @Test func aSendWithoutEffectsReturnsAFinishedTask() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    let task = store.send(.c)
    #expect(task.isFinished)
    await task.finish()
  }
}

/// A scoped store's `states` keeps the store alive until its consumer stops (it stalled once a
/// store made only for the stream was released); a root store's finishes once it is released.
@MainActor
struct StoreStatesLifetimeTests {
  struct Parent: Reducer {
    struct Child: Reducer {
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Sendable, Equatable { case increment }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.count += 1
        return .none
      }
    }
    struct State: Equatable, Sendable { var child = Child.State() }
    enum Action: Sendable, Equatable { case child(Child.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: \.child, action: .child) { Child() }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func theStatesOfAStoreScopedOnlyForThemKeepComing() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let states = store.scope(state: \.child, action: .child).states
    store.send(.child(.increment))
    store.send(.child(.increment))
    var seen: [Int] = []
    for await state in states {
      seen.append(state.count)
      if state.count == 2 { break }
    }
    #expect(seen == [0, 1, 2])
  }

  @Test(.timeLimit(.minutes(1)))
  func theStatesOfARootStoreFinishOnceItIsReleased() async {
    var store: Store<Parent.State, Parent.Action>? = Store(initialState: Parent.State()) {
      Parent()
    }
    let states = store!.states
    store?.send(.child(.increment))
    store = nil
    var seen: [Int] = []
    for await state in states { seen.append(state.child.count) }
    #expect(seen == [0, 1])
  }
}

extension CasePath where Root == StoreStatesLifetimeTests.Parent.Action {
  static var child: CasePath<Root, StoreStatesLifetimeTests.Parent.Child.Action> {
    .init(Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
