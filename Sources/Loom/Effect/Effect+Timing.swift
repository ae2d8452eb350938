extension Effect {
  /// Returns an effect that waits `duration` on `clock` before it runs, and that is cancelled and
  /// started again each time another debounced effect with the same id arrives within that time.
  ///
  /// Only the last effect of a burst runs. Inject the clock as a dependency so tests control time
  /// with a `TestClock`.
  ///
  /// ```swift
  /// case .searchQueryChanged(let query):
  ///   state.query = query
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  @_disfavoredOverload
  public func debounce<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C
  ) -> Self {
    debounced(id: id, for: duration, clock: clock)
  }

  private func debounced<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C
  ) -> Self {
    if case .none = operation { return self }
    @Sendable nonisolated(nonsending) func wait(_: Send<Action>) async throws {
      try await sleep(clock, for: duration)
    }
    let delayed: Self
    if case .run(let run) = operation {
      // Fuse the wait into the operation: one task instead of a sequencing task and two steps.
      let operation = run.operation
      @Sendable nonisolated(nonsending) func waitThenRun(_ send: Send<Action>) async throws {
        try await sleep(clock, for: duration)
        try await operation(send)
      }
      delayed = Self(
        operation: .run(
          Run(
            priority: run.priority, operation: waitThenRun, handler: run.handler,
            fileID: run.fileID, line: run.line)
        )
      )
    } else {
      delayed = .concatenate(
        Self(
          operation: .run(
            Run(priority: nil, operation: wait, handler: nil, fileID: #fileID, line: #line))),
        self)
    }
    return delayed.cancellable(id: id, cancelInFlight: true)
  }

  /// Returns an effect that runs at most once per `duration` for the given id.
  ///
  /// The first effect runs at once and opens a window of `duration`. Effects that arrive while
  /// the window is open are held back; when it closes, the latest one (or, with `latest: false`,
  /// the first one) runs and opens a new window. Cancelling `id` drops the held-back effect and
  /// closes the window.
  ///
  /// ```swift
  /// case .scrolled(let offset):
  ///   return .send(.loadMoreIfNeeded(offset))
  ///     .throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
  /// ```
  @_disfavoredOverload
  public func throttle<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    throttled(id: id, for: duration, clock: clock, latest: latest)
  }

  private func throttled<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    if case .none = operation { return self }
    @Sendable nonisolated(nonsending) func wait() async throws {
      try await sleep(clock, for: duration)
    }
    return Self(
      operation: .throttle(
        Throttle(
          id: EffectID(id),
          latest: latest,
          sleep: wait,
          effect: self
        )
      )
    )
  }
}

extension Effect {
  /// ``debounce(id:for:clock:)`` for a clock held as `any Clock<Duration>`, as the
  /// `continuousClock` dependency is.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// return effect.debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>
  ) -> Self {
    debounced(id: id, for: duration, clock: ErasedClock(base: clock))
  }

  /// ``throttle(id:for:clock:latest:)`` for a clock held as `any Clock<Duration>`.
  ///
  /// ```swift
  /// return effect.throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
  /// ```
  public func throttle(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    throttled(id: id, for: duration, clock: ErasedClock(base: clock), latest: latest)
  }
}

/// Wraps `any Clock<Duration>` so generic timing operators can use it; its `sleep(for:)` goes
/// through the caller-actor overload so test clocks register sleepers in place.
struct ErasedClock: Clock {
  struct Instant: InstantProtocol {
    let offset: Duration
    func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  let base: any Clock<Duration>

  var now: Instant { Instant(offset: .zero) }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await base.sleep(for: deadline.offset, tolerance: tolerance)
  }
}

/// Sleeps on `clock` for `duration`, starting on the caller's actor: an erased clock forwards to
/// the clock it wraps so a ``TestClock`` registers the sleeper before the caller suspends.
///
/// The clocks that sleep on the caller's actor are told apart by casts to their own types: a
/// cast to `any Clock<Duration>` costs ~11,000 instructions (the run time demangles the
/// constraint at every such cast), and `Clock.sleep(for:tolerance:)` tells no other clock apart.
nonisolated(nonsending) func sleep<C: Clock>(_ clock: C, for duration: C.Duration) async throws {
  if let erased = clock as? ErasedClock, let duration = duration as? Duration {
    try await erased.base.sleep(for: duration)
  } else if let testClock = clock as? TestClock, let duration = duration as? Duration {
    try await testClock.sleep(for: duration)
  } else if let immediateClock = clock as? ImmediateClock, let duration = duration as? Duration {
    try await immediateClock.sleep(for: duration)
  } else {
    try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
  }
}
