import Loom
import LoomTesting
import Testing

@testable import CaseStudies

@MainActor
struct TwoCountersTests {
  // Each action reaches only the counter it is tagged for.
  @Test func eachCounterCountsOnItsOwn() async {
    let store = TestStore(initialState: TwoCounters.State()) { TwoCounters() }
    await store.send(.counter1(.incrementButtonTapped)) { $0.counter1.count = 1 }
    await store.send(.counter2(.decrementButtonTapped)) { $0.counter2.count = -1 }
    await store.send(.counter1(.incrementButtonTapped)) { $0.counter1.count = 2 }
    await store.send(.counter2(.incrementButtonTapped)) { $0.counter2.count = 0 }
  }
}
