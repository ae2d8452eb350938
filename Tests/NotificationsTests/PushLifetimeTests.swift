import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// How long a pushed notification lives in the list: through refreshes that do not hold it,
/// into one item once the backend's feed has it, and unchanged by a duplicate delivery or by a
/// push for a notification that was deleted.
@MainActor
struct PushLifetimeTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()

  /// The payload of a push for `Fixtures.notification(id, minutesAgo:)`; without
  /// `minutesAgo` it carries no timestamp, so it is stamped with the time it is received
  /// (`Fixtures.now`, newer than everything in the fixtures' feed).
  func pushPayload(_ id: String, minutesAgo: Double? = nil) -> Data {
    let timestamp = minutesAgo.map {
      #","timestamp":\#(Int(Fixtures.now.timeIntervalSince1970 - $0 * 60))"#
    }
    return payload(
      #"{"id":"\#(id)","type":"ping","title":"Title \#(id)","body":"Message \#(id)"\#(timestamp ?? "")}"#
    )
  }

  // MARK: The whole lifetime

  @Test func aPushOutlivesRefreshesBecomesOneItemAndADuplicateChangesNothing() async {
    let backendFeed = LockedState(Fixtures.feed)
    let store = makeStore {
      $0.notificationClient.fetchPage = { _ in
        NotificationPage(items: backendFeed.withLock { $0 }, hasMore: false)
      }
      $0.notificationClient.markAsRead = { id in
        backendFeed.withLock { feed in
          if let index = feed.firstIndex(where: { $0.id == id }) { feed[index].isRead = true }
        }
      }
    }
    // In the background, so no banner is asked for.
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }

    // The push lands between n1 and n2.
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5)
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))) {
      $0.notifications.insert(pushed, at: 1)
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(3)))

    // A refresh whose page does not hold it yet keeps it.
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
    }
    #expect(store.state.notifications.ids == ["n1", "p1", "n2", "n3"])

    // The backend's feed now has it, edited: the two are one item, the feed's.
    var listed = Fixtures.notification("p1", minutesAgo: 1.2)
    listed.title = "From the feed"
    backendFeed.withLock { $0.insert(listed, at: 1) }
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        NotificationPage(items: [Fixtures.feed[0], listed] + Fixtures.feed.dropFirst()),
        replacing: true)
    ) {
      $0.isLoading = false
      $0.notifications[id: "p1"] = listed
      $0.unlistedPushIDs = []
      $0.pushesBeingSaved = saved()
    }
    await store.receivePushesSaved()
    #expect(store.state.notifications.ids == ["n1", "p1", "n2", "n3"])

    await store.send(.markAsRead("p1")) {
      $0.notifications[id: "p1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "p1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(2)))

    // The same push again, as APNs or FCM may retry it, stamped now (newer than everything):
    // it stays read, where it was, with the feed's content.
    await store.send(.pushReceived(pushPayload("p1")))
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5)))
    #expect(store.state.notifications.ids == ["n1", "p1", "n2", "n3"])
    #expect(store.state.notifications[id: "p1"]?.title == "From the feed")

    // And another refresh keeps it as the backend has it: read.
    var read = listed
    read.isRead = true
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        NotificationPage(items: [Fixtures.feed[0], read] + Fixtures.feed.dropFirst()),
        replacing: true)
    ) {
      $0.isLoading = false
    }
    #expect(store.state.notifications.checkInvariants())
  }

  // MARK: Duplicates

  /// Found by the lifetime test under load: a catch-up that listed a push the person had read
  /// and then reported it updated (still unread, another device's change from before the
  /// person's) showed it unread, though the mark-all telling the backend was about to be sent.
  @Test func aPushReadHereStaysReadThroughEveryChangeOfTheCatchUpThatListsIt() async {
    var state = NotificationsFeature.State(notifications: [Fixtures.notification("p1", isRead: true)])
    state.hasLoadedOnce = true
    state.unlistedPushIDs = ["p1"]
    let store = makeStore(state: state) { $0.notificationClient.markAllAsRead = { _ in } }
    let unread = Fixtures.notification("p1")
    await store.send(
      .caughtUp([
        NotificationEvent(.inserted(unread), cursor: 1),
        NotificationEvent(.updated(unread), cursor: 2),
      ])
    ) {
      $0.newestCursor = 2
      $0.unlistedPushIDs = []
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["p1"])
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes()
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
  }

  @Test func aDuplicatePushLeavesAReadPushRead() async {
    let store = makeStore()
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5)
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))) {
      $0.notifications.insert(pushed, at: 1)
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receive(.delegate(.presentBanner(pushed, [.banner, .sound, .badge])))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(3)))
    // Read here only: the backend's feed has not listed it (see `SavedPushesTests`).
    var read = pushed
    read.isRead = true
    await store.send(.markAsRead("p1")) {
      $0.notifications[id: "p1"]?.isRead = true
      $0.pushesBeingSaved = saved(read)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))

    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5)))
    await store.send(.pushReceived(pushPayload("p1")))
    #expect(store.state.notifications.ids == ["n1", "p1", "n2", "n3"])
    #expect(store.state.notifications[id: "p1"]?.isRead == true)
  }

  @Test func aPushForANotificationTheFeedListsChangesNeitherItsReadStateNorItsPlace() async {
    // n3 is read, and last; the push says unread, and is stamped now.
    let store = makeStore()
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await store.send(.pushReceived(pushPayload("n3")))
    #expect(store.state.notifications.elements == Fixtures.feed)
    #expect(store.state.unlistedPushIDs.isEmpty)
  }

  // MARK: Deleted notifications

  @Test func aPushForADeletedNotificationDoesNotBringItBack() async {
    let store = makeStore { $0.notificationClient.delete = { _ in } }
    await store.send(.delete("n2")) {
      $0.notifications.remove(id: "n2")
      $0.sync.pendingChanges[changeID] = .delete(Fixtures.feed[1], index: 1)
      $0.deletedIDs = ["n2"]
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(1)))

    // In the foreground, and still no banner: the person deleted it.
    await store.send(.pushReceived(pushPayload("n2")))
    await store.send(.notificationResponse(pushPayload("n2"))) {
      $0.lastTap = .notFound(id: "n2")
    }
    #expect(store.state.notifications.ids == ["n1", "n3"])
  }

  @Test func aPushForANotificationWhoseDeletionIsQueuedIsNotListed() async {
    // After a relaunch the outbox still owes the backend n2's deletion.
    var state = NotificationsFeature.State(notifications: [Fixtures.feed[0], Fixtures.feed[2]])
    state.sync.outbox = [.delete("n2")]
    let store = makeStore(state: state)
    await store.send(.pushReceived(pushPayload("n2")))
    // A refresh whose stale page still holds n2 does not list it either.
    await store.send(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.hasLoadedOnce = true
    }
    #expect(store.state.notifications.ids == ["n1", "n3"])
  }

  @Test func aPushForANotificationTheBackendDeletedIsNotListed() async {
    let store = makeStore()
    await store.send(.liveEvent(NotificationEvent(.deleted(id: "n2")))) {
      $0.notifications.remove(id: "n2")
      $0.deletedIDs = ["n2"]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.pushReceived(pushPayload("n2")))
  }

  @Test func aDeletedPushIsDeletedHereAndNotKeptByARefresh() async {
    // The backend is not called: its feed has not listed the push (see `SavedPushesTests`).
    let store = makeStore([])
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let pushed = Fixtures.notification("p1")
    await store.send(.pushReceived(pushPayload("p1"))) {
      $0.notifications = [pushed]
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.delete("p1")) {
      $0.notifications = []
      $0.unlistedPushIDs = []
      $0.deletedIDs = ["p1"]
      $0.deletedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(deleted: ["p1"])
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.hasLoadedOnce = true
      $0.notifications = NotificationFeed(uniqueElements: Fixtures.feed)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.pushReceived(pushPayload("p1")))
  }

  // MARK: Read before the feed lists it

  @Test func aPushReadBeforeTheFeedListsItStaysReadAndTheBackendIsTold() async {
    let marked = LockedState<[[String]?]>([])
    // The writes of the saved pushes after each mark-all finish after its call, in this order.
    let settings = ControlledSettings()
    var pushed = Fixtures.notification("p1")
    let unread = pushed
    pushed.isRead = true
    let key = NotificationsFeature.SettingsKey.pushes
    let readWrite = settings.holdWrites(of: saved(pushed), forKey: key)
    let listedWrite = settings.holdWrites(of: saved(), forKey: key)
    let store = makeStore([]) {
      $0.settingsClient = settings.client
      $0.notificationClient.markAllAsRead = { ids in marked.withLock { $0.append(ids) } }
    }
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await store.send(.pushReceived(pushPayload("p1"))) {
      $0.notifications = [unread]
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(unread)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receivePushesSaved()
    // Marked read here only: the backend does not have it yet.
    await store.send(.markAllAsRead) {
      $0.notifications[id: "p1"]?.isRead = true
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    readWrite.resume()
    await store.receivePushesSaved()

    // Its feed lists it later, unread: it stays read, and the backend is told.
    let page = NotificationPage(items: [unread], hasMore: false)
    await store.send(.pageLoaded(page, replacing: true)) {
      $0.hasLoadedOnce = true
      $0.unlistedPushIDs = []
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["p1"])
      $0.pushesBeingSaved = saved()
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    listedWrite.resume()
    await store.receivePushesSaved()
    #expect(marked.withLock { $0 } == [["p1"]])
    #expect(store.state.notifications.elements == [pushed])
  }

  // MARK: Live updates

  @Test func aSnapshotKeepsAnUnlistedPushAndALiveInsertMakesItOne() async {
    let store = makeStore()
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5)
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))) {
      $0.notifications.insert(pushed, at: 1)
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(3)))
    await store.send(.liveEvent(NotificationEvent(.snapshot([Fixtures.feed[0]]), cursor: 1))) {
      $0.newestCursor = 1
      $0.notifications = [Fixtures.feed[0], pushed]
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    var listed = pushed
    listed.message = "From the backend"
    await store.send(.liveEvent(NotificationEvent(.inserted(listed), cursor: 2))) {
      $0.newestCursor = 2
      $0.notifications[id: "p1"] = listed
      $0.unlistedPushIDs = []
      $0.pushesBeingSaved = saved()
    }
    await store.receivePushesSaved()
    // Once the backend has listed it, its snapshots decide.
    await store.send(.liveEvent(NotificationEvent(.snapshot([Fixtures.feed[0]]), cursor: 3))) {
      $0.newestCursor = 3
      $0.notifications = [Fixtures.feed[0]]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
  }
}
