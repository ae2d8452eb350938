import Foundation
import Loom
import NotificationClients
import Notifications

/// Launches: the app closed and opened again, killed mid-way, launched from a tapped push, and
/// what the person does while a launch restores what the previous one saved.
extension Lifetime {
  typealias SettingsKey = Feature.SettingsKey

  /// Whether this launch has not loaded the saved filter yet.
  var isRestoringFilter: Bool { log.restores.filter == launch.restores.filter }
  /// Whether this launch has not loaded the saved muted types yet.
  var isRestoringMuted: Bool { log.restores.muted == launch.restores.muted }
  /// Whether this launch has not read the saved pushes yet.
  var isRestoringPushes: Bool {
    settings.readsFinished[SettingsKey.pushes, default: 0] == launch.pushesRead
  }
  /// Whether this launch has not read the saved outbox yet.
  var isRestoringOutbox: Bool {
    settings.readsFinished[SettingsKey.outbox, default: 0] == launch.outboxRead
  }

  /// Starts the launch whose store is `store`: it appears, and the person (or the operating
  /// system) may do something first, or right after, while it restores what was saved.
  func launchApp() async {
    // The banners of the launch before are checked while it is known which pushes came first.
    let problems = checkBanners()
    if !problems.isEmpty { fail(problems) }
    launch = Launch(
      restores: log.restores,
      pushesRead: settings.readsFinished[SettingsKey.pushes, default: 0],
      outboxRead: settings.readsFinished[SettingsKey.outbox, default: 0],
      savedPushes: settings.saved(Feature.SavedPushes.self, forKey: SettingsKey.pushes),
      savedOutbox: settings.saved(Feature.SavedOutbox.self, forKey: SettingsKey.outbox))
    pushesBeforeOnAppear = []
    if !LifetimeModelTests.aLaunchRestoresTheSavedOutboxFirst,
      let saved = launch.savedOutbox, !saved.entries.isEmpty
    {
      // A page loaded before the outbox is restored lists what its changes change, until
      // they are sent.
      let everything = saved.entries.contains { if case .deleteAll = $0 { true } else { false } }
      model.suspendClaims(about: everything ? nil : Set(saved.entries.flatMap(\.ids)))
    }
    // One launch in four reads and writes the settings slowly.
    settings.isSlow = Int.random(in: 0..<4, using: &random) == 0
    tokens.launch(settings: settings.client)
    switch Int.random(in: 0..<12, using: &random) {
    case 0:
      tapAPushAtLaunch()
      appear()
    case 1:
      appear()
      tapAPushAtLaunch()
    case 2:
      for _ in 0...Int.random(in: 0...1, using: &random) {
        let push = receivePushAtLaunch()
        pushesBeforeOnAppear.insert(push.id)
      }
      appear()
    case 3:
      appear()
      receivePushAtLaunch()
    case 4:
      appear()
      if Bool.random(using: &random) { pickFilter() } else { pickUnreadOnly() }
    case 5:
      appear()
      changeANotificationNotListed()
    case 6:
      appear()
      toggleBanners()
    default:
      appear()
    }
    await settle()
  }

  func appear() {
    record("appear (settings \(settings.isSlow ? "slow" : "fast"))")
    store.send(.onAppear)
  }

  /// The person taps a push and the app opens from it: a new push, or one of a notification
  /// the backend has.
  func tapAPushAtLaunch() {
    let candidates = backend.notifications.prefix(60).filter { notification in
      model.deletions[notification.id] == nil && model.backendDeletions[notification.id] == nil
    }
    guard !clearAllMayBeQueued, !candidates.isEmpty, Bool.random(using: &random) else {
      let push = newNotification("push")
      let listedLater = Bool.random(using: &random)
      record("tap the push \(push.id)\(listedLater ? ", which the backend lists later" : "")")
      send(.notificationResponse(pushPayload(push)))
      sinceSaved.pushes.insert(push.id)
      if mayBeHiddenByAQueuedClearAll(push, stamped: true) { return }
      expectTappedAndRead(push.id)
      model.pushes[push.id] = push
      if listedLater { model.pushesToList.append(push) }
      return
    }
    let notification = candidates[Int.random(in: 0..<candidates.count, using: &random)]
    record("tap the push of \(notification.id)")
    send(.notificationResponse(pushPayload(notification)))
    if isStampedByTheDevice(notification, stamped: true) {
      stampedByTheDevice.insert(notification.id)
    }
    sinceSaved.touch([notification.id])
    expectTappedAndRead(notification.id)
  }

