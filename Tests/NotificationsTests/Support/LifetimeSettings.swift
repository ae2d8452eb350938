import Foundation
import Loom
import Notifications

/// The device's settings for the lifetime model-based test, kept on the main actor: every read
/// and write the feature makes runs there, on the caller's executor, so a seed's reads and
/// writes happen in the same order on every run, and the test reads what is saved without a
/// lock or a race.
///
/// Like a disk, a read or a write takes time: it waits a random time on the test clock (seconds
/// while ``isSlow``, as at a launch on a busy device), reads when it is done and writes when it
/// is done. So what a launch restores races what it does meanwhile, and a write that has not
/// finished when the app is killed is lost. As `SettingsClient` promises, calls are applied in
/// the order made: each finishes after every call made before it.
@MainActor
final class LifetimeSettings {
  /// What is saved, by key, as the feature encoded it.
  private(set) var storage: [String: Data] = [:]
  /// Whether reads and writes take seconds rather than milliseconds.
  var isSlow = false
  private let clock: TestClock
  private var random: SeededRandomNumberGenerator
  private var nextWrite = 0
  /// When the last call made finishes: the next one finishes after it.
  private var lastDeadline: TestClock.Instant?
  /// The writes waiting on the clock, by number: the key each writes.
  private var writes: [Int: String] = [:]
  /// How many reads of each key have finished, over every launch.
  private(set) var readsFinished: [String: Int] = [:]

  init(clock: TestClock, seed: UInt64) {
    self.clock = clock
    self.random = SeededRandomNumberGenerator(seed: seed &+ 0x5E77_1465)
  }

  /// The client every launch uses.
  var client: SettingsClient {
    SettingsClient(
      loadData: { @MainActor key in try await self.load(key) },
      saveData: { @MainActor data, key in try await self.save(data, forKey: key) })
  }

  /// Whether a write of `key` (any key: `nil`) has not finished.
  func isWriting(_ key: String? = nil) -> Bool {
    key.map { key in writes.values.contains(key) } ?? !writes.isEmpty
  }

  /// The value saved under `key`, decoded, or `nil` when there is none or it cannot be read.
  func saved<Value: Decodable>(_ type: Value.Type, forKey key: String) -> Value? {
    storage[key].flatMap { try? JSONDecoder().decode(type, from: $0) }
  }

  /// Forgets the writes of a launch that was killed: they never finish.
  func forgetWritesInFlight() {
    writes = [:]
    lastDeadline = nil
  }

  private func load(_ key: String) async throws -> Data? {
    try await clock.sleep(until: deadline())
    readsFinished[key, default: 0] += 1
    return storage[key]
  }

  private func save(_ data: Data, forKey key: String) async throws {
    nextWrite += 1
    let write = nextWrite
    writes[write] = key
    defer { writes[write] = nil }
    try await clock.sleep(until: deadline())
    // Killed meanwhile: the write is lost.
    guard writes[write] != nil else { throw CancellationError() }
    storage[key] = data
  }

  /// When a call made now finishes: after a random delay, and after the call made before it.
  private func deadline() -> TestClock.Instant {
    let deadline = max(
      lastDeadline.map { $0.advanced(by: .milliseconds(1)) } ?? clock.now,
      clock.now.advanced(by: delay()))
    lastDeadline = deadline
    return deadline
  }

  private func delay() -> Duration {
    .milliseconds(
      isSlow
        ? Int.random(in: 500...3_000, using: &random) : Int.random(in: 0...200, using: &random))
  }
}
