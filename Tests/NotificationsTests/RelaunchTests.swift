import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What one launch saves, the next one uses: a relaunch is a new store over the same settings.
@MainActor
struct RelaunchTests {
  let mutedKey = NotificationPreferencesFeature.settingsKey
  let ping = #"{"id":"m1","type":"ping","title":"Title m1","body":"Message m1"}"#
  let system = #"{"id":"m2","type":"system","title":"Title m2","body":"Message m2"}"#

  /// A launched app's notification center over `settings`, whose first page (empty) the test
  /// holds back, so that it arrives after the saved settings.
  func launch(
    _ settings: SettingsClient, page: TestContinuation<NotificationPage>
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    makeStore([]) {
      $0.settingsClient = settings
      $0.notificationClient.fetchPage = { _ in try await page.value }
      // The live stream never opens: its `updatesConnected` would race the settings loads
      // these tests are about (both come from effects of `onAppear`).
      let opening = TestContinuation<AsyncThrowingStream<NotificationEvent, any Error>>()
      $0.notificationClient.updates = { _ in try await opening.value }
      $0.pushClient.responses = { TestStream<PushClient.Response>().stream }
    }
  }

  // MARK: Muted types

  @Test func aTypeMutedBeforeARelaunchIsNotAnnouncedAfterIt() async {
    let settings = SettingsClient.inMemory()
    let first = makeStore([]) { $0.settingsClient = settings }
    await first.send(.preferences(.typeToggled(.ping, isOn: false))) {
      $0.preferences.muted = [.ping]
      $0.preferences.lastSaveID = 1
      $0.preferences.pendingSaves = [1: []]
    }
    await first.receive(.preferences(.saveFinished(id: 1, error: nil))) {
      $0.preferences.pendingSaves = [:]
    }

    let page = TestContinuation<NotificationPage>()
    let relaunched = launch(settings, page: page)
    let appear = await relaunched.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await relaunched.receive(.savedFilterLoaded(nil))
    await relaunched.receive(.preferences(.mutedLoaded([.ping]))) {
      $0.preferences.muted = [.ping]
      $0.isLoadingPreferences = false
    }
    page.resume(returning: NotificationPage(items: []))
    await relaunched.receive(.pageLoaded(NotificationPage(items: []), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
    // A muted ping is listed, and not announced.
    await relaunched.send(.pushReceived(payload(ping))) {
      $0.notifications = [Fixtures.notification("m1")]
      $0.unlistedPushIDs = ["m1"]
      $0.pushesBeingSaved = saved(Fixtures.notification("m1"))
    }
    await relaunched.receivePushesSaved()
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func aPushBeforeTheMutedTypesHaveLoadedWaitsForThem() async {
    let settings = ControlledSettings()
    settings.store([NotificationType.ping], forKey: mutedKey)
    let mutedLoad = settings.holdLoads(forKey: mutedKey)
    let page = TestContinuation<NotificationPage>()
    let relaunched = launch(settings.client, page: page)
    let appear = await relaunched.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await relaunched.receive(.savedFilterLoaded(nil))
    page.resume(returning: NotificationPage(items: []))
    await relaunched.receive(.pageLoaded(NotificationPage(items: []), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
    // Whether a type is muted is not known yet: both pushes wait.
    let muted = Fixtures.notification("m1")
    let announced = Fixtures.notification("m2", type: .system)
    await relaunched.send(.pushReceived(payload(ping))) {
      $0.notifications = [muted]
      $0.unlistedPushIDs = ["m1"]
      $0.heldBanners = [muted]
      $0.pushesBeingSaved = saved(muted)
    }
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    await relaunched.receivePushesSaved()
    await relaunched.send(.pushReceived(payload(system))) {
      $0.notifications = [muted, announced]
      $0.unlistedPushIDs = ["m1", "m2"]
      $0.heldBanners = [muted, announced]
      $0.pushesBeingSaved = saved(muted, announced)
    }
    await relaunched.receive(.delegate(.unreadCountChanged(2)))
    await relaunched.receivePushesSaved()
    mutedLoad.resume()
    await relaunched.receive(.preferences(.mutedLoaded([.ping]))) {
      $0.preferences.muted = [.ping]
      $0.isLoadingPreferences = false
      $0.heldBanners = []
    }
    await relaunched.receive(.delegate(.presentBanner(announced, [.banner, .sound, .badge])))
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func heldPushesAreNotAnnouncedOnceTheAppIsInTheBackground() async {
    let settings = ControlledSettings()
    let mutedLoad = settings.holdLoads(forKey: mutedKey)
    let page = TestContinuation<NotificationPage>()
    let relaunched = launch(settings.client, page: page)
    let appear = await relaunched.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await relaunched.receive(.savedFilterLoaded(nil))
    page.resume(returning: NotificationPage(items: []))
    await relaunched.receive(.pageLoaded(NotificationPage(items: []), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
    let held = Fixtures.notification("m2", type: .system)
    await relaunched.send(.pushReceived(payload(system))) {
      $0.notifications = [held]
      $0.unlistedPushIDs = ["m2"]
      $0.heldBanners = [held]
      $0.pushesBeingSaved = saved(held)
    }
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    await relaunched.receivePushesSaved()
    await relaunched.send(.foregroundChanged(false)) { $0.isInForeground = false }
    mutedLoad.resume()
    await relaunched.receive(.preferences(.mutedLoaded(nil))) {
      $0.isLoadingPreferences = false
      $0.heldBanners = []
    }
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  // MARK: The push token

  /// Push registration over `settings`, authorized, whose device tokens the test yields.
  func launchRegistration(
    _ settings: SettingsClient, tokens: TestStream<String>,
    uploaded: LockedState<[String]>, removed: LockedState<[String]>
  ) -> TestStore<PushRegistrationFeature.State, PushRegistrationFeature.Action> {
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.settingsClient = settings
      $0.pushClient.authorizationStatus = { .authorized }
      $0.pushClient.register = {}
      $0.pushClient.deviceTokens = { tokens.stream }
      $0.pushClient.uploadToken = { token in uploaded.withLock { $0.append(token) } }
      $0.pushClient.removeToken = { token in removed.withLock { $0.append(token) } }
    }
    store.timeout = featureTestTimeout
    return store
  }

  func savedTokens(_ settings: SettingsClient) async -> [String]? {
    let saved = try? await settings.load(
      PushRegistrationFeature.SavedTokens.self, forKey: PushRegistrationFeature.settingsKey)
    return saved.flatMap { $0 }.map { $0.registered + $0.unconfirmed }
  }

  /// Launches push registration once, uploading `token`.
  func uploadOnce(_ token: String, settings: SettingsClient) async {
    let tokens = TestStream<String>()
    let store = launchRegistration(
      settings, tokens: tokens, uploaded: LockedState([]), removed: LockedState([]))
    await store.send(.start) { $0.phase = .requestingAuthorization }
    await store.receive(.authorizationResolved(.authorized)) {
      $0.phase = .registered
      $0.authorization = .authorized
    }
    tokens.yield(token)
    await store.receive(.tokenReceived(token)) {
      $0.deviceToken = token
      $0.call = .upload(token)
    }
    await store.receive(.callFinished(.upload(token), error: nil)) {
      $0.registeredTokens = [token]
      $0.call = nil
    }
    tokens.finish()
    await store.finish()
  }

  @Test func theUploadedTokenIsSavedAndNotUploadedAgainAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    await uploadOnce("t1", settings: settings)
    #expect(await savedTokens(settings) == ["t1"])

    let tokens = TestStream<String>()
    let uploaded = LockedState<[String]>([])
    let removed = LockedState<[String]>([])
    let relaunched = launchRegistration(
      settings, tokens: tokens, uploaded: uploaded, removed: removed)
    await relaunched.send(.start) { $0.phase = .requestingAuthorization }
    await relaunched.receive(.savedTokensLoaded(.init(registered: ["t1"]))) {
      $0.registeredTokens = ["t1"]
    }
    await relaunched.receive(.authorizationResolved(.authorized)) {
      $0.phase = .registered
      $0.authorization = .authorized
    }
    tokens.yield("t1")
    await relaunched.receive(.tokenReceived("t1")) { $0.deviceToken = "t1" }
    tokens.finish()
    await relaunched.finish()
    #expect(uploaded.withLock { $0 } == [])
    #expect(removed.withLock { $0 } == [])
  }

  @Test func aNewTokenAfterARelaunchReplacesTheSavedOne() async {
    let settings = SettingsClient.inMemory()
    await uploadOnce("t1", settings: settings)

    let tokens = TestStream<String>()
    let uploaded = LockedState<[String]>([])
    let removed = LockedState<[String]>([])
    let relaunched = launchRegistration(
      settings, tokens: tokens, uploaded: uploaded, removed: removed)
    await relaunched.send(.start) { $0.phase = .requestingAuthorization }
    await relaunched.receive(.savedTokensLoaded(.init(registered: ["t1"]))) {
      $0.registeredTokens = ["t1"]
    }
    await relaunched.receive(.authorizationResolved(.authorized)) {
      $0.phase = .registered
      $0.authorization = .authorized
    }
    tokens.yield("t2")
    await relaunched.receive(.tokenReceived("t2")) {
      $0.deviceToken = "t2"
      $0.call = .upload("t2")
    }
    await relaunched.receive(.callFinished(.upload("t2"), error: nil)) {
      $0.registeredTokens = ["t1", "t2"]
      $0.call = .remove("t1")
    }
    await relaunched.receive(.callFinished(.remove("t1"), error: nil)) {
      $0.registeredTokens = ["t2"]
      $0.call = nil
    }
    tokens.finish()
    await relaunched.finish()
    #expect(uploaded.withLock { $0 } == ["t2"])
    #expect(removed.withLock { $0 } == ["t1"])
    #expect(await savedTokens(settings) == ["t2"])
  }

  @Test func aTokenWhoseUploadAnEarlierLaunchDidNotSeeAnsweredIsRemovedWhenReplaced() async {
    let settings = SettingsClient.inMemory()
    // The earlier launch ended while its upload of t2 was in flight.
    try? await settings.save(
      PushRegistrationFeature.SavedTokens(registered: ["t1"], unconfirmed: ["t2"]),
      forKey: PushRegistrationFeature.settingsKey)
    let tokens = TestStream<String>()
    let uploaded = LockedState<[String]>([])
    let removed = LockedState<[String]>([])
    let relaunched = launchRegistration(
      settings, tokens: tokens, uploaded: uploaded, removed: removed)
    await relaunched.send(.start) { $0.phase = .requestingAuthorization }
    await relaunched.receive(.savedTokensLoaded(.init(registered: ["t1"], unconfirmed: ["t2"]))) {
      $0.registeredTokens = ["t1"]
      $0.unconfirmedTokens = ["t2"]
    }
    await relaunched.receive(.authorizationResolved(.authorized)) {
      $0.phase = .registered
      $0.authorization = .authorized
    }
    tokens.yield("t3")
    await relaunched.receive(.tokenReceived("t3")) {
      $0.deviceToken = "t3"
      $0.call = .upload("t3")
    }
    await relaunched.receive(.callFinished(.upload("t3"), error: nil)) {
      $0.registeredTokens = ["t1", "t3"]
      $0.call = .remove("t1")
    }
    await relaunched.receive(.callFinished(.remove("t1"), error: nil)) {
      $0.registeredTokens = ["t3"]
      $0.call = .remove("t2")
    }
    await relaunched.receive(.callFinished(.remove("t2"), error: nil)) {
      $0.unconfirmedTokens = []
      $0.call = nil
    }
    tokens.finish()
    await relaunched.finish()
    #expect(uploaded.withLock { $0 } == ["t3"])
    #expect(removed.withLock { $0 } == ["t1", "t2"])
    #expect(await savedTokens(settings) == ["t3"])
  }

  @Test func aTokenWhoseUploadFailedIsSavedAsUnconfirmed() async {
    let settings = SettingsClient.inMemory()
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.settingsClient = settings
      $0.continuousClock = TestClock()
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
      $0.pushClient.uploadToken = { _ in throw UserFacingError.unauthorized }
    }
    store.timeout = featureTestTimeout
    await store.send(.tokenReceived("t1")) {
      $0.deviceToken = "t1"
      $0.call = .upload("t1")
    }
    await store.receive(.callFinished(.upload("t1"), error: .unauthorized)) {
      $0.call = nil
      $0.unconfirmedTokens = ["t1"]
      $0.failure = .init(error: .unauthorized)
    }
    // Saved as a token the backend may hold, so a later launch removes it if it is replaced.
    let saved = try? await settings.load(
      PushRegistrationFeature.SavedTokens.self, forKey: PushRegistrationFeature.settingsKey)
    #expect(saved == .init(registered: [], unconfirmed: ["t1"]))
    // Its retry waits for its backoff.
    await store.skipInFlightEffects()
  }
}
