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
}