  func expectTappedAndRead(_ id: String) {
    guard store.state.notifications[id: id]?.isRead == true else {
      fail(["the tapped push \(id) is not listed read"])
      return
    }
    model.readClaims[id] = (true, model.errors)
  }

  /// A push arrives while the launch restores what was saved.
  @discardableResult
  func receivePushAtLaunch() -> NotificationData {
    receiveNewPush(listedLater: Bool.random(using: &random))
  }

  /// The person changes a notification the list has not loaded yet (from another screen).
  func changeANotificationNotListed() {
    guard let id = randomBackendID(), model.deletions[id] == nil,
      !store.state.notifications.contains(id: id)
    else { return }
    let isRead = Bool.random(using: &random)
    record("the person marks \(id), not listed, \(isRead ? "read" : "unread"), offline")
    // Its call fails for now: the change is queued, and the outbox written, maybe before this
    // launch has read what the previous one queued.
    backend.failNext(1, with: .network)
    outboxMayBeReplaced()
    send(isRead ? .markAsRead(id) : .markAsUnread(id))
    model.readClaims[id] = (isRead, model.errors)
    sinceSaved.touch([id])
  }

  /// Sends an action of the person's or the operating system's, which may change the saved
  /// pushes while the launch has not restored them yet: a write of them before they are read
  /// replaces them.
  func send(_ action: Feature.Action) {
    guard isRestoringPushes else {
      store.send(action)
      return
    }
    let fingerprint = savedPushesFingerprint
    store.send(action)
    if savedPushesFingerprint != fingerprint { savedPushesMayBeReplaced() }
  }

  /// What the saved pushes hold, as the state says: the pushes the feed has not listed with
  /// their read state, the local notices, and the pushes deleted before the feed listed them.
  var savedPushesFingerprint: [String] {
    let state = store.state
    let pushes = state.unlistedPushIDs.sorted().map { id in
      "\(id)\(state.notifications[id: id]?.isRead == true ? "r" : "")"
    }
    return pushes + state.localNoticeIDs.sorted() + state.deletedPushIDs
  }

  /// The saved pushes were written while this launch had not read them yet: unless the flag
  /// says a launch restores them first, what they held may be gone (issue #24, item 1).
  func savedPushesMayBeReplaced() {
    guard !LifetimeModelTests.aColdStartKeepsTheSavedPushes, isRestoringPushes,
      let saved = launch.savedPushes
    else { return }
    record("the saved pushes may be replaced before they are restored")
    for push in saved.pushes { model.pushes[push.id] = nil }
    model.forgetClaims(about: Set(saved.pushes.map(\.id) + saved.deletedIDs))
    for notice in saved.notices { model.notices.remove(notice.id) }
  }

  /// The person changed something while this launch had not read the saved outbox yet: unless
  /// the flag says a launch restores it first, what it held may be gone (issue #24, item 5).
  func outboxMayBeReplaced() {
    guard !LifetimeModelTests.aChangeQueuedAtLaunchKeepsTheSavedOutbox, isRestoringOutbox,
      let saved = launch.savedOutbox, !saved.entries.isEmpty
    else { return }
    record("the saved outbox may be replaced before it is restored")
    let everything = saved.entries.contains { if case .deleteAll = $0 { true } else { false } }
    model.forgetClaims(about: everything ? nil : Set(saved.entries.flatMap(\.ids)))
  }

