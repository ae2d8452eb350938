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
  public func debounce<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C
  ) -> Self {
    if case .none = operation { return self }
    let wait = Self.run { _ in try await clock.sleep(for: duration) }
    let delayed: Self
    if case .run(let run) = operation {
      // Fuse the wait into the operation: one task instead of a sequencing task and two steps.
      let operation = run.operation
      delayed = Self(
        operation: .run(
          Run(
            priority: run.priority,
            operation: { send in
              try await clock.sleep(for: duration)
              try await operation(send)
            },
            handler: run.handler,
            fileID: run.fileID,
            line: run.line
          )
        )
      )
    } else {
      delayed = .concatenate(wait, self)
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
  public func throttle<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    if case .none = operation { return self }
    return Self(
      operation: .throttle(
        Throttle(
          id: EffectID(id),
          latest: latest,
          sleep: { try await clock.sleep(for: duration) },
          effect: self
        )
      )
    )
  }
}
