import Foundation
import Loom
import Testing

/// `nonisolated(nonsending)` reports the isolation it runs with.
nonisolated(nonsending) private func runningIsolation() async -> String {
  #isolation.map { "\(type(of: $0))" } ?? "none"
}

nonisolated(nonsending) private func isolationInsideAHandler() async -> String {
  await withTaskCancellationHandler {
    await runningIsolation()
  } onCancel: {
  }
}

private func isolationInsideAHandler(
  capturing isolation: isolated (any Actor)? = #isolation
) async -> String {
  await withTaskCancellationHandler {
    _ = isolation
    return await runningIsolation()
  } onCancel: {
  }
}

@MainActor
struct StoreTaskFinishTests {
  /// Why `StoreTask.finish()` and `TestClock` wait inside a closure that captures an isolated
  /// parameter: without it, Swift 6.3 runs the operation of `withTaskCancellationHandler` on the
  /// global executor, and the caller comes back to its actor one hop after the effects ended.
  /// If a toolchain changes this, the first expectation tells.
  @Test func aCancellationHandlersOperationRunsOnTheCallersActorOnlyWhenItCapturesIt() async {
    #expect(await isolationInsideAHandler() == "none")
    #expect(await isolationInsideAHandler(capturing: #isolation) == "MainActor")
  }

  struct Sleeper: Reducer {
    struct State: Equatable { var woke = false }
    enum Action: Sendable, Equatable { case start, woke }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.woke)
        }
      case .woke:
        state.woke = true
        return .none
      }
    }
  }

  /// A task cancelled from another thread runs its cancellation handler there; the effect
  /// itself ends on the main actor. The next `advance` waits for it, so the test sees the
  /// effect gone, and nothing it would have sent, however loaded the machine (with
  /// `LOOM_TIMING_RUNS` set, two threads spin beside it, as in `EffectTimingStressTests`).
  @Test func anEffectCancelledFromAnotherThreadHasEndedWhenTheNextAdvanceReturns() async {
    let loops = timingStressRuns > 0 ? BusyLoops(count: 2) : nil
    defer { loops?.stop() }
    var inFlight: [Int: Int] = [:]
    for _ in 0..<200 {
      let clock = TestClock()
      let store = Store(initialState: Sleeper.State()) { Sleeper(clock: clock) }
      let task = store.send(.start)
      await Thread.detachedAndJoined { task.cancel() }
      await clock.advance(by: .seconds(1))
      inFlight[store.inFlightEffectCount, default: 0] += 1
      #expect(store.state.woke == false)
    }
    #expect(inFlight == [0: 200])
  }
}

extension Thread {
  /// Runs `body` on a new thread and waits until it has returned.
  static func detachedAndJoined(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        body()
        continuation.resume()
      }.start()
    }
  }
}

/// An action sent to a store while it processes a batch (by an effect that starts in place and
/// reaches the store) waits in its queue; the task its send returns waits for it, and then for
/// its effects. (It was finished at once: the queued action's group had no effect in it yet.)
@MainActor
struct StoreTaskFinishDuringABatchTests {
  @Test func theTaskOfAnActionQueuedDuringABatchWaitsForItsEffects() async {
    let clock = TestClock()
    let ref = Forwarder.StoreRef()
    let store = Store(initialState: Forwarder.State()) { Forwarder(ref: ref, clock: clock) }
    ref.store = store
    store.send(.start)
    #expect(store.state.loading)
    #expect(!ref.finishedLoad)
    await clock.advance(by: .seconds(1))
    #expect(store.state.loaded)
    // The effect of `.start` resumes once the task of `.load` has finished.
    await store.send(.noop).finish()
    for _ in 0..<100 where !ref.finishedLoad { await Task.yield() }
    #expect(ref.finishedLoad)
  }

  struct Forwarder: Reducer {
    @MainActor final class StoreRef {
      var store: Store<State, Action>?
      var finishedLoad = false

      func sendLoadAndWait() async {
        await store?.send(.load).finish()
        finishedLoad = true
      }
    }

    struct State: Equatable {
      var loading = false
      var loaded = false
    }
    enum Action: Sendable, Equatable { case start, load, loaded, noop }
    let ref: StoreRef
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [ref] _ in await ref.sendLoadAndWait() }
      case .load:
        state.loading = true
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded)
        }
      case .loaded:
        state.loaded = true
        return .none
      case .noop:
        return .none
      }
    }
  }
}
