import Loom

/// Lets a test store sleep until something happens in the store it tests (an action processed,
/// an effect started, finished, suspended on a test clock or resumed) or a deadline passes.
///
/// It never polls: waiters are resumed by the events themselves. A generation counter closes
/// the gap between checking a condition and starting to wait: a wait for a generation that
/// has already passed returns at once.
@usableFromInline
final class ActivityMonitor: Sendable {
  private struct State {
    var generation: UInt64 = 0
    var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    var nextWaiter: UInt64 = 0
    /// Waits whose deadline passed before they started waiting.
    var expired: Set<UInt64> = []
  }

  private let state = LockedState(State())

  /// The current generation; pass it to ``wait(after:timeout:)``.
  @usableFromInline
  init() {}

  @usableFromInline
  var generation: UInt64 { state.withLock { $0.generation } }

  /// Something happened: wakes every waiter.
  @usableFromInline
  func notify() {
    let waiters = state.withLock { state in
      state.generation += 1
      defer { state.waiters.removeAll() }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }

  /// Waits until something happens after `generation`, or `timeout` passes. Returns `false`
  /// when the wait timed out.
  @usableFromInline
  func wait(after generation: UInt64, timeout: Duration) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    let timer = Task { [weak self] in
      do {
        try await Task.sleep(for: timeout)
        self?.timeOut(id)
      } catch {}
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let result = state.withLock { state -> Bool? in
        if state.generation != generation { return true }
        if state.expired.remove(id) != nil { return false }
        state.waiters[id] = continuation
        return nil
      }
      if let result { continuation.resume(returning: result) }
    }
  }

  private func timeOut(_ id: UInt64) {
    let waiter = state.withLock { state in
      guard let waiter = state.waiters.removeValue(forKey: id) else {
        state.expired.insert(id)
        return CheckedContinuation<Bool, Never>?.none
      }
      return waiter
    }
    waiter?.resume(returning: false)
  }
}
