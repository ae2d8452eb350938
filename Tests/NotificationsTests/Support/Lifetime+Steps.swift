import Foundation
import Loom
import NotificationClients
import Notifications

/// The steps of a lifetime: what the person, the operating system, the backend and the network
/// do, each chosen at random. Launches are in `Lifetime+Launch.swift`, converging in
/// `Lifetime+Converge.swift`.
extension Lifetime {
  func act() async {
    let roll = Int.random(in: 0..<115, using: &random)
    switch roll {
    case 0..<12: personChanges(.markAsRead(randomListedID()))
    case 12..<19: personChanges(.markAsUnread(randomListedID()))
    case 19..<24: personChanges(.delete(randomListedID()))
    case 24..<26: personChanges(.notificationTapped(randomListedID()))
    case 26..<28: personChanges(.markAllAsRead)
    case 28..<30:
      let entity =
        [Feature.Entity.contact("c0"), .contact("c1"), .contact("c2")]
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
    case 74..<77: pickFilter()
    case 77..<80: pickUnreadOnly()
    case 80..<84: recordNotice()
    case 84..<86:
      let isInForeground = Bool.random(using: &random)
      record("foreground \(isInForeground)")
      store.send(.foregroundChanged(isInForeground))
    case 86..<90: changeFaults()
    case 90..<93:
      record("dismiss error")
      store.send(.dismissError)
    case 93..<100: record("the person waits")
    case 100..<103: await kill()
    case 103..<105: await refreshTwiceAnsweredOutOfOrder()
    case 105..<108: toggleBanners()
    case 108: setDeviceClock()
    case 109..<111: receiveThePushOfADeletedNotification()
    case 111: await launchOffline()
    case 112..<114:
      record("the operating system replaces the device token")
      tokens.issueNewToken()
    default: record("the person waits")
    }
  }

  func randomListedID() -> String {
    let ids = store.state.shown.ids
    return ids.isEmpty ? "none" : ids[Int.random(in: 0..<ids.count, using: &random)]
  }

