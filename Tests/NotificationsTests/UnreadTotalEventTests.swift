import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The backend's notifications: 120 unread of 130.
private let feed = PagedFeed.notifications

/// How pushes, local notices and live changes move the unread count when it is the backend's
/// total (see `UnreadTotalTests`).
@MainActor
struct UnreadTotalEventTests {
  // MARK: Pushes and local notices

  @Test func aPushTheBackendHasNotListedAddsOneUntilItListsIt() async {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let pushed = Fixtures.notification("p1")
    await store.send(
      .pushReceived(payload(#"{"id":"p1","type":"ping","title":"Title p1","body":"Message p1"}"#))
    ) {
      $0.notifications.insert(pushed, at: 0)
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(121)))

    // A refresh whose page does not list it yet keeps it, and counts it.
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(PagedFeed.page(0..<50), replacing: true)) {
      $0.isLoading = false
    }

    // Once the backend lists it, its total counts it and the push is one item: still 121.
    backend.insert(pushed)
    var listed = pushed
    listed.version = 1
    let withPush = [listed] + feed
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        PagedFeed.page(0..<50, of: withPush, unreadTotal: 121, changes: 1), replacing: true)
    ) {
      $0.isLoading = false
      $0.newestCursor = 1
      $0.nextCursor = PagedFeed.cursor(50, of: withPush)
      $0.notifications = NotificationFeed(uniqueElements: withPush.prefix(50))
      $0.unlistedPushIDs = []
      $0.unreadNotLoaded = 71
      $0.pushesBeingSaved = saved()
    }
    await store.receivePushesSaved()
    #expect(store.state.unreadCount == 121)

    // A local notice is read: it counts nothing.
    let notice = NotificationData(
      id: "local-00000000-0000-0000-0000-000000000000", type: .system, title: "Saved",
      message: "Your changes were saved.", timestamp: Fixtures.now, isRead: true,
      priority: .silent, isLocal: true)
    await store.send(.recordLocalNotice(title: "Saved", message: "Your changes were saved.")) {
      $0.notifications.insert(notice, at: 0)
      $0.localNoticeIDs = [notice.id]
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes(notices: [notice])
    }
    await store.receivePushesSaved()
    #expect(store.state.unreadCount == 121)
  }

  @Test func aPushALaterPageListsIsCountedOnce() async {
    let backend = InMemoryNotificationBackend(seed: feed)
    let store = await PagedFeed.loadedStore(backend)
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    // Delivered late: it is older than the first page. The backend has it now.
    let pushed = Fixtures.notification("p1", minutesAgo: 59.5)
    backend.insert(pushed)
    let timestamp = Int(pushed.timestamp.timeIntervalSince1970)
    await store.send(
      .pushReceived(
        payload(
          #"{"id":"p1","type":"ping","title":"Title p1","body":"Message p1","timestamp":\#(timestamp)}"#
        ))
    ) {
      $0.notifications.append(pushed)
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(121)))

    var listed = pushed
    listed.version = 1
    let withPush = Array(feed[0..<59]) + [listed] + feed[59...]
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.receive(
      .pageLoaded(
        PagedFeed.page(50..<100, of: withPush, unreadTotal: 121, changes: 1), replacing: false)
    ) {
      $0.isLoading = false
      $0.nextCursor = PagedFeed.cursor(100, of: withPush)
      $0.notifications = NotificationFeed(uniqueElements: withPush.prefix(100))
      $0.unlistedPushIDs = []
      $0.unreadNotLoaded = 21
      $0.pushesBeingSaved = saved()
    }
    await store.receivePushesSaved()
    #expect(store.state.unreadCount == 121)
  }

  // MARK: Live changes

  @Test func liveChangesMoveTheCountAsTheBackendsTotalMoves() async {
    let store = await PagedFeed.loadedStore()
    // A new notification: one more.
    let new = Fixtures.notification("new")
    await store.send(.liveEvent(NotificationEvent(.inserted(new), cursor: 1))) {
      $0.newestCursor = 1
      $0.notifications.insert(new, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(121)))

    // Read on another device, loaded here: one fewer.
    var read = feed[3]
    read.isRead = true
    await store.send(.liveEvent(NotificationEvent(.updated(read), cursor: 2))) {
      $0.newestCursor = 2
      $0.notifications[id: "n3"]?.isRead = true
    }
    await store.receive(.delegate(.unreadCountChanged(120)))

    // Read on another device, not loaded here: it is loaded, and one fewer.
    var readElsewhere = feed[80]
    readElsewhere.isRead = true
    await store.send(.liveEvent(NotificationEvent(.updated(readElsewhere), cursor: 3))) {
      $0.newestCursor = 3
      $0.notifications.append(readElsewhere)
      $0.unreadNotLoaded = 69
    }
    await store.receive(.delegate(.unreadCountChanged(119)))

    // Marked unread on another device, not loaded here: loaded, and one more.
    var unreadElsewhere = feed[125]
    unreadElsewhere.isRead = false
    await store.send(.liveEvent(NotificationEvent(.updated(unreadElsewhere), cursor: 4))) {
      $0.newestCursor = 4
      $0.notifications.append(unreadElsewhere)
    }
    await store.receive(.delegate(.unreadCountChanged(120)))

    // An unread one deleted on another device, loaded here: one fewer.
    await store.send(.liveEvent(NotificationEvent(.deleted(id: "n4"), cursor: 5))) {
      $0.newestCursor = 5
      $0.notifications.remove(id: "n4")
      $0.deletedIDs = ["n4"]
    }
    await store.receive(.delegate(.unreadCountChanged(119)))

    // The later page does not take out again what the live updates loaded.
    var later = Array(feed[50..<100])
    later[30] = readElsewhere
    let nextPage = NotificationPage(
      items: later, nextCursor: "100", hasMore: true, unreadTotal: 119)
    let firstPage: [NotificationData] = feed[0..<50].filter { $0.id != "n4" }.map {
      $0.id == "n3" ? read : $0
    }
    let loaded: [NotificationData] = [new] + firstPage + later + [unreadElsewhere]
    await store.send(.pageLoaded(nextPage, replacing: false)) {
      $0.nextCursor = "100"
      $0.notifications = NotificationFeed(uniqueElements: loaded)
      $0.unreadNotLoaded = 20
    }

    // A snapshot is the whole feed: its unread ones are the count.
    let snapshot = feed.prefix(11).filter { $0.id != "n4" }
    await store.send(.liveEvent(NotificationEvent(.snapshot(snapshot), cursor: 6))) {
      $0.newestCursor = 6
      $0.notifications = NotificationFeed(uniqueElements: snapshot)
      $0.unreadNotLoaded = 0
    }
    await store.receive(.delegate(.unreadCountChanged(10)))
  }
}
