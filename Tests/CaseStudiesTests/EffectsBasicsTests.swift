import Loom
import LoomTesting
import Testing

@testable import CaseStudies

@MainActor
struct EffectsBasicsTests {
  @Test func aFactLoads() async {
    let store = TestStore(initialState: EffectsBasics.State()) {
      EffectsBasics()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is a good number." }
    }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.receive(.factResponse("1 is a good number.")) {
      $0.fact = "1 is a good number."
      $0.isFactRequestInFlight = false
    }
    // A new count makes the fact stale.
    await store.send(.decrementButtonTapped) {
      $0.count = 0
      $0.fact = nil
    }
  }

  @Test func aFailedRequestEndsTheLoading() async {
    struct Offline: Error {}
    let store = TestStore(initialState: EffectsBasics.State()) {
      EffectsBasics()
    } withDependencies: {
      $0.factClient.fetch = { _ in throw Offline() }
    }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.receive(.factFailed) { $0.isFactRequestInFlight = false }
  }

  // The client answers only when the test says so: the request is still in flight at the cancel,
  // and the answer given afterwards never lands (an unreceived action would fail the test).
  @Test func cancelStopsTheRequestInFlight() async {
    let answer = TestContinuation<String>()
    let store = TestStore(initialState: EffectsBasics.State()) {
      EffectsBasics()
    } withDependencies: {
      $0.factClient.fetch = { _ in try await answer.value }
    }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.send(.cancelButtonTapped) { $0.isFactRequestInFlight = false }
    answer.resume(returning: "0 is a good number.")
  }

  @Test func changingTheCountCancelsTheRequestInFlight() async {
    let answer = TestContinuation<String>()
    let store = TestStore(initialState: EffectsBasics.State()) {
      EffectsBasics()
    } withDependencies: {
      $0.factClient.fetch = { _ in try await answer.value }
    }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.send(.incrementButtonTapped) {
      $0.count = 1
      $0.isFactRequestInFlight = false
    }
    answer.resume(returning: "0 is a good number.")
  }
}
