import AppShell
import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// The shell's navigation: the stack a tapped notification pushes onto, the preferences sheet
/// and clear-all's confirmation, each through the toolkit's presentation and stack tools.
@MainActor
struct AppNavigationTests {
  func makeStore(
    _ state: AppFeature.State = AppFeatureTests.shell(),
    _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    AppFeatureTests().makeStore(state, prepare)
  }

  @Test func aPingsScreenPushesItsContactAndEachScreenClosesItself() async {
    var state = AppFeatureTests.shell()
    state.path = [.ping(pingID: "p1", contactID: "c1")]  // id 0
    let store = makeStore(state)
    await store.send(.path(.element(id: 0, action: .contactTapped)))
    await store.receive(.path(.element(id: 0, action: .delegate(.openContact(contactID: "c1"))))) {
      $0.path.append(.contact(contactID: "c1"))  // id 1
    }
    await store.send(.path(.element(id: 1, action: .closeTapped)))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await store.send(.path(.element(id: 0, action: .closeTapped)))
    await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  }

  @Test func onlyAPingsScreenOpensAContact() async {
    var state = AppFeatureTests.shell()
    state.path = [.alert(alertID: "a1"), .contact(contactID: "c1")]
    let store = makeStore(state)
    await store.send(.path(.element(id: 0, action: .contactTapped)))
    await store.send(.path(.element(id: 1, action: .contactTapped)))
  }

  @Test func tappingTwoNotificationsPushesTwoScreensAndPopToRootLeavesNone() async {
    let alert = NotificationData(
      id: "n2", type: .alert, title: "Alert", message: "Smoke", timestamp: AppFeatureTests.now,
      isRead: true, target: .alert(alertID: "a1"))
    let added = NotificationData(
      id: "n3", type: .added, title: "Added", message: "Ada", timestamp: AppFeatureTests.now,
      isRead: true, target: .contact(contactID: "c2"))
    let store = makeStore(AppFeatureTests.shell([alert, added]))
    await store.send(.notifications(.notificationTapped("n2"))) {
      $0.notifications.lastTap = .navigated(id: "n2")
    }
    await store.receive(.notifications(.delegate(.navigateToAlert(alertID: "a1")))) {
      $0.path.append(.alert(alertID: "a1"))
    }
    await store.send(.notifications(.notificationTapped("n3"))) {
      $0.notifications.lastTap = .navigated(id: "n3")
    }
    await store.receive(.notifications(.delegate(.navigateToContact(contactID: "c2")))) {
      $0.path.append(.contact(contactID: "c2"))
    }
    #expect(store.state.path.ids == [0, 1])
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  }

  @Test func thePreferencesSheetReadsTheAuthorizationEditsTheFeaturesAndClosesItself() async {
    let settings = SettingsClient.inMemory()
    let store = makeStore { $0.settingsClient = settings }
    await store.send(.preferencesTapped) { $0.preferencesSheet = PreferencesSheet.State() }
    await store.receive(.notifications(.preferences(.onAppear)))
    await store.receive(.notifications(.preferences(.authorizationChanged(.denied)))) {
      $0.notifications.preferences.authorization = .denied
    }
    // The sheet edits the notification center's preferences: no copy of them to keep in step.
    await store.send(.notifications(.preferences(.typeToggled(.ping, isOn: false)))) {
      $0.notifications.preferences.muted = [.ping]
    }
    await store.send(.preferencesSheet(.presented(.doneTapped)))
    await store.receive(.preferencesSheet(.dismiss)) { $0.preferencesSheet = nil }
    await store.finish()
    let saved = try? await settings.load(
      [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey)
    #expect(saved == [.ping])
  }

  @Test func clearAllAsksFirstAndCancellingDeletesNothing() async {
    let store = makeStore()
    await store.send(.clearAllTapped) { $0.confirmation = AppFeature.clearAllConfirmation }
    await store.send(.confirmation(.dismiss)) { $0.confirmation = nil }
  }

  @Test func clearAllConfirmedClearsTheNotificationCenter() async {
    let deleted = LockedState<[FeedPosition?]>([])
    // Holds the answer until what the confirmation did at once is asserted.
    let answer = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.deleteAll = { deleted.withLock { $0.append(nil) } }
      $0.notificationClient.deleteAllUpTo = { bound in
        deleted.withLock { $0.append(bound) }
        for await _ in answer.stream { break }
      }
    }
    await store.send(.clearAllTapped) { $0.confirmation = AppFeature.clearAllConfirmation }
    await store.send(.confirmation(.presented(.clearAll))) { $0.confirmation = nil }
    let clear = ChangeIntent.deleteAll(upTo: FeedPosition(AppFeatureTests.ping))
    await store.receive(.notifications(.clearAll)) {
      $0.notifications.log.record(clear, id: AppFeatureTests.changeID)
      $0.notifications.log.markSending(AppFeatureTests.changeID)
      $0.notifications.shown = []
    }
    await store.receive(.notifications(.delegate(.unreadCountChanged(0)))) { $0.unreadCount = 0 }
    answer.continuation.yield()
    await store.receive(.notifications(.changeAnswered(AppFeatureTests.changeID, nil))) {
      $0.notifications.log.acknowledge(AppFeatureTests.changeID, at: nil)
      $0.notifications.server.assume(clear)
    }
    await store.finish()
    #expect(deleted.withLock { $0 } == [FeedPosition(AppFeatureTests.ping)])
  }
}
