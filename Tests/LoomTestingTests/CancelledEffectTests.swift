import Foundation
import Loom
import LoomTesting
import Testing

/// An effect that takes a while to stop once cancelled, like one that closes a connection.
struct SlowToStop: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, stop }
  enum CancelID { case work }
  /// How long closing up after the cancellation takes, in seconds of real time.
  var closingTime: Double = 0.3

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if action == .stop { return .cancel(id: CancelID.work) }
    return .run { [closingTime] _ in
      do {
        try await Task.sleep(for: .seconds(3_600))
      } catch {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().asyncAfter(deadline: .now() + closingTime) {
            continuation.resume()
          }
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
    // Closing up takes a minute, so the test certainly ends before it: with 300 ms, a loaded
    // machine (CI, the sanitizer) sometimes finished it within the send of `.stop`.
    let store = TestStore(initialState: SlowToStop.State()) { SlowToStop(closingTime: 60) }
    let task = await store.send(.start)
    await store.send(.stop)
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
    let messages: [String] = log.messages
    let first: String = messages.first ?? ""
    #expect(
      first.hasPrefix("Expected effects to finish, but they were still running after 0.05 seconds."),
      "\(messages)")
    await task.cancel()
  }
}
