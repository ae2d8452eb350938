import Loom
import LoomTesting
import Testing

/// A throttle window is an effect: cancelling it (with the task of the send that opened it, or
/// under an id around the throttle) closes it and drops what it held back, so the next effect
/// of its id runs at once. (An open window whose effect was cancelled held back every later
/// effect of its id for the store's life, and an outer id did not reach what it held back.)
@MainActor
struct ThrottleWindowTests {
  @Test func cancellingTheTaskOfTheSendThatOpenedAWindowClosesIt() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    let task = store.send(.throttled(1))
    #expect(store.state.log == [1])
    task.cancel()
    await task.finish()
    store.send(.throttled(2))
    #expect(store.state.log == [1, 2])
    await clock.advance(by: .seconds(5))
    #expect(store.state.log == [1, 2])
  }

  @Test func cancellingAnIDAroundTheThrottleDropsWhatItHeldBack() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    store.send(.throttledInOuter(1))
    store.send(.throttledInOuter(2))
    #expect(store.state.log == [1])
    store.send(.cancelOuter)
    await clock.advance(by: .seconds(5))
    #expect(store.state.log == [1])
    // The window is closed: the next effect of the id runs at once.
    store.send(.throttledInOuter(3))
    #expect(store.state.log == [1, 3])
    store.send(.cancelOuter)
  }

  @Test func underATestStoreTheNextEffectAfterACancelledWindowRuns() async {
    let clock = TestClock()
    let store = TestStore(initialState: Throttling.State()) { Throttling(clock: clock) }
    let task = await store.send(.throttled(1))
    await store.receive(.tick(1)) { $0.log = [1] }
    await task.cancel()
    await store.send(.throttled(2))
    await store.receive(.tick(2)) { $0.log = [1, 2] }
    await clock.advance(by: .seconds(1))
  }

  // The effect a window holds back belongs to the send that returned it: that send's task waits
  // for it (and for the window it opens when it runs), and cancelling the task drops it. (A
  // held-back effect was in no send's task: its task was finished at once, and cancelling it
  // left the effect to run when the window ended.)

  @Test func theTaskOfASendWhoseEffectIsHeldBackWaitsForIt() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    store.send(.throttled(1))
    let held = store.send(.throttled(2))
    #expect(!held.isFinished)
    #expect(store.state.log == [1])
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == [1, 2])
    #expect(!held.isFinished)
    await clock.advance(by: .seconds(1))
    await held.finish()
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func aHeldBackEffectReplacedByALaterOneEndsItsSendsTask() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    store.send(.throttled(1))
    let replaced = store.send(.throttled(2))
    let latest = store.send(.throttled(3))
    #expect(replaced.isFinished)
    #expect(!latest.isFinished)
    await clock.advance(by: .seconds(2))
    await latest.finish()
    #expect(store.state.log == [1, 3])
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func cancellingTheTaskOfASendWhoseEffectIsHeldBackDropsIt() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    store.send(.throttled(1))
    let held = store.send(.throttled(2))
    held.cancel()
    await held.finish()
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == [1])
    #expect(store.inFlightEffectCount == 0)
    // The window closed: the next effect runs at once.
    store.send(.throttled(3))
    #expect(store.state.log == [1, 3])
  }

  @Test func cancellingTheWindowEndsTheTaskOfTheSendItHeldBack() async {
    let clock = TestClock()
    let store = Store(initialState: Throttling.State()) { Throttling(clock: clock) }
    let opened = store.send(.throttled(1))
    let held = store.send(.throttled(2))
    opened.cancel()
    await held.finish()
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == [1])
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func underATestStoreAHeldBackEffectIsTheSendsUntilItRuns() async {
    let clock = TestClock()
    let store = TestStore(initialState: Throttling.State()) { Throttling(clock: clock) }
    await store.send(.throttled(1))
    await store.receive(.tick(1)) { $0.log = [1] }
    let held = await store.send(.throttled(2))
    await clock.advance(by: .seconds(1))
    await store.receive(.tick(2)) { $0.log = [1, 2] }
    await clock.advance(by: .seconds(1))
    await held.finish()
  }
}

/// Throttles `.tick`s on a test clock, alone or inside an outer cancellable id.
private struct Throttling: Reducer {
  struct State: Equatable { var log: [Int] = [] }
  enum Action: Sendable, Equatable {
    case throttled(Int), throttledInOuter(Int), cancelOuter, tick(Int)
  }
  enum CancelID { case throttle, outer }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .throttled(let n):
      return .send(.tick(n))
        .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: true)
    case .throttledInOuter(let n):
      return .send(.tick(n))
        .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: true)
        .cancellable(id: CancelID.outer)
    case .cancelOuter:
      return .cancel(id: CancelID.outer)
    case .tick(let n):
      state.log.append(n)
      return .none
    }
  }
}
