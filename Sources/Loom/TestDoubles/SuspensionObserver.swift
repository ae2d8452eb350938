/// Observes when the current effect suspends on something only the test can move on (a test
/// clock, a test stream, a test continuation), so a test store can tell that no effect can make
/// progress until the test acts.
///
/// A ``TestClock`` calls ``willSuspend(on:)`` right before it parks a sleeper and
/// ``didResume()`` as it wakes or cancels the sleeper; ``TestStream`` and ``TestContinuation`` do
/// the same for a consumer waiting on them. The store runtime installs an observer for each
/// effect task it starts.
@usableFromInline
package protocol SuspensionObserver: AnyObject, Sendable {
  /// The current task is about to suspend until the test moves `reason` on.
  func willSuspend(on reason: SuspensionReason)
  /// The task that suspended has been woken (or cancelled) and will run again. Called by the
  /// waker, before the woken task runs, so that the task never looks suspended once woken.
  func didResume()
  /// Whether the effect is suspended on something only the test moves again, or has finished.
  var isSettled: Bool { get }
  /// Whether the current task is the effect's own. A task the effect started (a task group's
  /// child, a `Task`) inherits the observer, but its waits do not count: while it waits on the
  /// test, the effect's own task may be working (racing a fetch against a test clock's timeout).
  var isCurrentTaskTheEffects: Bool { get }
  /// Makes the current task the effect's own (called by the effect's task as it starts).
  func claimCurrentTask()
}

extension SuspensionObserver {
  /// Every task counts as the effect's.
  package var isCurrentTaskTheEffects: Bool { true }
  package func claimCurrentTask() {}
}

/// What an effect waits on when only the test can wake it.
@usableFromInline
package enum SuspensionReason: Sendable, Equatable {
  case testClock
  case testStream
  case testContinuation

  /// How a failure message names it: "a test clock".
  package var description: String {
    switch self {
    case .testClock: "a test clock"
    case .testStream: "a test stream"
    case .testContinuation: "a test continuation"
    }
  }
}

@usableFromInline
package enum Suspension {
  /// The observer for the current effect task, if a store runtime installed one.
  @TaskLocal package static var observer: (any SuspensionObserver)?

  /// Runs `operation` with `observer` as the current task's observer (for inlinable callers,
  /// which cannot name the task-local's projection).
  /// The observer of the current task's suspensions: the effect's, if this is the effect's own
  /// task (see ``SuspensionObserver/isCurrentTaskTheEffects``).
  package static var current: (any SuspensionObserver)? {
    guard let observer, observer.isCurrentTaskTheEffects else { return nil }
    return observer
  }

  /// Makes the current task the effect's own, for the observer it inherited (for inlinable
  /// callers).
  @usableFromInline
  package static func claimCurrentTask() {
    observer?.claimCurrentTask()
  }

  /// Whether the current task has an observer.
  @usableFromInline
  package static var hasObserver: Bool { observer != nil }

  @usableFromInline
  package static func withObserver<R>(
    _ observer: any SuspensionObserver, operation: () throws -> R
  ) rethrows -> R {
    try $observer.withValue(observer, operation: operation)
  }
}
