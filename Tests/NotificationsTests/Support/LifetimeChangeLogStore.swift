import Foundation
import Loom
import Notifications

/// The device's saved change log for the lifetime model-based test, kept on the main actor as
/// ``LifetimeSettings`` keeps the settings: a load or a write takes a random time on the test
/// clock (seconds while ``isSlow``), so what a launch restores races what it does meanwhile, and
/// a write that has not finished when the app is killed is lost.
///
/// As ``ChangeLogStore`` promises, calls are applied in the order they are made: each waits for
/// the one before it, then for its own time.
@MainActor
final class LifetimeChangeLogStore {
  /// What is saved: the rows as a store in memory keeps them.
  private let rows = ChangeLogStore.inMemory()
  /// Whether loads and writes take seconds rather than milliseconds.
  var isSlow = false
  private let clock: TestClock
  private var random: SeededRandomNumberGenerator
  /// When the last call made finishes: the next one finishes after it.
  private var lastDeadline: TestClock.Instant?
  /// The calls not finished, by number. A killed launch's never finish.
  private var inFlight: Set<Int> = []
  private var nextCall = 0
  /// How many loads have finished, over every launch.
  private(set) var loadsFinished = 0

  init(clock: TestClock, seed: UInt64) {
    self.clock = clock
    self.random = SeededRandomNumberGenerator(seed: seed &+ 0x106_5707)
  }

  /// The store every launch uses.
  var store: ChangeLogStore {
    ChangeLogStore(
      load: { @MainActor in try await self.perform { try await self.rows.load() } },
      write: { @MainActor writes in
        try await self.perform { try await self.rows.write(writes) }
      })
  }

  /// The log saved, as a launch would load it.
  func saved() async -> ChangeLog {
    (try? await rows.load()) ?? ChangeLog()
  }

  /// Whether a write (or a load) has not finished.
  var isWriting: Bool { !inFlight.isEmpty }

  /// Forgets the calls of a launch that was killed: they never finish.
  func forgetCallsInFlight() {
    inFlight = []
    lastDeadline = nil
  }

  /// Runs `body` after every call made before, and after a random time of its own, unless the
  /// app is killed meanwhile. The caller sleeps on the clock itself (no task of its own), until
  /// a deadline after every earlier call's, so the clock wakes calls in the order made.
  private func perform<Value: Sendable>(_ body: @MainActor () async throws -> Value)
    async throws -> Value
  {
    nextCall += 1
    let number = nextCall
    inFlight.insert(number)
    let deadline = max(
      lastDeadline.map { $0.advanced(by: .milliseconds(1)) } ?? clock.now,
      clock.now.advanced(by: delay()))
    lastDeadline = deadline
    try? await clock.sleep(until: deadline)
    // Killed meanwhile: the call never finishes.
    guard inFlight.remove(number) != nil else { throw CancellationError() }
    return try await body()
  }

  private func delay() -> Duration {
    .milliseconds(
      isSlow
        ? Int.random(in: 500...3_000, using: &random) : Int.random(in: 0...200, using: &random))
  }
}
