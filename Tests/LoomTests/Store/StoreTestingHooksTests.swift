import Loom
import Testing

@MainActor
struct StoreTestingHooksTests {
  struct RoundTrip: Reducer {
    struct State { var done = 0 }
    enum Action: Sendable { case start, done }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start: return .run { send in await send(.done) }
      case .done:
        state.done += 1
        return .none
      }
    }
  }

  /// A closure kept directly in a `Mutex` got wrapped in one more reabstraction thunk on every
  /// read, so each activity notification called through a chain as long as the number of
  /// notifications before it: quadratic time, then a stack overflow. 20,000 round trips made
  /// about 60,000 notifications.
  @Test func activityNotificationsStayCheapOverManyEffects() async {
    let (store, hooks) = Store.withTestingHooks(
      initialState: RoundTrip.State(), reducer: RoundTrip(), dependencies: DependencyValues())
    let notifications = Locked(0)
    hooks.setActivityHandler { notifications.withValue { $0 += 1 } }
    for _ in 0..<20_000 {
      await store.send(.start).finish()
    }
    #expect(store.state.done == 20_000)
    #expect(notifications.value >= 40_000)
  }

  @Test func hooksReportTheEffectsInFlightWithTheirOrigin() async {
    let (store, hooks) = Store.withTestingHooks(
      initialState: Sleeper.State(), reducer: Sleeper(events: Locked([])),
      dependencies: DependencyValues())
    let task = store.send(.start(id: 1))
    #expect(hooks.inFlightEffectCount == 1)
    #expect(hooks.effectsInFlight.first?.origin.action == .start(id: 1))
    #expect(
      hooks.effectsInFlight.first?.origin.fileID.hasSuffix("StoreCancellationTests.swift") == true)
    #expect(hooks.effectsInFlight.first?.isCancelled == false)
    #expect(hooks.isIdle == false)
    task.cancel()
    await task.finish()
    #expect(hooks.inFlightEffectCount == 0)
  }
}
