import Foundation
import Loom
import LoomTesting
import Testing

/// An effect that takes a while to stop once cancelled, like one that closes a connection.
struct SlowToStop: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in
      do {
        try await Task.sleep(for: .seconds(3_600))
      } catch {
        // Closing up after the cancellation takes 300 ms of real time.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { continuation.resume() }
        }
      }
    }
  }
}

@MainActor
struct CancelledEffectTests {
  @Test func cancelledEffectsThatAreSlowToStopAreWaitedForPastTheTimeout() async {
    let log = FailureLog()
    let store = TestStore(initialState: SlowToStop.State()) { SlowToStop() }
    store.failureReporter = log.reporter
    store.timeout = .milliseconds(50)
    await store.send(.start)
    await store.skipInFlightEffects()
    #expect(log.messages == [])
  }

  @Test func anEffectThatWasNotCancelledStillTimesOut() async {
    let log = FailureLog()
    let store = TestStore(initialState: SlowToStop.State()) { SlowToStop() }
    store.failureReporter = log.reporter
    store.timeout = .milliseconds(50)
    let task = await store.send(.start)
    await store.finish()
    #expect(
      log.messages.first?.hasPrefix(
        "Expected effects to finish, but they were still running after 0.05 seconds.") == true,
      "\(log.messages)")
    await task.cancel()
  }
}
