
/// Counts the in-flight effects started by one `send` (and, transitively, by the actions those
/// effects send) so that `StoreTask.finish()` can wait for all of them.
@usableFromInline
final class EffectGroup: Sendable {
  private struct State {
    var count = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = LockedState(State())
  /// The group of the `send` this group belongs to: a step of a `.concatenate` gets a group of
  /// its own, whose parent is the group of the action that returned the `.concatenate`.
  let parent: EffectGroup?

  @usableFromInline
  init(parent: EffectGroup? = nil) {
    self.parent = parent
  }

  /// The group of the `send` that started this group's effects, directly or through steps.
  var root: EffectGroup {
    var group = self
    while let parent = group.parent { group = parent }
    return group
  }

  /// One more effect is in flight.
  func enter() {
    state.withLock { $0.count += 1 }
  }

  /// One effect finished; wakes the waiters when none is left.
  func leave() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Whether no effect of the group is in flight.
  var isEmpty: Bool {
    state.withLock { $0.count == 0 }
  }

  /// Suspends until no effect of the group is in flight.
  @usableFromInline
  nonisolated(nonsending) func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isDone = state.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if isDone { continuation.resume() }
    }
  }
}
