import Foundation

/// Counts the in-flight effects started by one `send` (and, transitively, by the actions those
/// effects send) so that `StoreTask.finish()` can wait for all of them.
///
/// Every group's count is guarded by one lock that all groups share: a send that starts effects
/// makes a group, and a lock of its own cost three more allocations (the lock's object, its
/// mutex and the object holding both) and their release, at every such send. What the lock
/// guards is a few instructions long and never calls out, so groups hardly ever wait on it.
@usableFromInline
final class EffectGroup: @unchecked Sendable {
  // Safe to share across threads: `state` is read and written only while `Self.lock` is held
  // (`withState`), so no two threads touch it at the same time. Not checked for exclusivity at
  // run time (as `LockedState`'s value is not): every access is inside `withState`, whose
  // bodies never call out, so no two accesses overlap.
  private struct State {
    var count = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  @exclusivity(unchecked) private var state = State()
  /// The lock of every group's `state` (an `NSLock`, as `LockedState`'s, which the thread
  /// sanitizer sees).
  private static let lock = NSLock()

  private func withState<Result>(_ body: (inout State) -> Result) -> Result {
    Self.lock.lock()
    defer { Self.lock.unlock() }
    return body(&state)
  }
  /// The group of the `send` this group belongs to: a step of a `.concatenate` gets a group of
  /// its own, whose parent is the group of the action that returned the `.concatenate`.
  @usableFromInline let parent: EffectGroup?
  /// For the group of a step of a `.concatenate`, the runtime's id of the sequence, which starts
  /// its next step when this group empties; 0 for any other group.
  @usableFromInline let sequenceID: UInt64

  @usableFromInline
  init() {
    self.parent = nil
    self.sequenceID = 0
  }

  /// The group of one step of the sequence `sequenceID`, started for the `send` of `parent`.
  @usableFromInline
  init(stepOf sequenceID: UInt64, in parent: EffectGroup) {
    self.parent = parent
    self.sequenceID = sequenceID
  }

  /// The group of the `send` that started this group's effects, directly or through steps:
  /// the group the actions those effects send are processed in.
  ///
  /// A step's group counts the step's own effects only, so that the step is finished once they
  /// are (as TCA's `.concatenate` starts the next effect once the one before completes), and
  /// cancelling the sequence cancels them only: the effects of an action a step sent belong to
  /// that action's feature (a parent's, for a child's delegate action). They count in the send's
  /// group, which `StoreTask.finish()` waits for.
  @inlinable
  var root: EffectGroup {
    var group = self
    while let parent = group.parent { group = parent }
    return group
  }

  /// One more effect is in flight.
  @usableFromInline
  func enter() {
    withState { $0.count += 1 }
  }

  /// One effect finished; wakes the waiters when none is left. Returns whether none is left.
  @usableFromInline
  func leave() -> Bool {
    let (isEmpty, waiters) = withState { state -> (Bool, [CheckedContinuation<Void, Never>]) in
      state.count -= 1
      guard state.count == 0 else { return (false, []) }
      defer { state.waiters.removeAll() }
      return (true, state.waiters)
    }
    for waiter in waiters { waiter.resume() }
    return isEmpty
  }

  /// Whether no effect of the group is in flight.
  @usableFromInline
  var isEmpty: Bool {
    withState { $0.count == 0 }
  }

  /// Suspends until no effect of the group is in flight.
  @usableFromInline
  nonisolated(nonsending) func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isDone = withState { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if isDone { continuation.resume() }
    }
  }
}
