import Loom

/// A one-shot signal an effect can wait on until another effect or the test fires it.
final class Signal: Sendable {
  private let state = LockedState<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func fire() {
    let waiters = state.withLock { state in
      state.fired = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let fired = state.withLock { state in
        if !state.fired { state.waiters.append(continuation) }
        return state.fired
      }
      if fired { continuation.resume() }
    }
  }
}

/// Waits until `condition` holds, yielding to other tasks; fails after `limit` attempts.
@MainActor
func eventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<limit {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}
