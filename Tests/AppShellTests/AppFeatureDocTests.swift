import AppShell
import Loom
import Notifications
import Testing

/// The snippet of `AppFeature`'s doc comment, run with a push client that is not authorized.
@MainActor
struct AppFeatureDocTests {
  @Test func theDocumentedStoreLaunchesTheShell() async {
    await withDependencies {
      $0.pushClient.authorizationStatus = { .denied }
      $0.pushClient.deviceTokens = { AsyncStream { $0.finish() } }
    } operation: {
      // snippet: AppFeature
      let store = Store(initialState: AppFeature.State()) { AppFeature() }
      store.send(.launched)
      // snippet: end
      #expect(store.state.isReady)
      await store.send(.tabSelected(.contacts)).finish()
      #expect(store.state.selectedTab == .contacts)
    }
  }

  /// `DetailFeature`'s snippet: a screen on the stack closes itself.
  @Test func theDocumentedScreenClosesItself() async {
    var state = AppFeature.State()
    state.path = [.alert(alertID: "a1")]
    let store = Store(initialState: state) { AppFeature() }
    // snippet: DetailFeature
    store.send(.path(.element(id: 0, action: .closeTapped)))
    // snippet: end
    // The screen's effect pops it: a few turns of the main actor.
    for _ in 0..<1_000 where !store.state.path.isEmpty { await Task.yield() }
    #expect(store.state.path.isEmpty)
  }
}
