import Loom
import Testing

/// A feature whose effects wait until they are cancelled, recording what happened to them.
struct Sleeper: Reducer {
  struct State: Equatable { var received: [String] = [] }
  enum Action: Sendable, Equatable {
    case start(id: Int, cancelInFlight: Bool = false)
    case cancel(id: Int)
    case startAndCancelAtOnce(id: Int)
    case woke(Int)
  }
  let events: Locked<[String]>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let id, let cancelInFlight):
      return .run { [events] send in
        try? await Task.sleep(for: .seconds(3_600))
        if Task.isCancelled { events.append("cancelled \(id)") }
        await send(.woke(id))
      }
      .cancellable(id: id, cancelInFlight: cancelInFlight)
    case .cancel(let id):
      return .cancel(id: id)
    case .startAndCancelAtOnce(let id):
      return .merge(
        .run { [events] send in
          events.append("ran \(id), cancelled: \(Task.isCancelled)")
          await send(.woke(id))
        }
        .cancellable(id: id),
        .cancel(id: id)
      )
    case .woke(let id):
      state.received.append("woke \(id)")
      return .none
    }
  }
}

@MainActor
struct StoreCancellationTests {
  @Test func cancelStopsTheEffectAndDropsWhatItSendsAfterwards() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let task = store.send(.start(id: 1))
    #expect(store.inFlightEffectCount == 1)
    store.send(.cancel(id: 1))
    await task.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(store.state.received == [])
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func cancelInFlightCancelsTheEarlierEffectWithTheSameID() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let first = store.send(.start(id: 1))
    let second = store.send(.start(id: 1, cancelInFlight: true))
    await first.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(store.inFlightEffectCount == 1)
    second.cancel()
    await second.finish()
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func anEffectCancelledInTheBatchThatStartedItSendsNothing() async {
    // An effect starts running on the main actor as soon as its reducer returns it when the
    // runtime can start it in place, and otherwise as soon as the main actor is free. Either
    // way, a cancel in the same batch wins: if the effect had not run yet it runs cancelled,
    // and if it had already sent an action that is still queued, that action is dropped.
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    await store.send(.startAndCancelAtOnce(id: 7)).finish()
    #expect(events.value.count == 1)
    #expect(events.value.first?.hasPrefix("ran 7") == true)
    #expect(store.state.received == [])
  }

  @Test func anEffectCancelledRightAfterItWasStartedNeverSends() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let task = store.send(.start(id: 3))
    store.send(.cancel(id: 3))
    await task.finish()
    #expect(events.value == ["cancelled 3"])
    #expect(store.state.received == [])
  }

  @Test func twoRootStoresUsingTheSameIDNeverCancelEachOther() async {
    let events = Locked<[String]>([])
    let first = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let second = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let firstTask = first.send(.start(id: 1))
    let secondTask = second.send(.start(id: 1))
    second.send(.cancel(id: 1))
    await secondTask.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(first.inFlightEffectCount == 1)
    firstTask.cancel()
    await firstTask.finish()
  }

  @Test func cancelAllCancelsEveryEffect() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let tasks = (1...3).map { store.send(.start(id: $0)) }
    store.cancelAll()
    for task in tasks { await task.finish() }
    #expect(Set(events.value) == ["cancelled 1", "cancelled 2", "cancelled 3"])
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func cancellingTheTaskAwaitingFinishCancelsTheEffects() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    let storeTask = store.send(.start(id: 1))
    let waiter = Task { await storeTask.finish() }
    waiter.cancel()
    await waiter.value
    await storeTask.finish()
    #expect(events.value == ["cancelled 1"])
  }

  @Test func bookkeepingIsEmptyAfter10000ConcurrentCancels() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
    var tasks: [StoreTask] = []
    for id in 0..<10_000 { tasks.append(store.send(.start(id: id))) }
    #expect(store.inFlightEffectCount == 10_000)
    for id in 0..<10_000 { store.send(.cancel(id: id)) }
    for task in tasks { await task.finish() }
    #expect(store.inFlightEffectCount == 0)
    #expect(events.value.count == 10_000)
    // Ids are free again: a new effect under a used id runs and can be cancelled.
    let again = store.send(.start(id: 0))
    #expect(store.inFlightEffectCount == 1)
    store.send(.cancel(id: 0))
    await again.finish()
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func releasingTheLastReferenceToARootStoreCancelsItsEffects() async {
    let events = Locked<[String]>([])
    let cancelled = Signal()
    struct Forever: Reducer {
      struct State {}
      enum Action: Sendable { case start }
      let cancelled: Signal
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        .run { [cancelled] _ in
          await withTaskCancellationHandler {
            while !Task.isCancelled { await Task.yield() }
          } onCancel: {
            cancelled.fire()
          }
        }
      }
    }
    weak var weakStore: Store<Forever.State, Forever.Action>?
    do {
      let store = Store(initialState: Forever.State()) { Forever(cancelled: cancelled) }
      weakStore = store
      store.send(.start)
    }
    #expect(weakStore == nil)
    await cancelled.wait()
    #expect(events.value.isEmpty)
  }

  @Test func aStoreWithAnEffectInFlightHasNoRetainCycle() async {
    weak var weakStore: Store<Sleeper.State, Sleeper.Action>?
    let events = Locked<[String]>([])
    var task: StoreTask?
    do {
      let store = Store(initialState: Sleeper.State()) { Sleeper(events: events) }
      weakStore = store
      task = store.send(.start(id: 1))
      _ = store.scope(state: \.received, action: .identity)
    }
    #expect(weakStore == nil)
    await task?.finish()
    #expect(events.value == ["cancelled 1"])
  }
}

/// A cancelled effect sends nothing, even from a task it started: that task was not cancelled,
/// so its `send` went through while the effect's own task, which ignores cancellation, had not
/// ended yet.
@MainActor
struct CancelledEffectSendTests {
  struct Feature: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable { case start, stop, sent }
    enum CancelID { case work }
    let gate: AsyncStream<Void>
    let hold: LockedState<CheckedContinuation<Void, Never>?>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [gate, hold] send in
          Task {
            for await _ in gate { break }
            await send(.sent)
          }
          // Waits for the test, cancelled or not.
          await withCheckedContinuation { continuation in hold.withLock { $0 = continuation } }
        }
        .cancellable(id: CancelID.work)
      case .stop:
        return .cancel(id: CancelID.work)
      case .sent:
        state.log.append("sent")
        return .none
      }
    }
  }

  @Test func aTaskACancelledEffectStartedSendsNothing() async {
    let (gate, opening) = AsyncStream<Void>.makeStream()
    let hold = LockedState<CheckedContinuation<Void, Never>?>(nil)
    let store = Store(initialState: Feature.State()) { Feature(gate: gate, hold: hold) }
    let task = store.send(.start)
    store.send(.stop)
    opening.yield()
    // The started task sends within a few turns of the main actor.
    for _ in 0..<200 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(store.state.log == [])
    hold.withLock { $0?.resume(); $0 = nil }
    await task.finish()
  }
}
