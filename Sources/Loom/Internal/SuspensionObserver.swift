/// Observes when the current effect suspends on a controllable clock, so a test store can tell
/// that no effect can make progress until the test advances time.
///
/// A deterministic clock (``TestClock``) calls ``willSuspend()`` right before it parks a sleeper
/// and ``didResume()`` once the sleeper is woken or cancelled. The store runtime installs an
/// observer for each effect task it starts.
@usableFromInline
package protocol SuspensionObserver: AnyObject, Sendable {
  /// The current task is about to suspend until a clock is advanced.
  func willSuspend()
  /// The task that suspended has been woken (or cancelled) and will run again.
  func didResume()
  /// Whether the effect is waiting on a test clock again, or has finished.
  var isSettled: Bool { get }
}

@usableFromInline
package enum Suspension {
  /// The observer for the current effect task, if a store runtime installed one.
  @TaskLocal package static var observer: (any SuspensionObserver)?

  /// Runs `operation` with `observer` as the current task's observer (for inlinable callers,
  /// which cannot name the task-local's projection).
  @usableFromInline
  package static func withObserver<R>(
    _ observer: any SuspensionObserver, operation: () throws -> R
  ) rethrows -> R {
    try $observer.withValue(observer, operation: operation)
  }
}
