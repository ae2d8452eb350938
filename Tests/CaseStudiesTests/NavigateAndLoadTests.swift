@testable import CaseStudies
import Loom
import LoomTesting
import Testing

@MainActor
struct NavigateAndLoadTests {
  let clock = TestClock()

  func makeStore() -> TestStoreOf<NavigateAndLoad> {
    TestStore(initialState: NavigateAndLoad.State()) { NavigateAndLoad() } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func theDetailShowsAtOnceAndLoadsWhileShown() async {
    let store = makeStore()
    let row = NavigateAndLoad.Row(id: 2, count: 42)
    await store.send(.rowTapped(2)) { $0.detail = NavigateAndLoad.Detail.State(row: row) }
    await store.send(.detail(.presented(.onAppear)))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.presented(.loaded(42)))) { $0.detail?.count = 42 }
    await store.send(.detail(.presented(.incrementTapped))) { $0.detail?.count = 43 }
    await store.send(.detail(.dismiss)) {
      $0.detail = nil
      $0.rows[id: 2]?.count = 43
    }
  }

  @Test func leavingBeforeTheLoadLandsCancelsIt() async {
    let store = makeStore()
    let row = NavigateAndLoad.Row(id: 1, count: 1)
    await store.send(.rowTapped(1)) { $0.detail = NavigateAndLoad.Detail.State(row: row) }
    await store.send(.detail(.presented(.onAppear)))
    await clock.advance(by: .milliseconds(500))
    await store.send(.detail(.dismiss)) { $0.detail = nil }
    // Had the load gone on, `.loaded` would arrive now, for a detail no longer shown.
    await clock.advance(by: .seconds(1))
  }
}
