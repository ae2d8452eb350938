@testable import CaseStudies
import Loom
import LoomTesting
import Testing

@MainActor
struct MultipleDestinationsTests {
  typealias Destination = MultipleDestinations.Destination
  typealias Stopwatch = MultipleDestinations.Stopwatch
  let clock = TestClock()

  func makeStore() -> TestStoreOf<MultipleDestinations> {
    TestStore(initialState: MultipleDestinations.State()) { MultipleDestinations() }
    withDependencies: { $0.continuousClock = clock }
  }

  @Test func eachDestinationRunsItsTimerAndDismissesItself() async {
    let store = makeStore()
    let destinations: [(MultipleDestinations.Action, (Stopwatch.State) -> Destination.State,
      (Stopwatch.Action) -> Destination.Action)] = [
      (.showSheet, Destination.State.sheet, Destination.Action.sheet),
      (.showPopover, Destination.State.popover, Destination.Action.popover),
      (.showDrillDown, Destination.State.drillDown, Destination.Action.drillDown),
    ]
    for (show, state, action) in destinations {
      await store.send(show) { $0.destination = state(Stopwatch.State()) }
      await store.send(.destination(.presented(action(.onAppear))))
      await clock.advance(by: .seconds(1))
      await store.receive(.destination(.presented(action(.tick)))) {
        $0.destination = state(Stopwatch.State(seconds: 1))
      }
      await store.send(.destination(.presented(action(.doneTapped))))
      await store.receive(.destination(.dismiss)) { $0.destination = nil }
      // The timer stopped with its destination: the next destination's ticks are its own.
      await clock.advance(by: .seconds(1))
    }
  }

  @Test func switchingCaseOrDismissingFromTheParentStopsTheTimer() async {
    let store = makeStore()
    await store.send(.showSheet) { $0.destination = .sheet(Stopwatch.State()) }
    await store.send(.destination(.presented(.sheet(.onAppear))))
    await store.send(.showPopover) { $0.destination = .popover(Stopwatch.State()) }
    await clock.advance(by: .seconds(1))   // the sheet's timer sends nothing
    await store.send(.destination(.presented(.popover(.onAppear))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.popover(.tick)))) {
      $0.destination = .popover(Stopwatch.State(seconds: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(1))   // nor does the popover's
  }
}
