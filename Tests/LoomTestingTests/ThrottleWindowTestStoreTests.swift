import Loom
import LoomTesting
import Testing

/// An open throttle window sends nothing: a test may end, or `finish()`, while one is open, as
/// in TCA, whose throttle has no window to wait out. What a window holds back is an effect of
/// its own and is still waited for. (A test that ended inside a window failed: "1 effect is
/// still running".)
@MainActor
struct ThrottleWindowTestStoreTests {
  struct Scroller: Reducer {
    struct State: Equatable { var loaded: [Int] = [] }
    enum Action: Sendable, Equatable { case scrolled(Int), load(Int) }
    enum CancelID { case scroll }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .scrolled(let offset):
        return .send(.load(offset))
          .throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
      case .load(let offset):
        state.loaded.append(offset)
        return .none
      }
    }
  }

  @Test func aTestMayEndWhileAWindowIsOpen() async {
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: TestClock()) }
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
  }

  @Test func finishDoesNotWaitForAnOpenWindow() async {
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: TestClock()) }
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.finish()
  }

  @Test func whatAWindowHoldsBackIsStillWaitedFor() async {
    let log = FailureLog()
    let clock = TestClock()
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: clock) }
    store.failureReporter = log.reporter
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.send(.scrolled(2))
    await store.finish()
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasPrefix(
        "Expected effects to finish, but every effect in flight is waiting on a test clock") == true,
      "\(log.messages)")
    await clock.advance(by: .seconds(1))
    await store.receive(.load(2)) { $0.loaded = [1, 2] }
  }
}
