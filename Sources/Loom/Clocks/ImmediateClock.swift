/// A clock whose sleeps end at once: time jumps straight to each deadline.
///
/// Use it in tests and previews where waiting does not matter, only that the code that waits
/// runs: a debounced search, a retry loop, a timer.
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.continuousClock = ImmediateClock()
/// }
/// ```
public final class ImmediateClock: Clock, Sendable {
  /// A point in the clock's time.
  public struct Instant: InstantProtocol, Sendable, Hashable {
    /// The time since the clock was created.
    public let offset: Duration

    /// Creates an instant at `offset` from the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let current = LockedState(Instant())

  /// Creates a clock at time zero.
  public init() {}

  public var now: Instant { current.withLock { $0 } }
  public var minimumResolution: Duration { .zero }

  /// Moves time to `deadline` (if it is later) and returns at once, on the caller's actor;
  /// throws if the task is cancelled.
  nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration?)
    async throws
  {
    try await sleepOnCaller(until: deadline)
  }

  /// The implementation of ``sleep(until:tolerance:)``, running on the caller's actor: the
  /// yield then lets what is queued on that actor run first without leaving it, so an effect
  /// that sleeps on this clock finishes while the test store is still settling its effects.
  nonisolated(nonsending) func sleepOnCaller(until deadline: Instant) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}
