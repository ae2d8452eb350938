// The snippets of the doc comments of Sources/Notifications/Feature. The stores run their
// effects for real; the tests wait for the state they expect in `store.states`, with a time limit
// so that a regression fails instead of hanging.

import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A shell that embeds push registration, as the doc comment of PushRegistrationFeature shows.
struct FeatureDocPushShell: Reducer {
  struct State: Equatable {
    var pushRegistration = PushRegistrationFeature.State()
  }
  enum Action: Sendable {
    case pushRegistration(PushRegistrationFeature.Action)
  }

  var body: some ReducerOf<Self> {
    // snippet: push-registration
    Scope(state: \.pushRegistration, action: .pushRegistration) { PushRegistrationFeature() }
    // snippet: hide
  }
}

extension CasePath
where Root == FeatureDocPushShell.Action, Value == PushRegistrationFeature.Action {
  static var pushRegistration: Self {
    Self(FeatureDocPushShell.Action.pushRegistration) {
      if case .pushRegistration(let action) = $0 { action } else { nil }
    }
  }
}

struct FeatureDocPushShellTests {
  @MainActor
  @Test(.timeLimit(.minutes(1))) func startingRegistrationUploadsTheDeviceToken() async {
    let uploaded = LockedState<[String]>([])
    let store = Store(initialState: FeatureDocPushShell.State()) {
      FeatureDocPushShell()
    } withDependencies: {
      $0.pushClient = PushClient(
        authorizationStatus: { .notDetermined },
        requestAuthorization: { .authorized },
        register: {},
        deviceTokens: { ["token-1"].featureDocStream },
        responses: { AsyncStream { $0.finish() } },
        uploadToken: { token in uploaded.withLock { $0.append(token) } },
        removeToken: { _ in })
      $0.continuousClock = ImmediateClock()
      $0.settingsClient = .inMemory()
    }
    // snippet: show
    store.send(.pushRegistration(.start))
    // snippet: end
    for await state in store.states where state.pushRegistration.registeredTokens == ["token-1"] {
      break
    }
    #expect(store.state.pushRegistration.phase == .registered)
    #expect(store.state.pushRegistration.authorization == .authorized)
    #expect(store.state.pushRegistration.registeredTokens == ["token-1"])
    #expect(uploaded.withLock { $0 } == ["token-1"])
  }
}

struct FeatureDocNotificationsTests {
  @MainActor
  @Test(.timeLimit(.minutes(1))) func theFeatureOnTheLogLoadsTheFeed() async {
    let notifications = FeatureDocSamples.notifications.filter { !$0.isLocal }
    let store = withDependencies {
      $0.settingsClient = .inMemory()
      $0.pushClient = .unavailable
    } operation: {
      // snippet: notification-feature-log
      let store = Store(initialState: NotificationFeature.State()) {
        NotificationFeature()
      } withDependencies: {
        $0.notificationClient = InMemoryNotificationBackend(seed: notifications).client
        $0.changeLogStore = .inMemory()
      }
      store.send(.onAppear)
      // snippet: end
      return store
    }
    for await state in store.states where state.server.listing != nil { break }
    #expect(store.state.shown.map(\.id) == notifications.map(\.id))
    #expect(store.state.badgeText == "2")
    store.cancelAll()
  }

  /// A notification center past its launch: the preferences' changes are saved at once.
  @MainActor
  static func launchedStore(settings: SettingsClient) -> Store<NotificationFeature.State, NotificationFeature.Action> {
    var state = NotificationFeature.State()
    state.launch = .ready
    return Store(initialState: state) {
      NotificationFeature()
    } withDependencies: {
      $0.settingsClient = settings
      $0.pushClient = .unavailable
      $0.changeLogStore = .inMemory()
    }
  }

  /// Waits until `settings` holds `muted` as the muted types.
  static func waitUntilSaved(_ muted: [NotificationType], in settings: SettingsClient)
    async throws
  {
    while try await settings.load(
      [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey) != muted
    {
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  @MainActor
  @Test(.timeLimit(.minutes(1))) func aScopedStoreSendsThePreferencesActions() async throws {
    let settings = SettingsClient.inMemory()
    let store = Self.launchedStore(settings: settings)
    // snippet: preferences-case-path
    let preferencesStore = store.scope(state: \.preferences, action: .preferences)
    // snippet: end
    preferencesStore.send(.typeToggled(.ping, isOn: false))
    #expect(preferencesStore.state.muted == [.ping])
    #expect(store.state.preferences.muted == [.ping])
    try await Self.waitUntilSaved([.ping], in: settings)
  }

  @MainActor
  @Test(.timeLimit(.minutes(1))) func turningATypeOffMutesItAndSavesIt() async throws {
    let settings = SettingsClient.inMemory()
    let store = Self.launchedStore(settings: settings)
    // snippet: preferences
    store.send(.preferences(.typeToggled(.ping, isOn: false)))
    // snippet: end
    #expect(store.state.preferences.muted == [.ping])
    try await Self.waitUntilSaved([.ping], in: settings)
    store.send(.preferences(.typeToggled(.alert, isOn: false)))
    #expect(store.state.preferences.muted == [.ping])
    #expect(store.state.preferences.error != nil)
  }
}
