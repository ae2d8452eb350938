import Foundation
import Loom
import LoomTesting
import Testing

/// The timing scenarios of every effect kind, run many times in a row with two threads spinning
/// beside them, so the runtime's threads compete for the CPU the way they do on a loaded machine.
/// Any disagreement fails the test.
///
/// It runs only when `LOOM_TIMING_RUNS` says how many times to run each scenario on each kind of
/// store, in a run of its own: its spinning threads would slow every other test of a whole
/// `swift test` run. CI runs it with 200; the check that the runtime holds runs 1,000:
///
///     LOOM_TIMING_RUNS=1000 swift test --filter EffectTimingStressTests
@MainActor
@Suite(.serialized, .enabled(if: timingStressRuns > 0))
struct EffectTimingStressTests {
  static let runs = timingStressRuns

  @Test(arguments: TimingScenario.all)
  func underLoad(_ scenario: TimingScenario) async {
    let loops = BusyLoops(count: 2)
    defer { loops.stop() }
    var disagreements: [String] = []
    let failures = Locked<[String]>([])
    for _ in 0..<Self.runs {
      disagreements += await scenario.runOnStore()
      disagreements += await scenario.runOnTestStore(
        failureReporter: .collecting { failure in failures.append(failure.message) })
    }
    #expect(disagreements == [], "\(disagreements.count) disagreements in \(Self.runs) runs")
    #expect(failures.value == [], "\(failures.value.count) failures in \(Self.runs) runs")
  }
}
