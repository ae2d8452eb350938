import Foundation
import Loom
import NotificationClients
import Notifications

/// Launches: the app closed and opened again, killed mid-way, launched from a tapped push, and
/// what the person does while a launch restores what the previous one saved.
extension Lifetime {
  typealias SettingsKey = Feature.SettingsKey

  /// Starts the launch whose store is `store`: it appears, and the person (or the operating
  /// system) may do something first, or right after, while it restores what was saved.
  func launchApp() async {
    // The banners of the launch before are checked while it is known which pushes came first.
    let problems = checkBanners()
    if !problems.isEmpty { fail(problems) }
    errorsAtLaunch = log.reportedErrors
    // One launch in four reads and writes the settings and the log slowly.
    settings.isSlow = Int.random(in: 0..<4, using: &random) == 0
    changeLog.isSlow = settings.isSlow
    tokens.launch(settings: settings.client)
    switch Int.random(in: 0..<12, using: &random) {
    case 0:
      tapAPushAtLaunch()
      appear()
    case 1:
      appear()
      tapAPushAtLaunch()
    case 2:
      for _ in 0...Int.random(in: 0...1, using: &random) { receivePushAtLaunch() }
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
      expectTappedAndRead(push.id)
      model.pushes[push.id] = push
      if listedLater { model.pushesToList.append(push) }
      return
    }
    let notification = candidates[Int.random(in: 0..<candidates.count, using: &random)]
    record("tap the push of \(notification.id)")
    send(.notificationResponse(pushPayload(notification)))
    sinceSaved.touch([notification.id])
    expectTappedAndRead(notification.id)
  }

  func expectTappedAndRead(_ id: String) {
    guard store.state.shown[id: id]?.isRead == true else {
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
      !store.state.shown.contains(id: id)
    else { return }
    let isRead = Bool.random(using: &random)
    record("the person marks \(id), not listed, \(isRead ? "read" : "unread"), offline")
    // Its call fails for now: the change waits in the log, maybe before this launch has read
    // what the previous one saved.
    backend.failNext(1, with: .network)
    send(isRead ? .markAsRead(id) : .markAsUnread(id))
    model.readClaims[id] = (isRead, model.errors)
    sinceSaved.touch([id])
  }

  /// Sends an action of the person's or the operating system's.
  func send(_ action: Feature.Action) {
    store.send(action)
  }

  // MARK: Closing

  /// Closes the app and launches it again: what it was writing is written, the old store's
  /// effects stop where they are, and a new store starts from the saved settings and the same
  /// backend.
  func relaunch() async {
    record("relaunch")
    await settle()
    // The app finishes its writes as it closes (and calls answer meanwhile); a launch that has
    // not read what was saved has written nothing yet.
    func isWriting() -> Bool {
      settings.isWriting() || changeLog.isWriting || store.state.launch != .ready
    }
    for _ in 0..<50 where isWriting() {
      await letTimePass(.milliseconds(100))
    }
    guard !isWriting() else {
      // Still writing: as if killed.
      await kill()
      return
    }
    // A change still on its way may or may not have reached the backend.
    model.forgetClaims(about: network.idsInFlight)
    forgetChoicesMadeBeforeTheRestore()
    stopTheApp()
    await settle()
    // Local notices are saved with the pushes: they are still listed.
    store = makeStore()
    await launchApp()
  }

  /// Kills the app without letting anything finish, and launches it again at once: what was
  /// neither saved nor confirmed by the backend may be lost, nothing else.
  func kill() async {
    record("the app is killed")
    // The banners so far are checked against the muted types the person had then, before a
    // choice whose write is lost gives way to the saved one.
    let problems = checkBanners()
    if !problems.isEmpty { fail(problems) }
    let unsure = sinceSaved.touched.flatMap { touched in network.idsInFlight?.union(touched) }
    model.forgetClaims(about: unsure)
    model.forgetClaims(about: sinceSaved.pushes)
    for id in sinceSaved.pushes { model.pushes[id] = nil }
    for id in sinceSaved.notices { model.notices.remove(id) }
    // A choice whose write did not finish is lost: the saved one is the person's.
    if sinceSaved.filter || settings.isWriting(SettingsKey.filter) { modelTakesTheSavedFilter() }
    if sinceSaved.muted || settings.isWriting(NotificationPreferencesFeature.settingsKey) {
      modelTakesTheSavedMutedTypes()
    }
    forgetChoicesMadeBeforeTheRestore()
    stopTheApp()
    store = makeStore()
    await launchApp()
  }

  /// A choice made before this launch read the saved ones is saved once it has: closed before,
  /// it is lost, and the saved one is the person's.
  func forgetChoicesMadeBeforeTheRestore() {
    guard let arrived = store.state.launch.arrived else { return }
    if arrived.filter != nil || arrived.unreadOnly != nil { modelTakesTheSavedFilter() }
    if !arrived.bannersToggled.isEmpty { modelTakesTheSavedMutedTypes() }
  }

  func modelTakesTheSavedFilter() {
    let saved = settings.saved(Feature.SavedFilter.self, forKey: SettingsKey.filter)
    model.filter = saved?.filter ?? .all
    model.unreadOnly = saved?.unreadOnly ?? false
  }

  func modelTakesTheSavedMutedTypes() {
    let saved = settings.saved(
      [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey)
    model.muted = Set(saved ?? [])
  }

  /// Stops the store's effects where they are: its calls never answer, its writes never finish.
  func stopTheApp() {
    store.cancelAll()
    tokens.stop()
    network.forgetCallsInFlight()
    settings.forgetWritesInFlight()
    changeLog.forgetCallsInFlight()
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
    if let listed = store.state.shown[id: id], !listed.isLocal {
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
    if log.errors(after: errorsBefore).contains(.outboxGaveUp) {
      fail(["a change queued offline was given up after nine launches offline"])
    }
  }
}