  // MARK: Closing

  /// Closes the app and launches it again: what it was writing is written, the old store's
  /// effects stop where they are, and a new store starts from the saved settings and the same
  /// backend.
  func relaunch() async {
    record("relaunch")
    await settle()
    // The app finishes its writes as it closes (and calls answer meanwhile).
    for _ in 0..<50 where settings.isWriting() { await letTimePass(.milliseconds(100)) }
    guard !settings.isWriting() else {
      // Still writing: as if killed.
      await kill()
      return
    }
    // A change still on its way may or may not have reached the backend.
    model.forgetClaims(about: network.idsInFlight)
    stopTheApp()
    await settle()
    if !LifetimeModelTests.pushesSurviveRelaunch {
      let listed = Set(backend.notifications.map(\.id))
      model.pushes = model.pushes.filter { listed.contains($0.key) }
      // What the person did to a push is kept in memory only (a read before the backend
      // listed it is sent once the feature sees it listed): forgotten with the launch.
      model.forgetClaims(about: Set(model.readClaims.keys.filter { $0.hasPrefix("push") }))
    }
    // Local notices are saved with the pushes: they are still listed.
    store = makeStore()
    await launchApp()
  }

  /// Kills the app without letting anything finish, and launches it again at once: what was
  /// neither saved nor confirmed by the backend may be lost, nothing else.
  func kill() async {
    record("the app is killed")
    let unsure = sinceSaved.touched.flatMap { touched in network.idsInFlight?.union(touched) }
    model.forgetClaims(about: unsure)
    model.forgetClaims(about: sinceSaved.pushes)
    for id in sinceSaved.pushes { model.pushes[id] = nil }
    for id in sinceSaved.notices { model.notices.remove(id) }
    // A choice whose write did not finish is lost: the saved one is the person's.
    if sinceSaved.filter || settings.isWriting(SettingsKey.filter) {
      let saved = settings.saved(Feature.SavedFilter.self, forKey: SettingsKey.filter)
      model.filter = saved?.filter ?? .all
      model.unreadOnly = saved?.unreadOnly ?? false
    }
    if sinceSaved.muted || settings.isWriting(NotificationPreferencesFeature.settingsKey) {
      let saved = settings.saved(
        [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey)
      model.muted = Set(saved ?? [])
    }
    stopTheApp()
    store = makeStore()
    await launchApp()
  }

  /// Stops the store's effects where they are: its calls never answer, its writes never finish.
  func stopTheApp() {
    store.cancelAll()
    tokens.stop()
    network.forgetCallsInFlight()
    settings.forgetWritesInFlight()
    sinceSaved = Unsaved()
  }

  /// The person changes a notification while the network is down, and the app is launched nine
  /// times before it is back: the change stays queued (issue #24, item 4).
  func launchOffline() async {
    record("offline for nine launches")
    let errorsBefore = log.reportedErrors
    let saved = LockedState(InMemoryNotificationBackend.Faults())
    backend.updateFaults { faults in
      saved.withLock { $0 = faults }
      faults = .init()
      faults.failureRate = 1
      faults.randomError = .network
    }
    let wasSlow = network.isSlow
    network.isSlow = false
    let id = randomListedID()
    if let listed = store.state.notifications[id: id], !listed.isLocal {
      personChanges(listed.isRead ? .markAsUnread(id) : .markAsRead(id))
    }
    await letTimePass(.milliseconds(500))
    for _ in 0..<9 where !failed {
      await relaunch()
      await letTimePass(.milliseconds(300))
    }
    let restored = saved.withLock { $0 }
    backend.updateFaults { $0 = restored }
    network.isSlow = wasSlow
    record("online again")
    if LifetimeModelTests.launchesDoNotCountAsAttempts,
      log.errors(after: errorsBefore).contains(.outboxGaveUp)
    {
      fail(["a change queued offline was given up after nine launches offline"])
    }
  }
}
