import Foundation

/// A value protected by a lock: every read and write goes through ``withLock(_:)``.
///
/// Loom uses this rather than `Synchronization.Mutex` because the thread sanitizer cannot see
/// the synchronization inside `Mutex` on Linux (the standard library is not instrumented) and
/// reports false data races, while it understands the `pthread` mutex under `NSLock`.
@usableFromInline
package final class LockedState<Value>: @unchecked Sendable {
  // Safe to share across threads: `value` is only ever read or written inside `withLock`, which
  // holds `lock` for the whole access, so no two threads touch `value` at the same time. (Both
  // are `@usableFromInline` only so that `withLock` can be specialized where it is called.)
  // Not checked for exclusivity at run time (~150 instructions an access, and a thread-local
  // look-up): every access is inside `withLock`, so two accesses can overlap only if `body`
  // calls `withLock` on the same state again, which deadlocks on `lock` before it could overlap.
  @exclusivity(unchecked) @usableFromInline var value: Value
  @usableFromInline let lock = NSLock()

  /// Protects `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
