import Foundation
import Loom
import LoomTesting
import Testing

/// An effect that takes a while to stop once cancelled, like one that closes a connection.
struct SlowToStop: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, stop }
  enum CancelID { case work }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if action == .stop { return .cancel(id: CancelID.work) }
    return .run { _ in
      do {
        try await Task.sleep(for: .seconds(3_600))
      } catch {
        // Closing up after the cancellation takes 300 ms of real time.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { continuation.resume() }
        }
      }
    }
    .cancellable(id: CancelID.work)
  }
}

@MainActor
struct CancelledEffectTests {
  @Test func cancelledEffectsThatAreSlowToStopAreWaitedForPastTheTimeout() async {
    let store = TestStore(initialState: SlowToStop.State()) { SlowToStop() }
    store.timeout = .milliseconds(50)
    let task = await store.send(.start)
    await store.skipInFlightEffects()
    #expect(task.isFinished)
  }

  @Test func aCancelledEffectThatIsStillStoppingDoesNotFailTheEndOfTheTest() async {
    let store = TestStore(initialState: SlowToStop.State()) { SlowToStop() }
    let task = await store.send(.start)
    await store.send(.stop)
    // Ends while the cancelled effect is still closing up (it takes 300 ms).
    #expect(!task.isFinished)
  }

  /// Collects the failure: the message is what it checks.
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
