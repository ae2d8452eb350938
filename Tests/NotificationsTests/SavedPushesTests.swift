import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// A push shown to the person is kept across relaunches until they delete it: a relaunch is a
/// new store over what the last one saved (the same settings, the same backend).
@MainActor
struct SavedPushesTests {
  let key = NotificationsFeature.SettingsKey.pushes
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  /// The payload of a push for `Fixtures.notification(id, minutesAgo:)`.
  func pushPayload(_ id: String, minutesAgo: Double = 0) -> Data {
    let timestamp = Int(Fixtures.now.timeIntervalSince1970 - minutesAgo * 60)
    return payload(
      #"{"id":"\#(id)","type":"ping","title":"Title \#(id)","body":"Message \#(id)","#
        + #""timestamp":\#(timestamp)}"#)
  }

  // MARK: As a shell runs it

  /// A launch as a shell makes it: a store over `settings` and `backend` that appears, in the
  /// background, and is ready once its first page and its saved settings have loaded. The live
  /// stream is stopped then, so that nothing else changes the list.
  func launch(
    _ settings: SettingsClient, _ backend: InMemoryNotificationBackend
  ) async -> Store<NotificationsFeature.State, NotificationsFeature.Action> {
    let store = Store(initialState: NotificationsFeature.State()) {
      NotificationsFeature()
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.settingsClient = settings
      $0.notificationClient = backend.client
      $0.pushClient.responses = { AsyncStream { $0.finish() } }
    }
    await store.send(.foregroundChanged(false)).finish()
    let appear = store.send(.onAppear)
    for await state in store.states
    where state.hasLoadedOnce && !state.isLoading && !state.isLoadingPreferences {
      break
    }
    appear.cancel()
    return store
  }

  @Test func aPushIsStillListedAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))).finish()

    let relaunched = await launch(settings, backend)
    #expect(
      relaunched.state.notifications.elements == [
        Fixtures.feed[0], Fixtures.notification("p1", minutesAgo: 1.5), Fixtures.feed[1],
        Fixtures.feed[2],
      ])
    // And a refresh keeps it.
    await relaunched.send(.refreshRequested).finish()
    #expect(relaunched.state.notifications.ids == ["n1", "p1", "n2", "n3"])
  }

  /// A local notice is kept on the device only: saved with the pushes, so it is still listed
  /// after a relaunch (and a refresh), until the person deletes it. Before, it lived in memory,
  /// and the CLI wrote it into the inbox itself.
  @Test func aLocalNoticeIsStillListedAfterARelaunchUntilItIsDeleted() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.recordLocalNotice(title: "Message sent", message: "To Ada")).finish()
    let notice = NotificationData(
      id: "local-00000000-0000-0000-0000-000000000000", type: .system, title: "Message sent",
      message: "To Ada", timestamp: Fixtures.now, isRead: true, priority: .silent, isLocal: true)
    #expect(first.state.notifications.elements == [notice] + Fixtures.feed)

    let relaunched = await launch(settings, backend)
    #expect(relaunched.state.notifications.elements == [notice] + Fixtures.feed)
    await relaunched.send(.refreshRequested).finish()
    #expect(relaunched.state.notifications.elements == [notice] + Fixtures.feed)
    await relaunched.send(.delete(notice.id)).finish()

    let third = await launch(settings, backend)
    #expect(third.state.notifications.elements == Fixtures.feed)
    #expect(backend.notifications == Fixtures.feed)
  }

  /// What an older version saved (no notices) still restores its pushes.
  @Test func savedPushesWithoutNoticesStillDecode() throws {
    let push = Fixtures.notification("p1")
    var old = try JSONSerialization.jsonObject(
      with: JSONEncoder().encode(saved(push, deleted: ["p0"]))) as? [String: Any] ?? [:]
    old["notices"] = nil
    let data = try JSONSerialization.data(withJSONObject: old)
    let decoded = try JSONDecoder().decode(NotificationsFeature.SavedPushes.self, from: data)
    #expect(decoded == saved(push, deleted: ["p0"]))
  }

  @Test func aPushReadBeforeARelaunchIsStillReadAfterIt() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))).finish()
    await first.send(.markAsRead("p1")).finish()
    #expect(first.state.error == nil)
    #expect(first.state.notifications[id: "p1"]?.isRead == true)

    let relaunched = await launch(settings, backend)
    #expect(relaunched.state.notifications[id: "p1"]?.isRead == true)
    #expect(relaunched.state.unreadCount == 2)
  }

  @Test func aDeletedPushIsNotListedAgainByADuplicateAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    let backend = InMemoryNotificationBackend(seed: Fixtures.feed)
    let first = await launch(settings, backend)
    await first.send(.pushReceived(pushPayload("p1"))).finish()
    await first.send(.delete("p1")).finish()
    #expect(first.state.error == nil)
    #expect(first.state.notifications.ids == ["n1", "n2", "n3"])

    let relaunched = await launch(settings, backend)
    await relaunched.send(.pushReceived(pushPayload("p1"))).finish()
    #expect(relaunched.state.notifications.ids == ["n1", "n2", "n3"])
  }

  // MARK: Relaunches, step by step

  /// A relaunch over `settings` whose backend lists `feed`. The saved pushes load only when the
  /// test resumes `pushesLoad`, after the saved filter and muted types; the live stream never
  /// opens (its `updatesConnected` would race those loads).
  func relaunch(
    _ settings: ControlledSettings, feed: LockedState<[NotificationData]>,
    _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    makeStore([]) {
      $0.settingsClient = settings.client
      $0.notificationClient.fetchPage = { _ in NotificationPage(items: feed.withLock { $0 }) }
      let opening = TestContinuation<AsyncThrowingStream<NotificationEvent, any Error>>()
      $0.notificationClient.updates = { _ in try await opening.value }
      $0.pushClient.responses = { TestStream<PushClient.Response>().stream }
      prepare(&$0)
    }
  }

  /// Sends `onAppear` in the background and receives the saved filter and muted types (none).
  func appear(
    _ store: TestStore<NotificationsFeature.State, NotificationsFeature.Action>
  ) async -> TestStoreTask {
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let appear = await store.send(.onAppear) {
      $0.isLoading = true
      $0.connection = .connecting
      $0.isLoadingPreferences = true
    }
    await store.receive(.savedFilterLoaded(nil))
    await store.receive(.preferences(.mutedLoaded(nil))) { $0.isLoadingPreferences = false }
    return appear
  }

  func end(
    _ store: TestStore<NotificationsFeature.State, NotificationsFeature.Action>,
    _ appear: TestStoreTask
  ) async {
    await store.send(.onDisappear) { $0.connection = .offline }
    await appear.cancel()
  }

  @Test func aRelaunchListsTheSavedPushBeforeTheFirstPageAndRefreshesKeepIt() async {
    let settings = ControlledSettings()
    let first = makeStore([]) { $0.settingsClient = settings.client }
    await first.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5)
    await first.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))) {
      $0.notifications = [pushed]
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(pushed)
    }
    await first.receive(.delegate(.unreadCountChanged(1)))
    await first.receivePushesSaved()

    let pushesLoad = settings.holdLoads(forKey: key)
    let relaunched = relaunch(settings, feed: LockedState(Fixtures.feed))
    let appear = await appear(relaunched)
    pushesLoad.resume()
    // Listed as it was, and not written again.
    await relaunched.receive(.savedPushesRestored(saved(pushed))) {
      $0.notifications = [pushed]
      $0.unlistedPushIDs = ["p1"]
    }
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    let page = NotificationPage(items: Fixtures.feed)
    await relaunched.receive(.pageLoaded(page, replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.notifications = [Fixtures.feed[0], pushed, Fixtures.feed[1], Fixtures.feed[2]]
    }
    await relaunched.receive(.delegate(.unreadCountChanged(3)))
    await relaunched.send(.refreshRequested) { $0.isLoading = true }
    await relaunched.receive(.pageLoaded(page, replacing: true)) { $0.isLoading = false }
    await end(relaunched, appear)
    let writes = settings.writes(of: NotificationsFeature.SavedPushes.self, forKey: key)
    #expect(writes == [saved(pushed)])
  }

  @Test func aPushReadBeforeARelaunchIsOneReadItemOnceTheFeedListsItAndTheBackendIsTold() async {
    var read = Fixtures.notification("p1", minutesAgo: 1.5)
    read.isRead = true
    let settings = ControlledSettings()
    settings.store(saved(read), forKey: key)
    let pushesLoad = settings.holdLoads(forKey: key)
    // The write after the feed lists it finishes after the backend is told.
    let listedWrite = settings.holdWrites(of: saved(), forKey: key)
    let marked = LockedState<[[String]?]>([])
    let feed = [Fixtures.feed[0], Fixtures.notification("p1", minutesAgo: 1.5)]
    let relaunched = relaunch(settings, feed: LockedState(feed)) {
      $0.notificationClient.markAllAsRead = { ids in marked.withLock { $0.append(ids) } }
    }
    let appear = await appear(relaunched)
    pushesLoad.resume()
    await relaunched.receive(.savedPushesRestored(saved(read))) {
      $0.notifications = [read]
      $0.unlistedPushIDs = ["p1"]
    }
    await relaunched.receive(.pageLoaded(NotificationPage(items: feed), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.notifications = [Fixtures.feed[0], read]
      $0.unlistedPushIDs = []
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["p1"])
      $0.pushesBeingSaved = saved()
    }
    await relaunched.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    listedWrite.resume()
    await relaunched.receivePushesSaved()
    await end(relaunched, appear)
    #expect(marked.withLock { $0 } == [["p1"]])
  }

  @Test func aPushDeletedBeforeARelaunchStaysDeletedAndTheBackendDeletesItOnceItsFeedListsIt()
    async
  {
    let settings = ControlledSettings()
    settings.store(saved(deleted: ["p1"]), forKey: key)
    let pushesLoad = settings.holdLoads(forKey: key)
    let listedWrite = settings.holdWrites(of: saved(), forKey: key)
    let deleted = LockedState<[String]>([])
    let feed = LockedState(Fixtures.feed)
    let relaunched = relaunch(settings, feed: feed) {
      $0.notificationClient.delete = { id in deleted.withLock { $0.append(id) } }
    }
    let appear = await appear(relaunched)
    pushesLoad.resume()
    await relaunched.receive(.savedPushesRestored(saved(deleted: ["p1"]))) {
      $0.deletedIDs = ["p1"]
      $0.deletedPushIDs = ["p1"]
    }
    await relaunched.receive(.pageLoaded(NotificationPage(items: Fixtures.feed), replacing: true)) {
      $0.isLoading = false
      $0.hasLoadedOnce = true
      $0.notifications = NotificationFeed(uniqueElements: Fixtures.feed)
    }
    await relaunched.receive(.delegate(.unreadCountChanged(2)))
    // A late duplicate delivery is not listed.
    await relaunched.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5)))

    // The backend's feed lists it now: it is not listed here, and the backend deletes it.
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5)
    let withPush = [Fixtures.feed[0], pushed, Fixtures.feed[1], Fixtures.feed[2]]
    feed.withLock { $0 = withPush }
    await relaunched.send(.refreshRequested) { $0.isLoading = true }
    await relaunched.receive(.pageLoaded(NotificationPage(items: withPush), replacing: true)) {
      $0.isLoading = false
      $0.deletedPushIDs = []
      $0.sync.pendingChanges[changeID] = .delete(pushed, index: 1)
      $0.pushesBeingSaved = saved()
    }
    await relaunched.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    listedWrite.resume()
    await relaunched.receivePushesSaved()
    await end(relaunched, appear)
    #expect(deleted.withLock { $0 } == ["p1"])
  }

  @Test func restoredPushesMergeWithWhatIsListedAlready() async {
    // Listed before the saved pushes arrived: the feed's n1 (by a live event), a duplicate
    // delivery of p1, and n2 whose deletion is pending; p3 was deleted before the relaunch and
    // the feed lists it.
    let p1 = Fixtures.notification("p1", minutesAgo: 0.5)
    let p3 = Fixtures.notification("p3", minutesAgo: 0.7)
    // Listed p1, p3, n1.
    var state = NotificationsFeature.State(notifications: [Fixtures.feed[0], p1, p3])
    state.unlistedPushIDs = ["p1"]
    state.sync.pendingChanges[UUID(99)] = .delete(Fixtures.feed[1], index: 1)
    let deleted = LockedState<[String]>([])
    let marked = LockedState<[[String]?]>([])
    // The two calls that tell the backend answer when the test lets them, one after the other.
    let markAnswer = TestContinuation<Void>()
    let deleteAnswer = TestContinuation<Void>()
    let store = makeStore(state: state) {
      $0.notificationClient.markAllAsRead = { ids in
        marked.withLock { $0.append(ids) }
        try await markAnswer.value
      }
      $0.notificationClient.delete = { id in
        deleted.withLock { $0.append(id) }
        try await deleteAnswer.value
      }
    }
    var readN1 = Fixtures.feed[0]
    readN1.isRead = true
    var readP1 = p1
    readP1.isRead = true
    var pushedN2 = Fixtures.feed[1]
    pushedN2.title = "As pushed"
    let restored = saved(readN1, readP1, pushedN2, deleted: ["p3"])
    await store.send(.savedPushesRestored(restored)) {
      // n1 and p1 are one item each, read as the person left them; the backend is told of n1.
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "p1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n1"])
      // p3 is taken out and deleted on the backend; n2's pending deletion wins.
      $0.notifications.remove(id: "p3")
      $0.sync.pendingChanges[UUID(1)] = .delete(p3, index: 1)
      $0.deletedIDs = ["p3"]
      $0.deletedPushIDs = ["p3"]
      $0.pushesBeingSaved = saved(readP1, deleted: ["p3"])
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(0)))
    markAnswer.resume()
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges[UUID(0)] = nil }
    deleteAnswer.resume()
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) { $0.sync.pendingChanges[UUID(1)] = nil }
    #expect(marked.withLock { $0 } == [["n1"]])
    #expect(deleted.withLock { $0 } == ["p3"])
  }

  // MARK: Acting on a push the feed has not listed

  /// A push the backend's feed has not listed, in the list with the fixtures' feed.
  func storeWithUnlistedPush(
    _ settings: SettingsClient = .inMemory()
  ) -> (TestStore<NotificationsFeature.State, NotificationsFeature.Action>, NotificationData) {
    let pushed = Fixtures.notification("p1", minutesAgo: 1.5, target: .contact(contactID: "c9"))
    var state = NotificationsFeature.State(
      notifications: [Fixtures.feed[0], pushed, Fixtures.feed[1], Fixtures.feed[2]])
    state.unlistedPushIDs = ["p1"]
    // No backend call is expected: the test client fails on any.
    return (makeStore(state: state) { $0.settingsClient = settings }, pushed)
  }

  @Test func readingAndTappingAPushTheFeedHasNotListedHoldsHereAndIsSaved() async {
    let (store, pushed) = storeWithUnlistedPush()
    var read = pushed
    read.isRead = true
    await store.send(.markAsRead("p1")) {
      $0.notifications[id: "p1"]?.isRead = true
      $0.pushesBeingSaved = saved(read)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.markAsUnread("p1")) {
      $0.notifications[id: "p1"]?.isRead = false
      $0.pushesBeingSaved = saved(pushed)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(3)))
    await store.send(.notificationTapped("p1")) {
      $0.notifications[id: "p1"]?.isRead = true
      $0.lastTap = .navigated(id: "p1")
      $0.pushesBeingSaved = saved(read)
    }
    await store.receive(.delegate(.navigateToContact(contactID: "c9")))
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.error == nil)
  }

  @Test func deletingAPushTheFeedHasNotListedHoldsHereAndIsSaved() async {
    let (store, _) = storeWithUnlistedPush()
    await store.send(.delete("p1")) {
      $0.notifications.remove(id: "p1")
      $0.unlistedPushIDs = []
      $0.deletedIDs = ["p1"]
      $0.deletedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(deleted: ["p1"])
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5)))
  }

  // MARK: Writes

  @Test func aPushWhileTheLastWriteIsInFlightIsWrittenAfterIt() async {
    let settings = ControlledSettings()
    let first = Fixtures.notification("p1", minutesAgo: 1.5)
    let second = Fixtures.notification("p2")
    let firstWrite = settings.holdWrites(of: saved(first), forKey: key)
    let store = makeStore([]) { $0.settingsClient = settings.client }
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await store.send(.pushReceived(pushPayload("p1", minutesAgo: 1.5))) {
      $0.notifications = [first]
      $0.unlistedPushIDs = ["p1"]
      $0.pushesBeingSaved = saved(first)
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // One write at a time: the second push waits for the first write.
    await store.send(.pushReceived(pushPayload("p2"))) {
      $0.notifications = [second, first]
      $0.unlistedPushIDs = ["p1", "p2"]
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    firstWrite.resume()
    await store.receive(.pushesSaved) { $0.pushesBeingSaved = saved(second, first) }
    await store.receivePushesSaved()
    #expect(
      settings.writes(of: NotificationsFeature.SavedPushes.self, forKey: key) == [
        saved(first), saved(second, first),
      ])
  }

  @Test func onlyTheNewestPushesAreSavedAndTheOldestDeletedIDIsForgotten() async {
    let maximum = NotificationsFeature.maximumSavedPushes
    // `maximum` pushes the feed has not listed, a minute apart, p0 the newest.
    let pushes = (0..<maximum).map { Fixtures.notification("p\($0)", minutesAgo: Double($0 + 1)) }
    var state = NotificationsFeature.State(notifications: pushes)
    state.unlistedPushIDs = Set(pushes.map(\.id))
    state.isInForeground = false
    let deletedBefore = (0..<NotificationsFeature.maximumSavedDeletedPushes).map { "d\($0)" }
    state.deletedPushIDs = deletedBefore
    state.deletedIDs = Set(deletedBefore)
    let store = makeStore(state: state)
    let newest = Fixtures.notification("new")
    await store.send(.pushReceived(pushPayload("new"))) {
      $0.notifications.insert(newest, at: 0)
      $0.unlistedPushIDs.insert("new")
      // The oldest push is left out.
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes(
        pushes: [newest] + pushes.dropLast(), deletedIDs: deletedBefore)
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(maximum + 1)))
    await store.send(.delete("new")) {
      $0.notifications.remove(id: "new")
      $0.unlistedPushIDs.remove("new")
      $0.deletedIDs.insert("new")
      // The oldest deleted id is forgotten.
      $0.deletedPushIDs = Array(deletedBefore.dropFirst()) + ["new"]
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes(
        pushes: pushes, deletedIDs: Array(deletedBefore.dropFirst()) + ["new"])
    }
    await store.receivePushesSaved()
    await store.receive(.delegate(.unreadCountChanged(maximum)))
  }
}