  /// Sends an action of the person's, without waiting for it, and checks and records the
  /// change it made to the list at once.
  func personChanges(_ action: Feature.Action) {
    record("\(action)")
    let before = store.state.shown
    send(action)
    let after = store.state.shown
    var problems: [String] = []
    switch action {
    case .markAsRead(let id), .notificationTapped(let id):
      if before.contains(id: id), after[id: id]?.isRead != true {
        problems.append("\(id) is not read at once")
      }
    case .markAsUnread(let id):
      if before[id: id]?.isLocal == true {
        if after[id: id]?.isRead == false { problems.append("the local notice \(id) is unread") }
      } else if before.contains(id: id), after[id: id]?.isRead != false {
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
    if case .markAllAsRead = action {
      // Every notification the backend has is marked read, those the list has not loaded too:
      // what the person claimed about those no longer holds.
      for notification in backend.notifications where !before.contains(id: notification.id) {
        model.readClaims[notification.id] = nil
      }
    }
    if case .markTargetRead(let entity) = action {
      // Those about it the list has not loaded are marked read once the backend names them,
      // unless that fetch fails: what the person claimed about them before no longer holds.
      for notification in backend.notifications
      where entity.matches(notification.target) && !before.contains(id: notification.id) {
        model.readClaims[notification.id] = nil
      }
    }
    for notification in before where !after.contains(id: notification.id) {
      deletedCopies[notification.id] = notification
    }
    model.recordPersonChange(from: before, to: after)
    if case .clearAll = action { clearAllMayBeQueued = true }
    let touched = Set(before.lazy.map(\.id).filter { before[id: $0] != after[id: $0] })
    touchedSinceSettle.formUnion(touched)
    switch action {
    // What they change beyond the list is not known here.
    case .clearAll, .markTargetRead: sinceSaved.touched = nil
    default: sinceSaved.touch(touched)
    }
  }

  // MARK: Pushes

  /// The payload of `notification`'s push; without a timestamp when `stamped` is false (the
  /// device stamps it).
  func pushPayload(_ notification: NotificationData, stamped: Bool = true) -> Data {
    let timestamp = Int(notification.timestamp.timeIntervalSince1970)
    let stamp = stamped ? #","timestamp":\#(timestamp)"# : ""
    return Data(
      #"{"id":"\#(notification.id)","type":"\#(notification.type.rawValue)","title":"\#(notification.title)","body":""\#(stamp)}"#
        .utf8)
  }

  func newNotification(_ prefix: String) -> NotificationData {
    nextID += 1
    let types: [NotificationType] = [.ping, .ping, .role, .system, .alert]
    return NotificationData(
      id: "\(prefix)\(nextID)", type: types[nextID % types.count], title: "\(prefix) \(nextID)",
      message: "", timestamp: clocks.serverTime(for: nextID))
  }

  /// A new push arrives (one time in six without a timestamp), and must be listed unread.
  @discardableResult
  func receiveNewPush(listedLater: Bool) -> NotificationData {
    let push = newNotification("push")
    let stamped = Int.random(in: 0..<6, using: &random) != 0
    record(
      "push \(push.id)\(stamped ? "" : " without a timestamp")"
        + "\(listedLater ? ", which the backend lists later" : "")")
    send(.pushReceived(pushPayload(push, stamped: stamped)))
    sinceSaved.pushes.insert(push.id)
    guard store.state.shown[id: push.id]?.isRead == false else {
      fail(["the new push \(push.id) is not listed unread"])
      return push
    }
    model.pushes[push.id] = push
    if listedLater { model.pushesToList.append(push) }
    return push
  }

  /// The push of a notification already listed: nothing changes, not its read state, not its
  /// place.
  func receiveDuplicatePush() {
    let id = randomListedID()
    guard let listed = store.state.shown[id: id], !listed.isLocal else { return }
    record("duplicate push \(id)")
    let before = store.state.shown
    store.send(.pushReceived(pushPayload(listed)))
    if store.state.shown != before {
      fail(["the duplicate push of \(id) changed the list"])
    }
  }

  /// The push service delivers the push of a notification the person deleted again: it is not
  /// listed again once the server answers its look-up (issue #24, item 6; the model checks).
  func receiveThePushOfADeletedNotification() {
    let deleted = model.deletions.keys.sorted()
    guard !deleted.isEmpty else { return }
    let id = deleted[Int.random(in: 0..<deleted.count, using: &random)]
    guard let copy = deletedCopies[id] else { return }
    record("the push of \(id), which the person deleted, comes again")
    // After a relaunch nothing on the device may remember the deletion: the push is listed
    // until the server answers its look-up, or the next first page's when that one fails;
    // converging checks it left.
    model.deletedPushesAwaitingLookUp.insert(id)
    send(.pushReceived(pushPayload(copy)))
  }

  /// The backend lists a push it was sent earlier, as if it had arrived there late.
  func backendListsAPush() {
    guard !model.pushesToList.isEmpty else { return }
    let push = model.pushesToList.removeFirst()
    // A push the person deleted stays deleted: not inserted again.
    guard model.deletions[push.id] == nil,
      !backend.notifications.contains(where: { $0.id == push.id })
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

  /// Another device deletes a notification, which must not be listed again once the list has
  /// dropped it.
  func otherDeviceDeletes() async {
    guard let id = randomBackendID() else { return }
    record("another device deletes \(id)")
    model.forgetClaims(about: [id])
    model.pushes[id] = nil
    model.backendDeletionsNotSeen[id] = store.state.shown.contains(id: id)
    // Held as a push the server has not listed, before this launch's first page: that page,
    // made after the deletion, opens the stream after it too, and only a look-up tells.
    if store.state.log.unlisted.contains(id: id), store.state.server.listing == nil {
      model.deletedPushesAwaitingLookUp.insert(id)
    }
    await otherDeviceApplies(.delete(id))
  }

  /// Makes a change of another device's on the backend, with the faults off (the faults are the
  /// feature's network's), on the main actor.
  func otherDeviceApplies(_ intent: ChangeIntent) async {
    let backend = backend.client
    // A random id: the feature's come from a counter, and the backend applies an id once.
    await network.withoutFaults { _ = try? await backend.apply(ChangeRequest(id: UUID(), intent)) }
  }

  // MARK: The network

  /// Refreshes twice: the first page of the first refresh is read, another device changes the
  /// feed, then the second refresh's page is read and answered before the first one's.
  func refreshTwiceAnsweredOutOfOrder() async {
    record("refresh twice, answered out of order")
    network.delayNextPageAnswers([Int.random(in: 1_000...2_000, using: &random), 0])
    store.send(.refreshRequested)
    // The first refresh's page is read (a request waits at most 400 ms unless slow).
    await letTimePass(.milliseconds(450))
    switch Int.random(in: 0..<3, using: &random) {
    case 0: otherDeviceInserts()
    case 1: await otherDeviceChangesReadState()
    default: await otherDeviceDeletes()
    }
    store.send(.refreshRequested)
  }

  func changeFaults() {
    let mode = Int.random(in: 0..<5, using: &random)
    network.isSlow = mode == 3
    let rate = [0.0, 0.3, 0.15, 0.0, 0.1][mode]
    let error: UserFacingError = [
      .network, .network, .server(status: 400), .network, .server(status: 503),
    ][mode]
    faults = ["none", "retryable", "permanent", "latency", "server errors"][mode]
    tokens.failureRate = mode == 1 ? rate : 0
    record("faults: \(faults)")
    backend.updateFaults {
      $0 = .init()
      $0.failureRate = rate
      $0.randomError = error
    }
  }

  // MARK: The device

  func recordNotice() {
    record("local notice")
    let before = store.state.shown
    send(.recordLocalNotice(title: "Notice \(step)", message: ""))
    let added = store.state.shown.filter { !before.contains(id: $0.id) }
    guard added.count == 1, let notice = added.first, notice.isLocal, notice.isRead else {
      fail(["a local notice is not listed, read, at once"])
      return
    }
    model.notices.insert(notice.id)
    sinceSaved.notices.insert(notice.id)
  }

  func pickFilter() {
    let filter =
      [NotificationFilter.all, .type(.ping), .type(.alert), .type(.system)]
      .randomElement(using: &random) ?? .all
    record("filter \(filter)")
    adoptTheFilterShownIfUnknown()
    store.send(.filterChanged(filter))
    sinceSaved.filter = true
    model.filter = filter
    model.filterIsKnown = true
  }

  func pickUnreadOnly() {
    let unreadOnly = Bool.random(using: &random)
    record("unread only \(unreadOnly)")
    adoptTheFilterShownIfUnknown()
    store.send(.unreadOnlyChanged(unreadOnly))
    sinceSaved.filter = true
    model.unreadOnly = unreadOnly
    model.filterIsKnown = true
  }

  /// Takes the filter shown as the person's, when a race a flag forgives may have replaced
  /// their choice: a pick changes what is shown.
  func adoptTheFilterShownIfUnknown() {
    guard !model.filterIsKnown else { return }
    model.filter = store.state.filter
    model.unreadOnly = store.state.unreadOnly
  }

  /// Turns a type's banners on or off in the preferences.
  func toggleBanners() {
    let problems = checkBanners()
    if !problems.isEmpty { fail(problems) }
    let type = [NotificationType.ping, .role, .system].randomElement(using: &random) ?? .ping
    let isOn = Bool.random(using: &random)
    record("banners of \(type) \(isOn ? "on" : "off")")
    if !model.mutedIsKnown { model.muted = store.state.preferences.muted }
    store.send(.preferences(.typeToggled(type, isOn: isOn)))
    sinceSaved.muted = true
    if isOn { model.muted.remove(type) } else { model.muted.insert(type) }
    model.mutedIsKnown = true
  }

  /// Sets the device's clock off the backend's: in step, ten minutes ahead, or a day and an
  /// hour behind (pushes are then stamped with the device's time).
  func setDeviceClock() {
    let skew = [0, 600, -25 * 60 * 60][Int.random(in: 0..<3, using: &random)]
    record("the device's clock is \(skew) s off the backend's")
    clocks.deviceSkew = TimeInterval(skew)
  }
}
