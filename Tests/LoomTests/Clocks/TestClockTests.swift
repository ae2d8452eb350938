import Loom
import Testing

@MainActor
struct TestClockTests {
  /// swift-clocks' TestClock suspends a zero-length sleep until the next advance, and tests
  /// ported from TCA rely on it (a `Task.yield` stand-in that the test controls).
  @Test func aSleepUntilNowWaitsForTheNextAdvance() async {
    let clock = TestClock()
    let woke = Locked(false)
    let task = Task {
      try await clock.sleep(for: .zero)
      woke.withValue { $0 = true }
    }
    for _ in 0..<20 { await Task.yield() }
    #expect(woke.value == false)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .zero)
    try? await task.value
    #expect(woke.value == true)
  }

  @Test func aSleepUntilADeadlineAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(5))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    #expect(clock.sleeperCount == 0)
  }
}
