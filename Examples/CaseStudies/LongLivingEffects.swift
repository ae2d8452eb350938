// A long-living effect: when the screen appears (`.task`, sent from the view's `.task` modifier
// and awaited there), the feature subscribes to a stream of screenshot events from a dependency
// and counts them. The subscription lives as long as that effect: when the view goes away,
// SwiftUI cancels its task, which cancels the effect, and events stop being counted.
import Loom

extension DependencyValues {
  var screenshots: @Sendable () -> AsyncStream<Void> {
    get { self[ScreenshotsKey.self] }
    set { self[ScreenshotsKey.self] = newValue }
  }
}

private enum ScreenshotsKey: DependencyKey {
  // On iOS this maps `UIApplication.userDidTakeScreenshotNotification` into the stream; there is
  // no such notification here, so the live stream stays open and silent. No test value: a test
  // that forgets to supply one fails, naming the key.
  static let liveValue: @Sendable () -> AsyncStream<Void> = { AsyncStream { _ in } }
}

struct LongLivingEffects: Reducer {
  struct State: Equatable { var screenshotCount = 0 }
  enum Action: Sendable, Equatable { case task, userDidTakeScreenshot }
  @Dependency(\.screenshots) var screenshots

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .run { send in
        for await _ in screenshots() { await send(.userDidTakeScreenshot) }
      }
    case .userDidTakeScreenshot:
      state.screenshotCount += 1
      return .none
    }
  }
}
