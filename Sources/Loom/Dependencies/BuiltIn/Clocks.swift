extension DependencyValues {
  /// A continuous clock. Live: `ContinuousClock()`. Tests must choose, e.g. a ``TestClock``
  /// or an ``ImmediateClock``.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// try await clock.sleep(for: .seconds(1))
  /// ```
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A suspending clock. Live: `SuspendingClock()`. Tests must choose, like
  /// ``continuousClock``.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock(name: #"@Dependency(\.continuousClock)"#)
  }
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock(name: #"@Dependency(\.suspendingClock)"#)
  }
}
