extension Clock where Duration == Swift.Duration {
  /// Suspends for `duration`, like the standard library's `sleep(for:tolerance:)`, but starts
  /// on the caller's actor.
  ///
  /// The standard library's version first switches to the global executor. For a ``TestClock``
  /// that switch would let a test advance the clock before the sleeper is registered; starting
  /// on the caller's actor registers it before the effect's first suspension, so
  /// `await store.send(…)` followed by `await clock.advance(by:)` is deterministic. An
  /// ``ImmediateClock`` likewise returns on the caller's actor.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// try await clock.sleep(for: .seconds(1))
  /// ```
  nonisolated(nonsending) public func sleep(
    for duration: Swift.Duration, tolerance: Swift.Duration? = nil
  ) async throws {
    if let testClock = self as? TestClock {
      try await testClock.sleepOnCaller(until: testClock.now.advanced(by: duration))
    } else if let immediateClock = self as? ImmediateClock {
      try await immediateClock.sleepOnCaller(until: immediateClock.now.advanced(by: duration))
    } else {
      try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
    }
  }
}
