/// A stream of values that a test feeds by hand, for a dependency that returns an `AsyncStream`
/// or an `AsyncThrowingStream`.
///
/// ```swift
/// let updates = TestStream<String>()
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.factClient.updates = { updates.stream }
/// }
/// await store.send(.onAppear)
/// updates.yield("live")
/// await store.receive(.updateReceived("live")) { $0.latest = "live" }
/// updates.finish()
/// await store.finish()
/// ```
///
/// Unlike a stream made with `AsyncStream.makeStream()`, a test store knows that an effect
/// waiting on a `TestStream` can only move on when the test yields to it (or finishes it): a
/// `receive` that waits for such an effect fails at once, saying so, instead of waiting out its
/// timeout.
///
/// Every ``stream`` and ``throwingStream`` reads the same values: each value goes to one reader,
/// the one that has waited longest, or to the next one to ask. ``finish(throwing:)`` ends them
/// all, after the values already yielded.
public final class TestStream<Element: Sendable>: Sendable {
  private struct Waiter {
    let continuation: CheckedContinuation<Result<Element, any Error>?, Never>
    let observer: (any SuspensionObserver)?
  }

  private struct State {
    var buffer: [Element] = []
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
    /// `nil` while open; once finished, the error it finished with, if any.
    var finished: Result<Void, any Error>?
  }

  private let state = LockedState(State())

  /// Creates an open stream with no values.
  public init() {}

  /// The values, as an `AsyncStream`. It ends when the test calls ``finish(throwing:)`` (an
  /// error is dropped) or when the reading task is cancelled.
  public var stream: AsyncStream<Element> {
    AsyncStream { [self] in
      guard let result = await next() else { return nil }
      return try? result.get()
    }
  }

  /// The values, as an `AsyncThrowingStream`: it ends by throwing the error the test finishes it
  /// with, if any.
  public var throwingStream: AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream { [self] in try await next()?.get() }
  }

  /// Gives `element` to the reader that has waited longest, or keeps it for the next one.
  /// Ignored once the stream is finished.
  public func yield(_ element: Element) {
    let waiter = state.withLock { state -> Waiter? in
      guard state.finished == nil else { return nil }
      guard let id = state.waiters.keys.min() else {
        state.buffer.append(element)
        return nil
      }
      return state.waiters.removeValue(forKey: id)
    }
    // Told before resuming, so the effect never looks waiting on the test once it is woken.
    waiter?.observer?.didResume()
    waiter?.continuation.resume(returning: .success(element))
  }

  /// Ends the stream, for every reader, after the values already yielded: with `error`, if given,
  /// thrown by ``throwingStream``.
  public func finish(throwing error: (any Error)? = nil) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.finished == nil else { return [] }
      state.finished = error.map { .failure($0) } ?? .success(())
      defer { state.waiters.removeAll() }
      return state.waiters.sorted { $0.key < $1.key }.map(\.value)
    }
    for waiter in waiters {
      waiter.observer?.didResume()
      waiter.continuation.resume(returning: error.map { .failure($0) })
    }
  }

  /// The next value, `nil` at the end, or the error the stream was finished with.
  private func next() async -> Result<Element, any Error>? {
    let observer = Suspension.current
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let immediate = state.withLock { state -> Result<Element, any Error>?? in
          if !state.buffer.isEmpty { return .some(.success(state.buffer.removeFirst())) }
          if let finished = state.finished {
            // The error ends the stream once; readers after that see the end.
            state.finished = .success(())
            if case .failure(let error) = finished { return .some(.failure(error)) }
            return .some(nil)
          }
          if Task.isCancelled { return .some(nil) }
          // Inside the lock, so it always comes before the `didResume` of the yield that wakes it.
          observer?.willSuspend(on: .testStream)
          state.waiters[id] = Waiter(continuation: continuation, observer: observer)
          return .none
        }
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.observer?.didResume()
      waiter?.continuation.resume(returning: nil)
    }
  }
}
