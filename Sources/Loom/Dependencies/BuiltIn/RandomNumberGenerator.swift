
extension DependencyValues {
  /// A random number generator. Live: the system generator. Tests choose a seeded one so
  /// jitter and shuffles are exact.
  ///
  /// ```swift
  /// @Dependency(\.randomNumberGenerator) var random
  /// let jitter = random { Double.random(in: 0..<1, using: &$0) }
  /// ```
  public var randomNumberGenerator: WithRandomNumberGenerator {
    get { self[RandomNumberGeneratorKey.self] }
    set { self[RandomNumberGeneratorKey.self] = newValue }
  }
}

private enum RandomNumberGeneratorKey: DependencyKey {
  static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())
  static var testValue: WithRandomNumberGenerator {
    reportUnimplemented(#"@Dependency(\.randomNumberGenerator)"#, fileID: #fileID, line: #line)
    return WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 0))
  }
}

/// A random number generator shared safely between tasks.
///
/// ```swift
/// let random = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 42))
/// let value = random { Int.random(in: 1...6, using: &$0) }
/// ```
public final class WithRandomNumberGenerator: Sendable {
  private let generator: LockedState<any RandomNumberGenerator & Sendable>

  /// Wraps a generator.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = LockedState(generator)
  }

  /// Runs `body` with exclusive access to the generator.
  public func callAsFunction<R: Sendable>(_ body: (inout any RandomNumberGenerator) -> R) -> R {
    generator.withLock { generator in
      func run<G: RandomNumberGenerator & Sendable>(_ concrete: inout G) -> R {
        var erased: any RandomNumberGenerator = concrete
        defer { if let updated = erased as? G { concrete = updated } }
        return body(&erased)
      }
      return run(&generator)
    }
  }
}

/// A deterministic generator (SplitMix64): the same seed gives the same sequence everywhere.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let roll = Int.random(in: 1...6, using: &generator)
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator that produces the sequence of `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
