/// Suspends until the current task is cancelled (at once if it already is).
@usableFromInline
func waitUntilCancelled() async {
  // The continuation, until the task is cancelled; `cancelled` once it is, whichever of the two
  // (suspending, the cancellation handler) comes second resumes it, exactly once.
  enum Waiter: Sendable {
    case idle
    case waiting(CheckedContinuation<Void, Never>)
    case cancelled
  }
  let waiter = LockedState(Waiter.idle)
  await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isCancelled = waiter.withLock { waiter -> Bool in
        if case .cancelled = waiter { return true }
        waiter = .waiting(continuation)
        return false
      }
      if isCancelled { continuation.resume() }
    }
  } onCancel: {
    let continuation = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
      defer { waiter = .cancelled }
      if case .waiting(let continuation) = waiter { return continuation }
      return nil
    }
    continuation?.resume()
  }
}
