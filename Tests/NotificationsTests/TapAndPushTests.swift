import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct TapAndPushTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  static let announced: NotificationsFeature.BannerOptions = [.banner, .sound, .badge]

  /// A push that spells out every field a notification shows, and the notification it becomes,
  /// so each banner test states exactly what it expects.
  func push(
    _ id: String, type: NotificationType = .ping, priority: NotificationPriority
  ) -> (payload: Data, notification: NotificationData) {
    let json = """
      {"id":"\(id)","type":"\(type.rawValue)","title":"Title \(id)","body":"Message \(id)",\
      "timestamp":1700000000,"priority":"\(priority.rawValue)"}
      """
    return (payload(json), Fixtures.notification(id, type: type, priority: priority))
  }

  func store(muting muted: Set<NotificationType>) -> TestStore<
    NotificationsFeature.State, NotificationsFeature.Action
  > {
    var state = NotificationsFeature.State()
    state.mutedTypes = muted
    return makeStore(state: state)
  }

  // MARK: Tapping

  @Test func tappingMarksReadAndNavigatesToTheTarget() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    await store.send(.notificationTapped("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
      $0.lastTap = .navigated(id: "n1")
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.navigateToPing(pingID: "p1", contactID: "c1")))
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test(
    arguments: zip(
      [
        NotificationTarget.contact(contactID: "c2"), .alert(alertID: "a2"),
        .ping(pingID: "p2", contactID: "c2"),
      ],
      [
        NotificationsFeature.Action.Delegate.navigateToContact(contactID: "c2"),
        .navigateToAlert(alertID: "a2"), .navigateToPing(pingID: "p2", contactID: "c2"),
      ]))
  func tappingNavigatesToTheScreenOfEachKindOfTarget(
    target: NotificationTarget, navigation: NotificationsFeature.Action.Delegate
  ) async {
    let tapped = Fixtures.notification("t1", target: target)
    let store = makeStore([tapped]) { $0.notificationClient.markAsRead = { _ in } }
    await store.send(.notificationTapped("t1")) {
      $0.notifications[id: "t1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "t1", isRead: true, previous: false)
      $0.lastTap = .navigated(id: "t1")
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(navigation))
    await store.receive(.delegate(.unreadCountChanged(0)))
  }

  @Test func aNotificationWithoutATargetOpensNothingAndSaysSo() async {
    let store = makeStore {
      $0.notificationClient.fetchNotification = { _ in throw UserFacingError.notFound }
    }
    await store.send(.notificationTapped("n3")) { $0.lastTap = .nothingToOpen(id: "n3") }
    // Not loaded, and the backend has none either.
    await store.send(.notificationTapped("missing"))
    await store.receive(.notificationLoadFailed(id: "missing", .notFound, thenTap: true)) {
      $0.lastTap = .notFound(id: "missing")
    }
  }

  @Test func tappingANotificationNotLoadedFetchesItListsItAndOpensIt() async {
    let far = Fixtures.notification("far", minutesAgo: 600, target: .alert(alertID: "a9"))
    let store = makeStore {
      $0.notificationClient.fetchNotification = { id in
        guard id == "far" else { throw UserFacingError.notFound }
        return far
      }
      $0.notificationClient.markAsRead = { _ in }
    }
    await store.send(.notificationTapped("far"))
    await store.receive(.notificationLoaded(far, thenTap: true)) {
      $0.notifications.append(far)
      $0.notifications[id: "far"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "far", isRead: true, previous: false)
      $0.lastTap = .navigated(id: "far")
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.navigateToAlert(alertID: "a9")))
  }

  @Test func aNotificationLoadedByIDIsListedOnceAndADeletedOneIsNotFetched() async {
    let far = Fixtures.notification("far", minutesAgo: 600)
    let store = makeStore {
      $0.notificationClient.fetchNotification = { _ in far }
      $0.notificationClient.delete = { _ in }
    }
    await store.send(.loadNotification("n1"))
    await store.send(.loadNotification("far"))
    await store.receive(.notificationLoaded(far, thenTap: false)) {
      $0.notifications.append(far)
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
    await store.send(.delete("far")) {
      $0.notifications.remove(id: "far")
      $0.sync.pendingChanges[changeID] = .delete(far, index: 3)
      $0.deletedIDs = ["far"]
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.loadNotification("far")) { $0.error = .notFound }
    await store.receive(.delegate(.errorOccurred(.notFound)))
  }

  @Test func aTappedPushMarksTheFeedItemReadAndNavigates() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    let json = #"{"id":"n2","type":"alert","alertId":"a1","title":"Title n2","body":"Message n2","timestamp":1699999880}"#
    await store.send(.notificationResponse(payload(json))) {
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n2", isRead: true, previous: false)
      $0.lastTap = .navigated(id: "n2")
    }
    // A tapped push is never announced: the person is already looking at it.
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.navigateToAlert(alertID: "a1")))
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  // MARK: Receiving

  @Test func aValidPushIsInsertedInOrderAndAnnounced() async {
    let store = makeStore()
    let json = #"{"aps":{"alert":{"title":"Alert!","body":"Smoke"}},"id":"n7","type":"alert","alertId":"a7","timestamp":1699999990}"#
    let expected = NotificationData(
      id: "n7", type: .alert, title: "Alert!", message: "Smoke",
      timestamp: Date(timeIntervalSince1970: 1_699_999_990), target: .alert(alertID: "a7"))
    await store.send(.pushReceived(payload(json))) {
      $0.notifications.insert(expected, at: 0)
      $0.unlistedPushIDs = ["n7"]
      $0.pushesBeingSaved = saved(expected)
    }
    await store.receive(.delegate(.presentBanner(expected, Self.announced)))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  @Test func theSameIDByPushAndByFeedShowsOnce() async {
    let store = makeStore()
    let json = #"{"id":"n1","type":"ping","pingId":"p1","contactId":"c1","title":"Title n1","body":"Message n1","timestamp":1699999940}"#
    // The push is the feed's n1 exactly: the list does not change and the count stays.
    await store.send(.pushReceived(payload(json)))
    await store.receive(.delegate(.presentBanner(Fixtures.feed[0], Self.announced)))
  }

  @Test func aPushedNotificationThatAFeedPageAlsoHoldsShowsOnce() async {
    let store = makeStore([])
    let pushed = push("n7", priority: .regular)
    await store.send(.pushReceived(pushed.payload)) {
      $0.notifications = [pushed.notification]
      $0.unlistedPushIDs = ["n7"]
      $0.pushesBeingSaved = saved(pushed.notification)
    }
    await store.receive(.delegate(.presentBanner(pushed.notification, Self.announced)))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The feed's copy is older and edited since: it replaces the pushed one, in its place.
    var fromFeed = Fixtures.notification("n7", minutesAgo: 0.5)
    fromFeed.title = "Edited"
    let page = NotificationPage(items: [fromFeed, Fixtures.feed[0]], hasMore: false)
    await store.send(.pageLoaded(page, replacing: false)) {
      $0.hasLoadedOnce = true
      $0.notifications = [fromFeed, Fixtures.feed[0]]
      $0.unlistedPushIDs = []
      $0.pushesBeingSaved = saved()
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  @Test func anInvalidPushIsRecordedAndChangesNothingElse() async {
    let store = makeStore()
    await store.send(.pushReceived(payload(#"{"type":"ping"}"#))) {
      $0.lastPushParseError = .missingField("id")
    }
    await store.receive(.delegate(.pushParseFailed(.missingField("id"))))
  }

  // MARK: Banners

  @Test func aSilentPushIsNeverAnnounced() async {
    // Unmuted and in the foreground: only its priority keeps it from a banner.
    let store = store(muting: [])
    let silent = push("s1", priority: .silent)
    await store.send(.pushReceived(silent.payload)) {
      $0.notifications = [silent.notification]
      $0.unlistedPushIDs = ["s1"]
      $0.pushesBeingSaved = saved(silent.notification)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func aMutedTypeIsNotAnnouncedAtRegularPriority() async {
    let store = store(muting: [.ping])
    let muted = push("m1", priority: .regular)
    await store.send(.pushReceived(muted.payload)) {
      $0.notifications = [muted.notification]
      $0.unlistedPushIDs = ["m1"]
      $0.pushesBeingSaved = saved(muted.notification)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func aMutedTypeIsAnnouncedAtHighPriority() async {
    let store = store(muting: [.ping])
    let urgent = push("h1", priority: .high)
    await store.send(.pushReceived(urgent.payload)) {
      $0.notifications = [urgent.notification]
      $0.unlistedPushIDs = ["h1"]
      $0.pushesBeingSaved = saved(urgent.notification)
    }
    await store.receive(.delegate(.presentBanner(urgent.notification, Self.announced)))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func aMutedSystemNotificationIsNotAnnouncedEvenAtHighPriority() async {
    let store = store(muting: [.system])
    let system = push("h2", type: .system, priority: .high)
    await store.send(.pushReceived(system.payload)) {
      $0.notifications = [system.notification]
      $0.unlistedPushIDs = ["h2"]
      $0.pushesBeingSaved = saved(system.notification)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func anUnmutedSystemNotificationAtHighPriorityIsAnnounced() async {
    let store = store(muting: [.ping])
    let system = push("h3", type: .system, priority: .high)
    await store.send(.pushReceived(system.payload)) {
      $0.notifications = [system.notification]
      $0.unlistedPushIDs = ["h3"]
      $0.pushesBeingSaved = saved(system.notification)
    }
    await store.receive(.delegate(.presentBanner(system.notification, Self.announced)))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func pushesAreAnnouncedOnlyInTheForeground() async {
    let store = store(muting: [])
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let inBackground = push("b1", priority: .high)
    await store.send(.pushReceived(inBackground.payload)) {
      $0.notifications = [inBackground.notification]
      $0.unlistedPushIDs = ["b1"]
      $0.pushesBeingSaved = saved(inBackground.notification)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))

    await store.send(.foregroundChanged(true)) { $0.isInForeground = true }
    let inForeground = push("f1", priority: .regular)
    await store.send(.pushReceived(inForeground.payload)) {
      $0.notifications.insert(inForeground.notification, at: 1)
      $0.unlistedPushIDs.insert("f1")
      $0.pushesBeingSaved = saved(inBackground.notification, inForeground.notification)
    }
    await store.receive(.delegate(.presentBanner(inForeground.notification, Self.announced)))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))
  }
}
