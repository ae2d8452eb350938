import Loom
import LoomTesting
import Testing

/// Every effect kind the runtime interprets, on a `TestClock`: right after `advance` returns,
/// every consequence of the ticks it made has happened (each event sent, each next step of a
/// `.concatenate` started and sleeping), on a plain `Store` and on a `TestStore`.
@MainActor
struct EffectTimingTests {
  @Test(arguments: TimingScenario.all)
  func onAStore(_ scenario: TimingScenario) async {
    let disagreements = await scenario.runOnStore()
    #expect(disagreements == [])
  }

  @Test(arguments: TimingScenario.all)
  func onATestStore(_ scenario: TimingScenario) async {
    let disagreements = await scenario.runOnTestStore()
    #expect(disagreements == [])
  }
}
