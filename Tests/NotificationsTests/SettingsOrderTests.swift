import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Two quick changes to one setting: whatever order the writes finish in, the last choice is the
/// one saved, so a relaunch restores it.
@MainActor
struct SettingsOrderTests {
  typealias SavedFilter = NotificationsFeature.SavedFilter
  let filterKey = NotificationsFeature.SettingsKey.filter
  let mutedKey = NotificationPreferencesFeature.settingsKey

  // MARK: The outcome, whatever the feature does in between

  @Test func theLastFilterChoiceIsSavedWhenTheEarlierWriteFinishesLast() async {
    let settings = ControlledSettings()
    let older = settings.holdWrites(
      of: SavedFilter(filter: .type(.alert), unreadOnly: false), forKey: filterKey)
    let store = makeStore { $0.settingsClient = settings.client }
    store.exhaustivity = .off
    await store.send(.filterChanged(.type(.alert)))
    let newer = await store.send(.unreadOnlyChanged(true))
    // Whatever the newer change started has finished; the older write is still held.
    await newer.finish()
    older.resume()
    await store.finish()
    #expect(
      settings.value(SavedFilter.self, forKey: filterKey)
        == SavedFilter(filter: .type(.alert), unreadOnly: true))
  }

  @Test func theLastMutedChoiceIsSavedWhenTheEarlierWriteFinishesLast() async {
    let settings = ControlledSettings()
    let older = settings.holdWrites(of: [NotificationType.ping], forKey: mutedKey)
    let store = makeStore([]) { $0.settingsClient = settings.client }
    store.exhaustivity = .off
    await store.send(.preferences(.typeToggled(.ping, isOn: false)))
    let newer = await store.send(.preferences(.typeToggled(.role, isOn: false)))
    await newer.finish()
    older.resume()
    await store.finish()
    #expect(settings.value([NotificationType].self, forKey: mutedKey) == [.ping, .role])
  }

  // MARK: How: one write at a time, then the latest choice

  @Test func aFilterChoiceMadeWhileAWriteIsInFlightIsWrittenAfterIt() async {
    let settings = ControlledSettings()
    let older = SavedFilter(filter: .type(.alert), unreadOnly: false)
    let newer = SavedFilter(filter: .type(.alert), unreadOnly: true)
    let olderWrite = settings.holdWrites(of: older, forKey: filterKey)
    let store = makeStore { $0.settingsClient = settings.client }
    await store.send(.filterChanged(.type(.alert))) {
      $0.filter = .type(.alert)
      $0.filterBeingSaved = older
    }
    // No second write starts while the first is in flight.
    await store.send(.unreadOnlyChanged(true)) { $0.unreadOnly = true }
    #expect(settings.writes(of: SavedFilter.self, forKey: filterKey) == [])
    olderWrite.resume()
    await store.receive(.filterSaved) { $0.filterBeingSaved = newer }
    await store.receive(.filterSaved) { $0.filterBeingSaved = nil }
    #expect(settings.writes(of: SavedFilter.self, forKey: filterKey) == [older, newer])
  }

  @Test func aFilterChoiceUndoneWhileAWriteIsInFlightIsNotWrittenAgain() async {
    let settings = ControlledSettings()
    let chosen = SavedFilter(filter: .type(.ping), unreadOnly: false)
    let write = settings.holdWrites(of: chosen, forKey: filterKey)
    let store = makeStore { $0.settingsClient = settings.client }
    await store.send(.filterChanged(.type(.ping))) {
      $0.filter = .type(.ping)
      $0.filterBeingSaved = chosen
    }
    await store.send(.filterChanged(.type(.alert))) { $0.filter = .type(.alert) }
    await store.send(.filterChanged(.type(.ping))) { $0.filter = .type(.ping) }
    write.resume()
    // What was written is the choice now: nothing more to write.
    await store.receive(.filterSaved) { $0.filterBeingSaved = nil }
    #expect(settings.writes(of: SavedFilter.self, forKey: filterKey) == [chosen])
  }

  @Test func aMutedChoiceMadeWhileAWriteIsInFlightIsWrittenAfterIt() async {
    let settings = ControlledSettings()
    let olderWrite = settings.holdWrites(of: [NotificationType.ping], forKey: mutedKey)
    let store = makeStore([]) { $0.settingsClient = settings.client }
    await store.send(.preferences(.typeToggled(.ping, isOn: false))) {
      $0.preferences.muted = [.ping]
      $0.preferences.lastSaveID = 1
      $0.preferences.pendingSaves = [1: []]
    }
    await store.send(.preferences(.typeToggled(.role, isOn: false))) {
      $0.preferences.muted = [.ping, .role]
      $0.preferences.lastSaveID = 2
      $0.preferences.pendingSaves = [1: [], 2: [.ping]]
    }
    #expect(settings.writes(of: [NotificationType].self, forKey: mutedKey) == [])
    olderWrite.resume()
    await store.receive(.preferences(.saveFinished(id: 1, error: nil))) {
      $0.preferences.pendingSaves = [2: [.ping]]
    }
    await store.receive(.preferences(.saveFinished(id: 2, error: nil))) {
      $0.preferences.pendingSaves = [:]
    }
    #expect(
      settings.writes(of: [NotificationType].self, forKey: mutedKey) == [[.ping], [.ping, .role]])
  }

  @Test func whenEveryWriteFailsTheMutedTypesGoBackToWhatIsSaved() async {
    let firstWrite = TestContinuation<Void>()
    let writes = LockedState(0)
    let diskFull = UserFacingError.operationFailed(message: "disk full")
    let store = makeStore([]) {
      $0.settingsClient.saveData = { _, _ in
        if writes.withLock({ $0 += 1; return $0 }) == 1 { try await firstWrite.value }
        throw diskFull
      }
    }
    await store.send(.preferences(.typeToggled(.ping, isOn: false))) {
      $0.preferences.muted = [.ping]
      $0.preferences.lastSaveID = 1
      $0.preferences.pendingSaves = [1: []]
    }
    await store.send(.preferences(.typeToggled(.role, isOn: false))) {
      $0.preferences.muted = [.ping, .role]
      $0.preferences.lastSaveID = 2
      $0.preferences.pendingSaves = [1: [], 2: [.ping]]
    }
    firstWrite.resume()
    // The later change carries on, and writes both; if it fails too, both are undone.
    await store.receive(.preferences(.saveFinished(id: 1, error: diskFull))) {
      $0.preferences.pendingSaves = [2: []]
      $0.preferences.error = diskFull
    }
    await store.receive(.preferences(.saveFinished(id: 2, error: diskFull))) {
      $0.preferences.pendingSaves = [:]
      $0.preferences.muted = []
    }
  }

  @Test func aLoadThatAnswersAfterAChangeLeavesTheChangeAlone() async {
    let settings = ControlledSettings()
    settings.store([NotificationType.role], forKey: mutedKey)
    let load = settings.holdLoads(forKey: mutedKey)
    let store = TestStore(initialState: NotificationPreferencesFeature.State(muted: [.role])) {
      NotificationPreferencesFeature()
    } withDependencies: {
      $0.settingsClient = settings.client
      $0.pushClient.authorizationStatus = { .authorized }
    }
    store.timeout = featureTestTimeout
    await store.send(.onAppear)
    await store.send(.typeToggled(.ping, isOn: false)) {
      $0.muted = [.ping, .role]
      $0.lastSaveID = 1
      $0.pendingSaves = [1: [.role]]
    }
    await store.receive(.saveFinished(id: 1, error: nil)) { $0.pendingSaves = [:] }
    // The load read [role] before the change: the change is newer, and is what is saved.
    load.resume()
    await store.receive(.loaded(muted: [.role], authorization: .authorized)) {
      $0.authorization = .authorized
    }
    #expect(settings.value([NotificationType].self, forKey: mutedKey) == [.ping, .role])
  }
}
