// The doc-comment snippets of Sources/LoomTesting. `CounterFeature` and `numberFact` are the
// getting-started guide's.

import Foundation
import Loom
import LoomTesting
import Testing

// snippet: TestStore
@MainActor
@Test func incrementThenFetchFact() async {
  let store = TestStore(initialState: CounterFeature.State()) {
    CounterFeature()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0) is a good number." }
  }

  // snippet: TestStore.send
  await store.send(.incrementTapped) {
    $0.count = 1
  }
  // snippet: end
  await store.send(.factTapped)
  // snippet: TestStore.receive
  await store.receive(.factLoaded("1 is a good number.")) {
    $0.fact = "1 is a good number."
  }
  // snippet: end
}
// snippet: end

@MainActor
@Test func sendingAChildsActionThroughACasePathChain() async {
  let store = TestStore(initialState: App.State()) { App() }
  await store.send(.showDetail) { $0.detail = Detail.State() }
  // snippet: TestStore.send-casePath
  await store.send(.detail.textChanged, "Hi") {
    $0.detail?.text = "Hi"
  }
  // snippet: end
}

@MainActor
@Test func testStoreOfNamesAReducersTestStore() async {
  // snippet: TestStoreOf
  let store: TestStoreOf<Counter> = TestStore(initialState: Counter.State()) { Counter() }
  // snippet: end
  await store.send(.incrementTapped) { $0.count = 1 }
}

/// A mailbox that loads, follows live updates, marks messages read and runs a timer.
struct Mailbox: Reducer {
  struct State: Equatable {
    var items: [String] = []
    var isLoading = false
    var read: [String] = []
  }
  enum Action: Sendable, Equatable {
    case onAppear, loaded([String]), liveUpdate(String)
    case nextPageTapped, pageLoaded([String])
    case markRead(String), markedRead(String), failed(String)
    case startTapped, stopTapped, tick
  }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      state.isLoading = true
      return .merge(
        .run { send in await send(.loaded(["n1", "n2"])) },
        .run { send in
          // Live updates: never ends on its own.
          try await clock.sleep(for: .seconds(3600))
          await send(.liveUpdate("n3"))
        })
    case .loaded(let items):
      state.isLoading = false
      state.items = items
      return .none
    case .liveUpdate(let item):
      state.items.append(item)
      return .none
    case .nextPageTapped:
      state.isLoading = true
      return .run { send in await send(.pageLoaded([])) }
    case .pageLoaded(let items):
      state.isLoading = false
      state.items += items
      return .none
    case .markRead(let id):
      guard state.items.contains(id) else { return .send(.failed("No message \(id)")) }
      state.read.append(id)
      return .send(.markedRead(id))
    case .markedRead, .failed, .tick:
      return .none
    case .startTapped:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopTapped:
      return .cancel(id: CancelID.timer)
    }
  }
}

extension CasePath where Root == Mailbox.Action, Value == [String] {
  static var pageLoaded: Self { Self(Mailbox.Action.pageLoaded) { if case .pageLoaded(let p) = $0 { p } else { nil } } }
}
extension CasePath where Root == Mailbox.Action, Value == String {
  static var markedRead: Self { Self(Mailbox.Action.markedRead) { if case .markedRead(let id) = $0 { id } else { nil } } }
}

struct TestStoreDocs {
  let items = ["n1", "n2"]

  @MainActor
  func makeStore(_ state: Mailbox.State = Mailbox.State()) -> TestStore<Mailbox.State, Mailbox.Action> {
    TestStore(initialState: state) { Mailbox() } withDependencies: {
      $0.continuousClock = TestClock()
    }
  }

  @MainActor
  @Test func aTaskCancelsTheEffectsOfItsAction() async {
    let store = makeStore()
    store.exhaustivity = .off
    // snippet: TestStoreTask
    let task = await store.send(.onAppear)
    await store.receive(.loaded(items)) { $0.items = items }
    await task.cancel()   // the live-updates effect never ends on its own
    // snippet: end
    #expect(store.state.isLoading == false)
  }

  @MainActor
  @Test func skippingWhatATestDoesNotAssert() async {
    let store = makeStore()
    await store.send(.onAppear) { $0.isLoading = true }
    // snippet: TestStore.skipReceivedActions
    await store.skipReceivedActions()
    // snippet: end
    // snippet: TestStore.assert
    store.assert { $0.isLoading = false }
    // snippet: end
    #expect(store.state.items == items)
    // snippet: TestStore.skipInFlightEffects
    await store.skipInFlightEffects()
    // snippet: end
  }

  @MainActor
  @Test func receivingByCasePathValueOrPredicate() async {
    let store = makeStore(Mailbox.State(items: ["n1"]))
    await store.send(.nextPageTapped) { $0.isLoading = true }
    // snippet: TestStore.receive-casePath
    await store.receive(.pageLoaded) { $0.isLoading = false }
    // snippet: end
    await store.send(.markRead("n1")) { $0.read = ["n1"] }
    // snippet: TestStore.receive-value
    await store.receive(.markedRead, "n1")
    // snippet: end
    await store.send(.markRead("n9"))
    // snippet: TestStore.receive-where
    await store.receive(where: { if case .failed = $0 { true } else { false } })
    // snippet: end
  }

  @MainActor
  @Test func finishWaitsForTheCancelledTimer() async {
    let store = makeStore()
    await store.send(.startTapped)
    // snippet: TestStore.finish
    await store.send(.stopTapped)
    await store.finish()
    // snippet: end
  }

  @MainActor
  @Test func aNonExhaustiveStoreSkipsWhatIsNotAsserted() async {
    let store = makeStore()
    // snippet: Exhaustivity
    store.exhaustivity = .off(showSkippedAssertions: true)
    // snippet: end
    await store.send(.nextPageTapped)
    await store.receive(.pageLoaded)
    #expect(store.state.isLoading == false)
  }

  @MainActor
  @Test func failuresCanBeCollected() async {
    let failures = LockedState<[String]>([])
    @Sendable func print(_ message: String) { failures.withLock { $0.append(message) } }
    // snippet: TestFailureReporter
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.failureReporter = .collecting { failure in print(failure.message) }
    // snippet: end
    await store.send(.incrementTapped)
    let messages = failures.withLock { $0 }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("+   count: 1") == true, "\(messages)")
  }

  @MainActor
  @Test func dependenciesCanChangeMidTest() async {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() } withDependencies: {
      $0.numberFact.fetch = { "\($0) is fine." }
    }
    // snippet: TestStore.dependencies
    store.dependencies.numberFact.fetch = { _ in throw URLError(.notConnectedToInternet) }
    // snippet: end
    await store.send(.factTapped)
    await store.receive(.factLoaded("No fact today.")) { $0.fact = "No fact today." }
  }
}
