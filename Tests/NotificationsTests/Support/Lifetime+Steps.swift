import Foundation
import Loom
import NotificationClients
import Notifications

/// The steps of a lifetime: what the person, the operating system, the backend and the network
/// do, each chosen at random.
extension Lifetime {
  func act() async {
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<12: personChanges(.markAsRead(randomListedID()))
    case 12..<19: personChanges(.markAsUnread(randomListedID()))
    case 19..<24: personChanges(.delete(randomListedID()))
    case 24..<26: personChanges(.notificationTapped(randomListedID()))
    case 26..<28: personChanges(.markAllAsRead)
    case 28..<30:
      let entity = [Feature.Entity.contact("c0"), .contact("c1"), .contact("c2")]
        .randomElement(using: &random) ?? .contact("c0")
      personChanges(.markTargetRead(entity))
    case 30: if step > 100 { personChanges(.clearAll) }
    case 31..<37: receiveNewPush(listedLater: false)
    case 37..<41: receiveNewPush(listedLater: true)
    case 41..<45: receiveDuplicatePush()
    case 45..<49: backendListsAPush()
    case 49..<53: otherDeviceInserts()
    case 53..<58: await otherDeviceChangesReadState()
    case 58..<60: await otherDeviceDeletes()
    case 60..<65:
      record("refresh")
      store.send(.refreshRequested)
    case 65..<69:
      record("load more")
      store.send(.loadMoreRequested)
    case 69..<72:
      record("the live stream drops")
      network.dropStreams(with: .network)
    case 72..<74: await relaunch()
    case 74..<77:
      let filter = [NotificationFilter.all, .type(.ping), .type(.alert), .type(.system)]
        .randomElement(using: &random) ?? .all
      record("filter \(filter)")
      model.filter = filter
      store.send(.filterChanged(filter))
    case 77..<80:
      let unreadOnly = Bool.random(using: &random)
      record("unread only \(unreadOnly)")
      model.unreadOnly = unreadOnly
      store.send(.unreadOnlyChanged(unreadOnly))
    case 80..<84: recordNotice()
    case 84..<86:
      let isInForeground = Bool.random(using: &random)
      record("foreground \(isInForeground)")
      store.send(.foregroundChanged(isInForeground))
    case 86..<90: changeFaults()
    case 90..<93:
      record("dismiss error")
      store.send(.dismissError)
    default:
      record("the person waits")
    }
  }

  func randomListedID() -> String {
    let ids = store.state.notifications.ids
    return ids.isEmpty ? "none" : ids[Int.random(in: 0..<ids.count, using: &random)]
  }

  /// Sends an action of the person's, without waiting for it, and checks and records the
  /// change it made to the list at once.
  func personChanges(_ action: Feature.Action) {
    record("\(action)")
    let before = store.state.notifications
    // The notifications an earlier change may still be on its way for.
    let racing = network.idsInFlight.map { $0.union(touchedSinceSettle) }
    store.send(action)
    let after = store.state.notifications
    var problems: [String] = []
    switch action {
    case .markAsRead(let id), .notificationTapped(let id):
      if before.contains(id: id), after[id: id]?.isRead != true {
        problems.append("\(id) is not read at once")
      }
    case .markAsUnread(let id):
      if before.contains(id: id), after[id: id]?.isRead != false {
        problems.append("\(id) is not unread at once")
      }
    case .delete(let id):
      if after.contains(id: id) { problems.append("\(id) is still listed after delete") }
    case .markAllAsRead:
      if after.contains(where: { !$0.isRead }) { problems.append("unread left after mark all") }
    case .clearAll:
      if !after.isEmpty { problems.append("notifications left after clear all") }
    default:
      break
    }
    if !problems.isEmpty { fail(problems) }
    if case .markTargetRead(let entity) = action {
      // Those about it the list has not loaded are marked read once the backend names them,
      // unless that fetch fails: what the person claimed about them before no longer holds.
      for notification in backend.notifications
      where entity.matches(notification.target) && !before.contains(id: notification.id) {
        model.readClaims[notification.id] = nil
      }
    }
    model.recordPersonChange(from: before, to: after)
    if case .clearAll = action { clearAllMayBeQueued = true }
    let touched = Set(before.lazy.map(\.id).filter { before[id: $0] != after[id: $0] })
    touchedSinceSettle.formUnion(touched)
    if !LifetimeModelTests.changesToOneNotificationApplyInOrder {
      // Two changes to one notification in flight at once may reach the backend, and apply
      // here, in either order: the person's last choice is not promised until they settle.
      let raced = racing.map { touched.intersection($0) } ?? touched
      for id in raced { model.readClaims[id] = nil }
    }
  }

  // MARK: Pushes

  func pushPayload(_ notification: NotificationData) -> Data {
    let timestamp = Int(notification.timestamp.timeIntervalSince1970)
    return Data(
      #"{"id":"\#(notification.id)","type":"ping","title":"\#(notification.title)","body":"","timestamp":\#(timestamp)}"#
        .utf8)
  }

  func newNotification(_ prefix: String) -> NotificationData {
    nextID += 1
    return NotificationData(
      id: "\(prefix)\(nextID)", type: .ping, title: "\(prefix) \(nextID)", message: "",
      timestamp: start.addingTimeInterval(Double(nextID)))
  }

  func receiveNewPush(listedLater: Bool) {
    let push = newNotification("push")
    record("push \(push.id)\(listedLater ? ", which the backend lists later" : "")")
    store.send(.pushReceived(pushPayload(push)))
    if clearAllMayBeQueued, !LifetimeModelTests.aQueuedClearAllSparesNewerNotifications {
      // A clear-all waiting to be sent again deletes every notification when it is, this
      // push too: it may be hidden already.
      return
    }
    guard store.state.notifications[id: push.id]?.isRead == false else {
      fail(["the new push \(push.id) is not listed unread"])
      return
    }
    model.pushes[push.id] = push
    if listedLater { model.pushesToList.append(push) }
  }

  /// The push of a notification already listed: nothing changes, not its read state, not its
  /// place.
  func receiveDuplicatePush() {
    let id = randomListedID()
    guard let listed = store.state.notifications[id: id], !listed.isLocal else { return }
    record("duplicate push \(id)")
    let before = store.state.notifications
    store.send(.pushReceived(pushPayload(listed)))
    if store.state.notifications != before {
      fail(["the duplicate push of \(id) changed the list"])
    }
  }

  /// The backend lists a push it was sent earlier, as if it had arrived there late.
  func backendListsAPush() {
    guard !model.pushesToList.isEmpty else { return }
    let push = model.pushesToList.removeFirst()
    // A push the person deleted stays deleted: not inserted again.
    guard model.deletions[push.id] == nil, !backend.notifications.contains(where: { $0.id == push.id })
    else { return }
    record("the backend lists the push \(push.id)")
    backend.insert(push)
    // From now on it is one of the backend's notifications.
    model.pushes[push.id] = nil
  }

  // MARK: Another device

  func otherDeviceInserts() {
    let notification = newNotification("other")
    record("another device inserts \(notification.id)")
    backend.insert(notification)
  }

  func randomBackendID() -> String? {
    let feed = backend.notifications
    return feed.isEmpty ? nil : feed[Int.random(in: 0..<min(feed.count, 60), using: &random)].id
  }

  func otherDeviceChangesReadState() async {
    guard let id = randomBackendID() else { return }
    let isRead = Bool.random(using: &random)
    record("another device marks \(id) \(isRead ? "read" : "unread")")
    // Whichever of this and the person's change the backend applies last wins.
    model.forgetClaims(about: [id])
    await otherDeviceApplies(isRead ? .markAsRead(id) : .markAsUnread(id))
  }

  func otherDeviceDeletes() async {
    guard let id = randomBackendID() else { return }
    record("another device deletes \(id)")
    model.forgetClaims(about: [id])
    model.pushes[id] = nil
    model.backendDeletionsNotSeen.insert(id)
    await otherDeviceApplies(.delete(id))
  }

  /// Makes a change of another device's on the backend, with the faults off (the faults are the
  /// feature's network's), on the main actor.
  func otherDeviceApplies(_ intent: ChangeIntent) async {
    let backend = backend.client
    // A random id: the feature's come from a counter, and the backend applies an id once.
    await network.withoutFaults { _ = try? await backend.apply(ChangeRequest(id: UUID(), intent)) }
  }

  // MARK: The device

  func recordNotice() {
    record("local notice")
    let before = store.state.notifications
    store.send(.recordLocalNotice(title: "Notice \(step)", message: ""))
    let added = store.state.notifications.filter { !before.contains(id: $0.id) }
    if clearAllMayBeQueued, !LifetimeModelTests.aQueuedClearAllSparesNewerNotifications {
      return  // Hidden by a clear-all waiting in the outbox, as a push is.
    }
    guard added.count == 1, let notice = added.first, notice.isLocal, notice.isRead else {
      fail(["a local notice is not listed, read, at once"])
      return
    }
    model.notices.insert(notice.id)
  }

  func changeFaults() {
    let mode = Int.random(in: 0..<5, using: &random)
    network.isSlow = mode == 3
    let rate = [0.0, 0.3, 0.15, 0.0, 0.1][mode]
    let error: UserFacingError = [.network, .network, .server(status: 400), .network, .server(status: 503)][mode]
    faults = ["none", "retryable", "permanent", "latency", "server errors"][mode]
    record("faults: \(faults)")
    backend.updateFaults {
      $0 = .init()
      $0.failureRate = rate
      $0.randomError = error
    }
  }

  /// Kills the app and launches it again: the old store's effects stop where they are, and a
  /// new store starts from the saved settings and the same backend.
  func relaunch() async {
    record("relaunch")
    await settle()
    // A change still on its way may or may not have reached the backend.
    model.forgetClaims(about: network.idsInFlight)
    store.cancelAll()
    network.forgetCallsInFlight()
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
    store.send(.onAppear)
    await settle()
    let state = store.state
    if state.filter != model.filter || state.unreadOnly != model.unreadOnly {
      fail([
        "after a relaunch the filter is \(state.filter), unread only \(state.unreadOnly); the "
          + "person chose \(model.filter), unread only \(model.unreadOnly)"
      ])
    }
  }

  // MARK: Converging

  /// Stops the faults, lets everything drain, refreshes, and checks that the list is the
  /// backend's feed (plus the pushes it has not listed) with the backend's unread count.
  func converge() async {
    record("converge")
    let savedSlow = network.isSlow
    let saved = LockedState(InMemoryNotificationBackend.Faults())
    backend.updateFaults { faults in
      saved.withLock { $0 = faults }
      faults = .init()
    }
    network.isSlow = false
    await drain()
    if store.state.connection == .offline {
      store.send(.onAppear)
      if !LifetimeModelTests.aCatchUpSkipsWhatANewerPageHas { await drain() }
    }
    store.send(.refreshRequested)
    await drain()
    let afterFirst = (unread: store.state.unreadCount, backend: await backendChangeCursor())
    // A first page can owe the backend a change (a push the person deleted before the feed
    // listed it), which then moves the backend's first page past what was loaded: the page
    // after that is the one to compare with.
    store.send(.refreshRequested)
    await drain()
    // A refresh of a backend that has not changed changes no count: the catch-up of the
    // reconnect, racing the first refresh, replayed nothing that refresh's page had.
    if LifetimeModelTests.aCatchUpSkipsWhatANewerPageHas,
      await backendChangeCursor() == afterFirst.backend,
      store.state.unreadCount != afterFirst.unread
    {
      fail([
        "the unread count was \(afterFirst.unread) after a refresh, \(store.state.unreadCount) "
          + "after the next, though the backend had not changed"
      ])
    }
    compareWithBackend()
    clearAllMayBeQueued = false
    let restored = saved.withLock { $0 }
    backend.updateFaults { $0 = restored }
    network.isSlow = savedSlow
  }

  /// The backend's newest change cursor, as its pages say it (faults are off while converging).
  func backendChangeCursor() async -> ChangeCursor? {
    try? await backend.client.fetchPage(PageRequest(limit: 1)).changeCursor
  }

  /// Runs the clock until nothing waits on it.
  func drain() async {
    for _ in 0..<200 {
      await settle()
      if clock.sleeperCount == 0 { return }
      await clock.run()
    }
  }

  func compareWithBackend() {
    check()
    guard !failed else { return }
    let state = store.state
    let feed = backend.notifications
    let feedIDs = Set(feed.map(\.id))
    // Pushes the backend has not listed: those the model keeps, and those whose deletion was
    // rolled back with an error.
    let unlisted = Set(
      state.notifications.lazy.map(\.id).filter { $0.hasPrefix("push") && !feedIDs.contains($0) })
    let listedByBackend = state.notifications.elements.filter {
      !$0.isLocal && !unlisted.contains($0.id)
    }
    var problems: [String] = []
    // The first page is listed as the backend has it. Past it, a live update of a notification
    // not loaded lists it (see NotificationsFeature+UnreadTotal.swift), so a later one may be
    // listed before the ones between are loaded; each is as the backend has it.
    let firstPage = feed.prefix(Feature.pageSize)
    let listedFirst = listedByBackend.prefix(firstPage.count)
    if listedFirst.map(\.id) != firstPage.map(\.id)
      || listedFirst.map(\.isRead) != firstPage.map(\.isRead)
    {
      problems.append(
        "the list is not the backend's first page: listed \(Self.describe(Array(listedFirst))), "
          + "backend \(Self.describe(Array(firstPage)))")
    }
    let backendRead = Dictionary(feed.map { ($0.id, $0.isRead) }, uniquingKeysWith: { first, _ in first })
    for notification in listedByBackend.dropFirst(firstPage.count)
    where backendRead[notification.id] != notification.isRead {
      problems.append(
        "\(notification.id) is listed \(notification.isRead ? "read" : "unread"); the backend "
          + "has it \(backendRead[notification.id].map { $0 ? "read" : "unread" } ?? "deleted")")
    }
    let unreadPushes = state.notifications.count { unlisted.contains($0.id) && !$0.isRead }
    // A local notice is read when recorded, but the person may mark it unread.
    let unreadNotices = state.notifications.count { $0.isLocal && !$0.isRead }
    let unread = feed.count { !$0.isRead } + unreadPushes + unreadNotices
    if state.unreadCount != unread {
      problems.append("the unread count is \(state.unreadCount), the backend's \(unread)")
    }
    if state.connection != .live { problems.append("the connection is \(state.connection)") }
    if !problems.isEmpty { fail(problems) }
  }

  static func describe(_ notifications: [NotificationData]) -> String {
    notifications.map { "\($0.id)\($0.isRead ? "r" : "")" }.joined(separator: " ")
  }
}
