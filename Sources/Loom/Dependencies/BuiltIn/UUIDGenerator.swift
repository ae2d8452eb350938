import Foundation

extension DependencyValues {
  /// Generates UUIDs. Live: random UUIDs. Tests must choose, e.g. ``UUIDGenerator/incrementing``.
  ///
  /// ```swift
  /// @Dependency(\.uuid) var uuid
  /// let id = uuid()
  /// ```
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static var testValue: UUIDGenerator {
    UUIDGenerator {
      reportUnimplemented(#"@Dependency(\.uuid)"#, fileID: #fileID, line: #line)
      return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
  }
}

/// A source of UUIDs.
///
/// ```swift
/// let uuid = UUIDGenerator.incrementing
/// let first = uuid()    // 00000000-0000-0000-0000-000000000000
/// let second = uuid()   // 00000000-0000-0000-0000-000000000001
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns the next UUID.
  public func callAsFunction() -> UUID { generate() }

  /// A generator of random (version 4) UUIDs from the system's secure random source, the live
  /// value of `uuid`.
  ///
  /// `UUID()` opens and reads `/dev/urandom` on each call on Linux (about 1 µs and three
  /// system calls); this asks the kernel for the random bits only.
  public static var random: Self {
    Self {
      var generator = SystemRandomNumberGenerator()
      return UUID(randomBits: (generator.next(), generator.next()))
    }
  }

  /// A generator that always returns `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// A generator of `00000000-0000-0000-0000-000000000000`, `…0001`, `…0002`, and so on. Each
  /// use of the property makes a new generator that starts at zero.
  public static var incrementing: Self {
    let counter = LockedState<UInt64>(0)
    return Self {
      let value = counter.withLock { value -> UInt64 in
        defer { value += 1 }
        return value
      }
      return UUID(value)
    }
  }
}

extension UUID {
  /// A version 4 UUID from 128 random bits: the version and variant bits are set, as RFC 9562
  /// asks, and the other 122 are `bits`.
  package init(randomBits bits: (UInt64, UInt64)) {
    func byte(_ word: UInt64, _ index: UInt64) -> UInt8 {
      UInt8(truncatingIfNeeded: word >> (56 - 8 * index))
    }
    let (high, low) = bits
    self.init(
      uuid: (
        byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
        byte(high, 4), byte(high, 5), (byte(high, 6) & 0x0F) | 0x40, byte(high, 7),
        (byte(low, 0) & 0x3F) | 0x80, byte(low, 1), byte(low, 2), byte(low, 3),
        byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
      ))
  }

  /// The UUID that ``UUIDGenerator/incrementing`` returns on its call number `value`, counting
  /// from zero: its last 64 bits are `value`, e.g. `UUID(10)` is
  /// `00000000-0000-0000-0000-00000000000A`.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Reminders.State()) { Reminders() } withDependencies: {
  ///   $0.uuid = .incrementing
  /// }
  /// await store.send(.addTapped) { $0.reminders = [Reminder(id: UUID(0))] }
  /// ```
  public init(_ value: UInt64) {
    func byte(_ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
    self.init(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0,
        byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7)
      ))
  }
}
