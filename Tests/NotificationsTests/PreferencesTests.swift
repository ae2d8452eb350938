import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct PreferencesTests {
  func makePreferencesStore(
    _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<NotificationPreferencesFeature.State, NotificationPreferencesFeature.Action> {
    let store = TestStore(initialState: NotificationPreferencesFeature.State()) {
      NotificationPreferencesFeature()
    } withDependencies: {
      $0.settingsClient = .inMemory()
      $0.pushClient.authorizationStatus = { .authorized }
      prepare(&$0)
    }
    store.timeout = featureTestTimeout
    return store
  }

  @Test func appearingLoadsTheSavedChoicesAndTheAuthorization() async {
    let settings = SettingsClient.inMemory()
    try? await settings.save([NotificationType.ping, .alert], forKey: NotificationPreferencesFeature.settingsKey)
    let store = makePreferencesStore { $0.settingsClient = settings }
    await store.send(.onAppear) { $0.changedWhileLoading = [:] }
    await store.receive(.loaded(muted: [.ping, .alert], authorization: .authorized)) {
      $0.muted = [.ping]  // alerts cannot be muted, even if a file says so
      $0.authorization = .authorized
      $0.changedWhileLoading = nil
    }
  }

  @Test func aToggleIsSavedOptimistically() async {
    let store = makePreferencesStore()
    await store.send(.typeToggled(.ping, isOn: false)) {
      $0.muted = [.ping]
      $0.lastSaveID = 1
      $0.pendingSaves = [1: []]
    }
    await store.receive(.saveFinished(id: 1, error: nil)) { $0.pendingSaves = [:] }
  }

  @Test func aFailedSaveRollsBack() async {
    let store = makePreferencesStore {
      $0.settingsClient.saveData = { _, _ in throw UserFacingError.operationFailed(message: "disk full") }
    }
    await store.send(.typeToggled(.role, isOn: false)) {
      $0.muted = [.role]
      $0.lastSaveID = 1
      $0.pendingSaves = [1: []]
    }
    await store.receive(.saveFinished(id: 1, error: .operationFailed(message: "disk full"))) {
      $0.pendingSaves = [:]
      $0.muted = []
      $0.error = .operationFailed(message: "disk full")
    }
  }

  @Test func alertsCannotBeTurnedOff() async {
    let store = makePreferencesStore()
    await store.send(.typeToggled(.alert, isOn: false)) {
      $0.error = .operationFailed(message: "Alert notifications cannot be turned off.")
    }
  }

  @Test func requestingAuthorizationRecordsTheAnswer() async {
    let store = makePreferencesStore { $0.pushClient.requestAuthorization = { .provisional } }
    await store.send(.requestAuthorizationTapped)
    await store.receive(.authorizationChanged(.provisional)) { $0.authorization = .provisional }
  }
}

/// A choice made while the saved ones are read goes on top of them: the others saved stay, and
/// the read does not undo it. (The choice replaced every saved one: the toggle saved the set it
/// had, and the read, left alone once something had changed, never merged.)
@MainActor
struct PreferencesLoadTests {
  @Test func aChoiceMadeWhileTheSavedOnesAreReadIsAppliedOnTopOfThem() async throws {
    let clock = TestClock()
    let settings = SettingsClient.inMemory()
    try await settings.save(
      [NotificationType.ping, .added], forKey: NotificationPreferencesFeature.settingsKey)
    let store = TestStore(initialState: NotificationPreferencesFeature.State()) {
      NotificationPreferencesFeature()
    } withDependencies: {
      $0.settingsClient = settings
      // The read takes a second.
      $0.settingsClient.loadData = { key in
        try await clock.sleep(for: .seconds(1))
        return try await settings.loadData(key)
      }
      $0.pushClient.authorizationStatus = { .authorized }
    }
    await store.send(.onAppear) { $0.changedWhileLoading = [:] }
    await store.send(.typeToggled(.role, isOn: false)) {
      $0.muted = [.role]
      $0.changedWhileLoading = [.role: false]
    }
    await store.send(.typeToggled(.system, isOn: false)) {
      $0.muted = [.role, .system]
      $0.changedWhileLoading = [.role: false, .system: false]
    }
    await store.send(.typeToggled(.system, isOn: true)) {
      $0.muted = [.role]
      $0.changedWhileLoading = [.role: false, .system: true]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded(muted: [.ping, .added], authorization: .authorized)) {
      $0.authorization = .authorized
      $0.muted = [.ping, .added, .role]
      $0.changedWhileLoading = nil
      $0.lastSaveID = 1
      $0.pendingSaves = [1: [.ping, .added]]
    }
    await store.receive(.saveFinished(id: 1, error: nil)) { $0.pendingSaves = [:] }
    let saved = try await settings.load(
      [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey)
    #expect(saved.map(Set.init) == [.ping, .added, .role])
  }
}
