/// A value a test provides when it chooses, for a dependency whose answer the test wants to hold
/// back: to assert what the feature shows while a request is in flight, or to decide in which
/// order two requests finish.
///
/// ```swift
/// let page = TestContinuation<[String]>()
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.feedClient.fetch = { try await page.value }
/// }
/// await store.send(.refreshTapped) { $0.isLoading = true }
/// page.resume(returning: ["a"])
/// await store.receive(.loaded(["a"])) {
///   $0.isLoading = false
///   $0.items = ["a"]
/// }
/// ```
///
/// A test store knows that an effect waiting on a `TestContinuation` can only move on when the
/// test resumes it: a `receive` that waits for such an effect fails at once, saying so, instead
/// of waiting out its timeout.
///
/// Every task that awaits ``value`` gets the same result; once resumed, ``value`` returns it at
/// once. Resuming a second time is ignored.
public final class TestContinuation<Value: Sendable>: Sendable {
  private struct Waiter {
    let continuation: CheckedContinuation<Result<Value, any Error>, Never>
    let observer: (any SuspensionObserver)?
  }

  private struct State {
    var result: Result<Value, any Error>?
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
  }

  private let state = LockedState(State())

  /// Creates a continuation the test has not resumed yet.
  public init() {}

  /// The value the test resumes with: suspends until then. Throws the error the test resumes
  /// with, or `CancellationError` if the waiting task is cancelled first.
  public var value: Value {
    get async throws {
      let observer = Suspension.current
      let id = state.withLock { state in
        state.nextWaiter += 1
        return state.nextWaiter
      }
      let result = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let result = state.withLock { state -> Result<Value, any Error>? in
            if let result = state.result { return result }
            if Task.isCancelled { return .failure(CancellationError()) }
            // Inside the lock, so it always comes before the `didResume` of the resume that
            // wakes it.
            observer?.willSuspend(on: .testContinuation)
            state.waiters[id] = Waiter(continuation: continuation, observer: observer)
            return nil
          }
          if let result { continuation.resume(returning: result) }
        }
      } onCancel: {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.observer?.didResume()
        waiter?.continuation.resume(returning: .failure(CancellationError()))
      }
      return try result.get()
    }
  }

  /// Resumes every task awaiting ``value``, and every later one, with `value`.
  public func resume(returning value: Value) {
    resume(with: .success(value))
  }

  /// Resumes every task awaiting ``value``, and every later one, by throwing `error`.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  private func resume(with result: Result<Value, any Error>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.result == nil else { return [] }
      state.result = result
      defer { state.waiters.removeAll() }
      return state.waiters.sorted { $0.key < $1.key }.map(\.value)
    }
    for waiter in waiters {
      // Told before resuming, so the effect never looks waiting on the test once it is woken.
      waiter.observer?.didResume()
      waiter.continuation.resume(returning: result)
    }
  }
}

extension TestContinuation where Value == Void {
  /// Resumes every task awaiting ``value``.
  public func resume() {
    resume(returning: ())
  }
}
