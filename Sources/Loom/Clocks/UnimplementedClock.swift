/// A clock for test values: reports a failure naming the dependency the first time it is used,
/// then behaves like an ``ImmediateClock``.
///
/// ```swift
/// static var testValue: any Clock<Duration> { UnimplementedClock(name: "MyFeature.clock") }
/// ```
public struct UnimplementedClock: Clock, Sendable {
  public typealias Instant = ImmediateClock.Instant

  private let name: String
  private let base = ImmediateClock()

  /// Creates a clock that reports uses as `name`.
  public init(name: String = "Clock") {
    self.name = name
  }

  public var now: Instant { base.now }
  public var minimumResolution: Duration { base.minimumResolution }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    reportUnimplemented(name, fileID: #fileID, line: #line)
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
