import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct LifecycleTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func appearingLoadsTheFirstPageOnceAndStartsTheStreams() async {
    let live = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
    let page = NotificationPage(items: Array(Fixtures.feed.prefix(2)), nextCursor: "c2", hasMore: true)
    // The saved settings and the first page load at once, off the main actor: the test holds
    // the page back so they arrive in one order.
    let pageResponse = TestContinuation<NotificationPage>()
    // The stream opens when the test says, for the same reason.
    let opened = TestContinuation<Void>()
    let store = makeStore([]) {
      $0.notificationClient.fetchPage = { _ in try await pageResponse.value }
      $0.notificationClient.updates = { _ in
        try await opened.value
        return live.stream
      }
      $0.pushClient.responses = { AsyncStream { _ in } }
    }
    let appear = await store.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await store.receive(.savedFilterLoaded(nil))
    await store.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    pageResponse.resume(returning: page)
    await store.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.hasMore = true
      $0.nextCursor = "c2"
      $0.notifications = NotificationFeed(uniqueElements: page.items)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    // Live as soon as the stream is open, before any event.
    opened.resume(returning: ())
    await store.receive(.updatesConnected) { $0.connection = .live }

    // A live insert of a newer notification lands at the top; a duplicate shows once.
    let newer = Fixtures.notification("n0", minutesAgo: 0)
    live.continuation.yield(NotificationEvent(.inserted(newer), cursor: 1))
    await store.receive(.liveEvent(NotificationEvent(.inserted(newer), cursor: 1))) {
      $0.newestCursor = 1
      $0.notifications.insert(newer, at: 0)
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
    live.continuation.yield(NotificationEvent(.inserted(newer), cursor: 2))
    await store.receive(.liveEvent(NotificationEvent(.inserted(newer), cursor: 2))) {
      $0.newestCursor = 2
    }

    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func appearingAgainDoesNotReloadThePage() async {
    let live = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
    let responses = AsyncStream<PushClient.Response>.makeStream()
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    // fetchPage and the settings are left unimplemented: using either fails the test.
    let store = makeStore(state: state) {
      $0.settingsClient = .unimplemented
      $0.notificationClient.updates = { _ in live.stream }
      $0.pushClient.responses = { responses.stream }
    }
    let appear = await store.send(.onAppear) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func theLiveStreamReconnectsWithBackoffAndCatchesUp() async {
    let clock = TestClock()
    let attempts = LockedState(0)
    let missed = Fixtures.notification("n9", minutesAgo: 0)
    let store = makeStore([]) {
      $0.continuousClock = clock
      $0.notificationClient.updates = { _ in
        let attempt = attempts.withLock { $0 += 1; return $0 }
        return AsyncThrowingStream { continuation in
          if attempt == 1 {
            continuation.yield(NotificationEvent(.deleted(id: "x"), cursor: 1))
            continuation.finish(throwing: UserFacingError.network)
          } else {
            // The reconnected stream repeats a change the catch-up has, then a new one.
            continuation.yield(NotificationEvent(.deleted(id: "y"), cursor: 3))
            continuation.yield(NotificationEvent(.deleted(id: "z"), cursor: 4))
          }
        }
      }
      $0.notificationClient.changesSince = { cursor in
        #expect(cursor == 1)
        return [
          NotificationEvent(.inserted(missed), cursor: 2),
          NotificationEvent(.deleted(id: "y"), cursor: 3),
        ]
      }
    }
    await store.send(.reconnect(attempt: 0)) { $0.connection = .connecting }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.liveEvent(NotificationEvent(.deleted(id: "x"), cursor: 1))) {
      $0.newestCursor = 1
      $0.deletedIDs = ["x"]
    }
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.reconnect(attempt: 1))
    await store.receive(.updatesConnected) { $0.connection = .live }
    // The catch-up comes before any live change; the live copy of e3 is skipped.
    await store.receive(
      .caughtUp([
        NotificationEvent(.inserted(missed), cursor: 2),
        NotificationEvent(.deleted(id: "y"), cursor: 3),
      ])
    ) {
      $0.newestCursor = 3
      $0.notifications = [missed]
      $0.deletedIDs.insert("y")
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.liveEvent(NotificationEvent(.deleted(id: "z"), cursor: 4))) {
      $0.newestCursor = 4
      $0.deletedIDs.insert("z")
    }
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  @Test func loadMoreAppendsTheNextPage() async {
    let second = NotificationPage(items: [Fixtures.notification("n4", minutesAgo: 9)], hasMore: false)
    let store = makeStore { $0.notificationClient.fetchPage = { request in
      #expect(request.cursor == "c1")
      return second
    } }
    await store.send(.pageLoaded(NotificationPage(items: [], nextCursor: "c1", hasMore: true), replacing: false)) {
      $0.hasLoadedOnce = true
      $0.hasMore = true
      $0.nextCursor = "c1"
    }
    await store.send(.loadMoreRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(second, replacing: false)) {
      $0.isLoading = false
      $0.hasMore = false
      $0.nextCursor = nil
      $0.notifications.append(second.items[0])
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  @Test func theFilterChoicePersistsAndIsRestored() async {
    let settings = SettingsClient.inMemory()
    let store = makeStore { $0.settingsClient = settings }
    await store.send(.filterChanged(.type(.alert))) {
      $0.filter = .type(.alert)
      $0.filterBeingSaved = .init(filter: .type(.alert), unreadOnly: false)
    }
    await store.receive(.filterSaved) { $0.filterBeingSaved = nil }
    await store.send(.unreadOnlyChanged(true)) {
      $0.unreadOnly = true
      $0.filterBeingSaved = .init(filter: .type(.alert), unreadOnly: true)
    }
    await store.receive(.filterSaved) { $0.filterBeingSaved = nil }
    #expect(store.state.filteredNotifications.map(\.id) == ["n2"])

    // A later launch restores the choice from the settings.
    let live = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
    let responses = AsyncStream<PushClient.Response>.makeStream()
    let page = NotificationPage(items: Fixtures.feed)
    // The saved settings and the first page load at once: the page is held back so they arrive
    // in one order.
    let pageResponse = TestContinuation<NotificationPage>()
    let opened = TestContinuation<Void>()
    let relaunched = makeStore([]) {
      $0.settingsClient = settings
      $0.notificationClient.fetchPage = { _ in try await pageResponse.value }
      $0.notificationClient.updates = { _ in
        try await opened.value
        return live.stream
      }
      $0.pushClient.responses = { responses.stream }
    }
    let appear = await relaunched.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    let saved = NotificationsFeature.SavedFilter(filter: .type(.alert), unreadOnly: true)
    await relaunched.receive(.savedFilterLoaded(saved)) {
      $0.filter = .type(.alert)
      $0.unreadOnly = true
    }
    await relaunched.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    pageResponse.resume(returning: page)
    await relaunched.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.notifications = NotificationFeed(uniqueElements: Fixtures.feed)
    }
    await relaunched.receive(.delegate(.unreadCountChanged(2)))
    opened.resume(returning: ())
    await relaunched.receive(.updatesConnected) { $0.connection = .live }
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func daySectionsAndThreadGroupsAreDerived() {
    var old = Fixtures.notification("old", minutesAgo: 60 * 24 * 3)
    old.threadID = "t"
    var older = Fixtures.notification("older", minutesAgo: 60 * 24 * 4)
    older.threadID = "t"
    let state = NotificationsFeature.State(notifications: Fixtures.feed + [old, older])
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let sections = state.daySections(now: Fixtures.now, calendar: calendar)
    #expect(sections.map(\.day) == [.today, .earlier])
    #expect(sections[0].notifications.map(\.id) == ["n1", "n2", "n3"])
    #expect(state.threadGroups.map { $0.map(\.id) } == [["n1"], ["n2"], ["n3"], ["old", "older"]])
  }

  @Test func theUnreadCountDelegateIsSentOnlyWhenTheCountChanges() async {
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in }
      $0.notificationClient.markAsUnread = { _ in }
    }
    let secondID = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
    await store.send(.markAsRead("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // Already read: nothing changes, so nothing is sent.
    await store.send(.markAsRead("n1"))
    // The list changes but the count does not.
    var edited = Fixtures.feed[1]
    edited.title = "Edited"
    await store.send(.liveEvent(NotificationEvent(.updated(edited)))) {
      $0.notifications[id: "n2"]?.title = "Edited"
    }
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.sync.pendingChanges[secondID] = .setRead(id: "n1", isRead: false, previous: true)
    }
    await store.receive(.sync(.changeSucceeded(secondID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(2)))
  }
}
