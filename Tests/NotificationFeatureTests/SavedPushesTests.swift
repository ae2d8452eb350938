import Foundation
import Loom
import LoomTesting
import NotificationClients
import NotificationFeature
import Testing

/// A push shown to the person is kept across relaunches until they delete it: a relaunch is a
/// new store over what the last one saved (the same settings, the same backend).
@MainActor
struct SavedPushesTests {
  /// The payload of a push for `Fixtures.notification(id, minutesAgo:)`.
  func pushPayload(_ id: String, minutesAgo: Double = 0) -> Data {
    let timestamp = Int(Fixtures.now.timeIntervalSince1970 - minutesAgo * 60)
    return payload(
      #"{"id":"\#(id)","type":"ping","title":"Title \#(id)","body":"Message \#(id)","timestamp":\#(timestamp)}"#
    )
  }

  // MARK: As a shell runs it

  /// A launch as a shell makes it: a store over `settings` and `backend` that appears, in the
  /// background, and is ready once its first page and its saved settings have loaded. The live
  /// stream is stopped then, so that nothing else changes the list.
  func launch(
    _ settings: SettingsClient, _ backend: InMemoryNotificationBackend
  ) async -> Store<NotificationsFeature.State, NotificationsFeature.Action> {
    let store = Store(initialState: NotificationsFeature.State()) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.settingsClient = settings
      $0.notificationClient = backend.client
      $0.pushClient.responses = { AsyncStream { $0.finish() } }
    }
    await store.send(.foregroundChanged(false)).finish()
    let appear = store.send(.onAppear)
    for await state in store.states
    where state.hasLoadedOnce && !state.isLoading && !state.isLoadingPreferences {
      break
    }
    appear.cancel()
    return store
  }

  @Test func aPushIsStillListedAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))).finish()

    let relaunched = await launch(settings, backend)
    #expect(
      relaunched.state.notifications.elements == [
        Fixtures.feed[0], Fixtures.notification("p1", minutesAgo: 1.5), Fixtures.feed[1],
        Fixtures.feed[2],
      ])
    // And a refresh keeps it.
    await relaunched.send(.refreshRequested).finish()
    #expect(relaunched.state.notifications.ids == ["n1", "p1", "n2", "n3"])
  }

  @Test func aPushReadBeforeARelaunchIsStillReadAfterIt() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))).finish()
    await first.send(.markAsRead("p1")).finish()
    #expect(first.state.error == nil)
    #expect(first.state.notifications[id: "p1"]?.isRead == true)

    let relaunched = await launch(settings, backend)
    #expect(relaunched.state.notifications[id: "p1"]?.isRead == true)
    #expect(relaunched.state.unreadCount == 2)
  }

  @Test func aDeletedPushIsNotListedAgainByADuplicateAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1"))).finish()
    await first.send(.delete("p1")).finish()
    #expect(first.state.error == nil)
    #expect(first.state.notifications.ids == ["n1", "n2", "n3"])

    let relaunched = await launch(settings, backend)
    await relaunched.send(.pushReceived(pushPayload("p1"))).finish()
    #expect(relaunched.state.notifications.ids == ["n1", "n2", "n3"])
  }
}
