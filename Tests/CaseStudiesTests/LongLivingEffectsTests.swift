import Loom
import LoomTesting
import Testing

@testable import CaseStudies

@MainActor
struct LongLivingEffectsTests {
  @Test func screenshotsAreCountedWhileTheViewIsUp() async {
    let screenshots = TestStream<Void>()
    let store = TestStore(initialState: LongLivingEffects.State()) {
      LongLivingEffects()
    } withDependencies: {
      $0.screenshots = { screenshots.stream }
    }
    let task = await store.send(.task)
    screenshots.yield(())
    await store.receive(.userDidTakeScreenshot) { $0.screenshotCount = 1 }
    screenshots.yield(())
    await store.receive(.userDidTakeScreenshot) { $0.screenshotCount = 2 }

    // The view goes away: its task is cancelled, and so is the subscription. A screenshot taken
    // now is not counted (the test would fail on an unreceived action or a running effect).
    await task.cancel()
    screenshots.yield(())
  }
}
