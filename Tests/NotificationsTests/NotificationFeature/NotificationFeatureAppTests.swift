import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// `NotificationFeature` beyond the sync (issue #24): the filter and the preferences restored by
/// the launch, banners, taps and opened entities as records, the unread count with the server's
/// total, and the live stream's reconnects. Exhaustive.
@MainActor
struct NotificationFeatureAppTests {
  typealias Feature = NotificationFeature
  typealias Backend = NotificationFeatureSyncTests.Backend
  let sync = NotificationFeatureSyncTests()

  static func notification(
    _ id: String, isRead: Bool = false, version: ChangeCursor, minutesAgo: Double,
    target: NotificationTarget = .none
  ) -> NotificationData {
    var notification = NotificationFeatureSyncTests.notification(
      id, isRead: isRead, version: version, minutesAgo: minutesAgo)
    notification.target = target
    return notification
  }

  static func read(_ notification: NotificationData) -> NotificationData {
    var read = notification
    read.isRead = true
    return read
  }

  static func unread(_ notification: NotificationData) -> NotificationData {
    var unread = notification
    unread.isRead = false
    return unread
  }

  // MARK: The launch

  /// Issue #24, item 5: a filter the person picks while the launch reads the saved one is kept
  /// over it, and saved with what they did not pick.
  @Test func aFilterPickedWhileTheSavedOneIsReadIsKept() async throws {
    let settings = SettingsClient.inMemory()
    let older = Feature.SavedFilter(filter: .type(.ping), unreadOnly: true)
    try await settings.save(older, forKey: Feature.SettingsKey.filter)
    let page = NotificationPage(items: [], changeCursor: 1)
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = sync.makeStore(
      launching, backend: Backend(pages: [page]), saved: .inMemory(), settings: settings)

    await store.send(.filterChanged(.type(.alert))) {
      $0.filter = .type(.alert)
      $0.launch = .restoring(Feature.Arrived(filter: .type(.alert)))
    }
    // The type picked is kept; unread only, not picked, is the saved choice.
    await store.send(.restored(Feature.Saved(log: ChangeLog(), filter: older))) {
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.unreadOnly = true
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    let saved = try await settings.load(
      Feature.SavedFilter.self, forKey: Feature.SettingsKey.filter)
    #expect(saved == Feature.SavedFilter(filter: .type(.alert), unreadOnly: true))
  }

  /// The launch reads the saved filter, the muted types and the OS authorization with the log,
  /// before anything is listed.
  @Test func theLaunchRestoresTheFilterAndThePreferences() async throws {
    let settings = SettingsClient.inMemory()
    let filter = Feature.SavedFilter(filter: .type(.ping), unreadOnly: true)
    try await settings.save(filter, forKey: Feature.SettingsKey.filter)
    try await settings.save(
      [NotificationType.ping], forKey: NotificationPreferencesFeature.settingsKey)
    let page = NotificationPage(items: [], changeCursor: 1)
    let store = sync.makeStore(
      backend: Backend(pages: [page]), saved: .inMemory(), settings: settings)

    await store.send(.onAppear) { $0.launch = .restoring() }
    await store.receive(
      .restored(
        Feature.Saved(log: ChangeLog(), filter: filter, muted: [.ping], authorization: .denied))
    ) {
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.filter = .type(.ping)
      $0.unreadOnly = true
      $0.preferences.muted = [.ping]
      $0.preferences.authorization = .denied
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  // MARK: Pushes

  /// A push of a muted type is listed and not announced; one of another type is, once (a
  /// duplicate delivery is not announced again); none is in the background; a payload that
  /// cannot be read is told to the parent.
  @Test func pushesAreAnnouncedUnlessMutedOrInTheBackground() async throws {
    let page = NotificationPage(items: [], changeCursor: 1)
    let store = await sync.launched(with: page, backend: Backend(pages: [page]))
    await store.send(.preferences(.typeToggled(.ping, isOn: false))) {
      $0.preferences.muted = [.ping]
    }

    let ping = try PushPayloadParser.parse(
      NotificationFeatureSyncTests.pushPayload("p1", minutesAgo: 1),
      receivedAt: ChangeLogTests.start)
    await store.send(.pushReceived(NotificationFeatureSyncTests.pushPayload("p1", minutesAgo: 1))) {
      $0.log.receive(ping, at: ChangeLogTests.start)
      $0.shown = [ping]
    }
    // Each push the server does not list is looked up: this one, not yet.
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.delegate(.unreadCountChanged(1)))

    let alertPayload = payload(
      #"{"id":"a1","type":"alert","title":"Alert","body":"","timestamp":1699999000}"#)
    let alert = try PushPayloadParser.parse(alertPayload, receivedAt: ChangeLogTests.start)
    await store.send(.pushReceived(alertPayload)) {
      $0.log.receive(alert, at: ChangeLogTests.start)
      $0.shown = [ping, alert]
    }
    await store.receive(.delegate(.presentBanner(alert, [.banner, .sound, .badge])))
    await store.receive(.pushLookedUp(id: "a1", nil))
    await store.receive(.delegate(.unreadCountChanged(2)))
    // Delivered again, it changes nothing and is not announced again.
    await store.send(.pushReceived(alertPayload))

    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    let late = payload(
      #"{"id":"a2","type":"alert","title":"Later","body":"","timestamp":1699999500}"#)
    let second = try PushPayloadParser.parse(late, receivedAt: ChangeLogTests.start)
    await store.send(.pushReceived(late)) {
      $0.log.receive(second, at: ChangeLogTests.start)
      $0.shown = [ping, second, alert]
    }
    await store.receive(.pushLookedUp(id: "a2", nil))
    await store.receive(.delegate(.unreadCountChanged(3)))

    let broken = payload(#"{"id":"","type":"alert"}"#)
    var parseError: PushParseError?
    do { _ = try PushPayloadParser.parse(broken, receivedAt: ChangeLogTests.start) } catch {
      parseError = error
    }
    let error = try #require(parseError)
    await store.send(.pushReceived(broken)) { $0.lastPushParseError = error }
    await store.receive(.delegate(.pushParseFailed(error)))
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// Issue #24, item 1 through a tap: a cold start from a tapped push keeps the saved pushes,
  /// lists the tapped one, marks it read (sent once the server lists it) and opens its screen.
  @Test func aColdStartFromATappedPushKeepsTheSavedPushesAndOpensIt() async throws {
    var saved = ChangeLog()
    let earlier = try PushPayloadParser.parse(
      NotificationFeatureSyncTests.pushPayload("p1", minutesAgo: 30),
      receivedAt: ChangeLogTests.start)
    saved.receive(earlier, at: ChangeLogTests.start)
    let rows = ChangeLogStore.inMemory(saved)
    let tapPayload = payload(
      #"{"id":"p2","type":"added","title":"Hi","body":"","timestamp":1699999900,"target":{"kind":"contact","contactId":"c1"}}"#
    )
    let tapped = try PushPayloadParser.parse(tapPayload, receivedAt: ChangeLogTests.start)
    let page = NotificationPage(items: [], changeCursor: 5)
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = sync.makeStore(launching, backend: Backend(pages: [page]), saved: rows)

    await store.send(.notificationResponse(tapPayload)) {
      $0.log.receive(tapped, at: ChangeLogTests.start)
      $0.log.record(.markAsRead("p2"), id: UUID(0))
      $0.shown = [Self.read(tapped)]
      $0.lastTap = .navigated(id: "p2")
    }
    // The server is asked for it (it may have it, on a page not loaded): it does not yet.
    await store.receive(.pushLookedUp(id: "p2", nil))
    await store.receive(.delegate(.navigateToContact(contactID: "c1")))
    await store.send(.restored(Feature.Saved(log: saved))) {
      $0.log = saved.restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.shown = [Self.read(tapped), earlier]
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    // The first page looks up the pushes it does not list.
    await store.receive(.pushLookedUp(id: "p2", nil))
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    let kept = try await rows.load()
    #expect(Set(kept.unlisted.ids) == ["p1", "p2"])
    #expect(kept.records.map(\.intent) == [.markAsRead("p2")])
    #expect(kept.records.map(\.status) == [.awaitingListing])
  }

  // MARK: Taps

  /// A tap on a shown notification marks it read and opens its screen; one that is not shown is
  /// fetched, then opened; one the server does not have opens nothing.
  @Test func aTapMarksReadAndOpensAndANotificationNotShownIsFetchedFirst() async {
    let contact = Self.notification(
      "n1", version: 2, minutesAgo: 1, target: .contact(contactID: "c1"))
    let older = Self.notification("n9", version: 1, minutesAgo: 90, target: .alert(alertID: "a1"))
    // n9 is beyond the first page.
    let page = NotificationPage(items: [contact], hasMore: true, changeCursor: 3)
    let backend = Backend(
      pages: [page], answers: [.success(4), .success(5)], byID: ["n9": older])
    let store = await sync.launched(with: page, backend: backend)

    await store.send(.notificationTapped("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [Self.read(contact)]
      $0.lastTap = .navigated(id: "n1")
    }
    await store.receive(.delegate(.navigateToContact(contactID: "c1")))
    await store.receive(.changeAnswered(UUID(0), 4)) { $0.log.acknowledge(UUID(0), at: 4) }
    await store.receive(.delegate(.unreadCountChanged(0)))

    await store.send(.notificationTapped("n9"))
    await store.receive(.notificationLoaded(older, thenTap: true)) {
      $0.server.fetched(older)
      $0.log.record(.markAsRead("n9"), id: UUID(1))
      $0.log.markSending(UUID(1))
      $0.shown = [Self.read(contact), Self.read(older)]
      $0.lastTap = .navigated(id: "n9")
    }
    await store.receive(.delegate(.navigateToAlert(alertID: "a1")))
    await store.receive(.changeAnswered(UUID(1), 5)) { $0.log.acknowledge(UUID(1), at: 5) }

    await store.send(.notificationTapped("n404"))
    await store.receive(.notificationLoadFailed(id: "n404", .notFound, thenTap: true)) {
      $0.lastTap = .notFound(id: "n404")
    }
    #expect(
      backend.requests.withLock { $0 } == [
        ChangeRequest(id: UUID(0), .markAsRead("n1")),
        ChangeRequest(id: UUID(1), .markAsRead("n9")),
      ])
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  // MARK: Opened entities

  /// Opening a contact marks read its unread notifications shown at once, and those the server
  /// has beyond the first page once fetched, except one the person marked unread since the
  /// opening and one another device changed since (a copy newer than the feed then).
  @Test func openingAnEntityMarksReadWhatItFetchesUnlessChangedSinceTheOpening() async {
    let contact = NotificationTarget.contact(contactID: "c1")
    let n1 = Self.notification("n1", version: 2, minutesAgo: 1, target: contact)
    let n7 = Self.notification("n7", version: 2, minutesAgo: 100, target: contact)
    let n8 = Self.notification("n8", version: 4, minutesAgo: 110, target: contact)
    let page = NotificationPage(items: [n1], hasMore: true, unreadTotal: 3, changeCursor: 3)
    let backend = Backend(pages: [page], answers: [.success(5), .success(6), .success(7)])
    let unread = TestContinuation<[NotificationData]>()
    let client = NotificationClient(
      fetchPage: { _ in backend.pages.withLock { $0.removeFirst() } },
      updates: { _ in AsyncThrowingStream { _ in } },
      changesSince: { _ in [] },
      apply: { request in
        backend.requests.withLock { $0.append(request) }
        return try backend.answers.withLock { $0.removeFirst() }.get()
      },
      fetchUnread: { _ in try await unread.value })
    let store = await sync.launched(with: page, backend: backend, client: client)
    #expect(store.state.unreadCount == 3)

    await store.send(.markTargetRead(.contact("c1"))) {
      $0.log.record(.markAllAsRead(["n1"]), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [Self.read(n1)]
    }
    await store.receive(.changeAnswered(UUID(0), 5)) { $0.log.acknowledge(UUID(0), at: 5) }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.log.markSending(UUID(1))
      $0.shown = [n1]
    }
    await store.receive(.changeAnswered(UUID(1), 6)) { $0.log.acknowledge(UUID(1), at: 6) }
    await store.receive(.delegate(.unreadCountChanged(3)))

    unread.resume(returning: [n1, n7, n8])
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [n1, n7, n8], cursor: 3, after: UUID(0))
    ) {
      $0.server.fetched(n7)
      $0.server.fetched(n8)
      $0.log.record(.markAllAsRead(["n7"]), id: UUID(2))
      $0.log.markSending(UUID(2))
      $0.shown = [n1, Self.read(n7), n8]
    }
    await store.receive(.changeAnswered(UUID(2), 7)) { $0.log.acknowledge(UUID(2), at: 7) }
    await store.receive(.delegate(.unreadCountChanged(2)))
    #expect(store.state.server.unreadNotHeld?.count == 0)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  // MARK: The unread count

  /// The count is the server's total: the unread notifications shown and those not held. A
  /// later page moves what it holds from one to the other; a mark-all of everything counts
  /// none not held, before its answer and after.
  @Test func theUnreadCountIsTheServersTotalAndAMarkAllClearsIt() async {
    let n1 = Self.notification("n1", version: 2, minutesAgo: 1)
    let n2 = Self.notification("n2", isRead: true, version: 2, minutesAgo: 2)
    let n3 = Self.notification("n3", version: 2, minutesAgo: 3)
    let first = NotificationPage(
      items: [n1, n2], nextCursor: "next", hasMore: true, unreadTotal: 5, changeCursor: 3)
    let second = NotificationPage(items: [n3], hasMore: true, changeCursor: 3)
    let backend = Backend(pages: [first, second], answers: [.success(8)])
    let store = await sync.launched(with: first, backend: backend)
    #expect(store.state.unreadCount == 5)

    await store.send(.loadMoreRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(second, first: false)) {
      $0.paging.isLoading = false
      $0.paging.next = nil
      $0.server.append(second)
      $0.shown = [n1, n2, n3]
    }
    #expect(store.state.server.unreadNotHeld?.count == 3)

    await store.send(.markAllAsRead) {
      $0.log.record(.markAllAsRead(nil), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [Self.read(n1), n2, Self.read(n3)]
    }
    await store.receive(.changeAnswered(UUID(0), 8)) {
      $0.log.acknowledge(UUID(0), at: 8)
      $0.server.noneUnreadNotHeld(at: 8)
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    // Seen: the record leaves, and the count stays none.
    var seenCopy = Self.read(n1)
    seenCopy.version = 9
    let seen = NotificationEvent(.updated(seenCopy), cursor: 9)
    await store.send(.liveEvent(seen)) {
      $0.server.apply(seen)
      $0.log.forget(upTo: 9)
      $0.shown = [seenCopy, n2, Self.read(n3)]
    }
    #expect(store.state.unreadCount == 0)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  // MARK: The live stream

  /// A stream that cannot open is retried with backoff, five times, then the feature goes
  /// offline and shows the error; a stream that was live and drops starts again from zero.
  @Test func theLiveStreamIsRetriedWithBackoffThenGivenUp() async {
    let page = NotificationPage(items: [], changeCursor: 1)
    let backend = Backend(pages: [page])
    let opens = LockedState(0)
    let client = NotificationClient(
      fetchPage: { _ in backend.pages.withLock { $0.removeFirst() } },
      updates: { _ in
        // The first opens and drops at once; every later one cannot open.
        let count = opens.withLock { count in
          count += 1
          return count
        }
        guard count == 1 else { throw UserFacingError.network }
        return AsyncThrowingStream { $0.finish() }
      },
      changesSince: { _ in [] },
      apply: { _ in nil })
    let store = await sync.loadingFirstPage(page, backend: backend, client: client)
    await store.receive(.updatesConnected) { $0.connection = .live }
    // Live, then dropped: attempts count from zero again.
    await store.receive(.updatesFailed(.network, attempt: 0)) {
      $0.connection = .reconnecting(attempt: 1)
    }
    for attempt in 1...Feature.maximumReconnectAttempts {
      await store.receive(.reconnect(attempt: attempt))
      await store.receive(.updatesFailed(.network, attempt: attempt)) {
        if attempt < Feature.maximumReconnectAttempts {
          $0.connection = .reconnecting(attempt: attempt + 1)
        } else {
          $0.connection = .offline
          $0.error = .network
        }
      }
    }
    await store.receive(.delegate(.errorOccurred(.network)))
    #expect(opens.withLock { $0 } == 1 + Feature.maximumReconnectAttempts)
  }

  // MARK: Found by the lifetime test

  /// A server that answers a change without a cursor: the record leaves, and the copy held is
  /// taken as changed (it used to be shown as the stale copy, the change undone on screen).
  @Test func aChangeAnsweredWithoutACursorStaysShown() async {
    let unread = Self.notification("n1", version: 1, minutesAgo: 1)
    let page = NotificationPage(items: [unread], changeCursor: 1)
    let store = await sync.launched(
      with: page, backend: Backend(pages: [page], answers: [.success(nil)]))
    await store.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [Self.read(unread)]
    }
    await store.receive(.changeAnswered(UUID(0), nil)) {
      $0.log.acknowledge(UUID(0), at: nil)
      $0.server.assume(.markAsRead("n1"))
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    #expect(store.state.log.isEmpty)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A type turned off while the launch reads the saved muted types is added to them (it used
  /// to replace them, or be replaced), and the whole set is saved once read.
  @Test func aTypeTurnedOffWhileTheSavedOnesAreReadIsAddedToThem() async throws {
    let settings = SettingsClient.inMemory()
    try await settings.save(
      [NotificationType.ping], forKey: NotificationPreferencesFeature.settingsKey)
    let page = NotificationPage(items: [], changeCursor: 1)
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = sync.makeStore(
      launching, backend: Backend(pages: [page]), saved: .inMemory(), settings: settings)
    await store.send(.preferences(.typeToggled(.role, isOn: false))) {
      $0.preferences.muted = [.role]
      $0.launch = .restoring(Feature.Arrived(bannersToggled: [.role: false]))
    }
    await store.send(.restored(Feature.Saved(log: ChangeLog(), muted: [.ping]))) {
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.preferences.muted = [.ping, .role]
    }
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.send(.onDisappear) { $0.connection = .offline }
    let saved = try await settings.load(
      [NotificationType].self, forKey: NotificationPreferencesFeature.settingsKey)
    #expect(saved.map(Set.init) == [.ping, .role])
  }

  /// The push of n9, an older notification with nothing to open.
  static let pushOfN9 = payload(
    #"{"id":"n9","type":"ping","title":"n9","body":"","timestamp":1699994600}"#)

  /// The person taps the push of n9, which the store has not listed: it is kept as a push,
  /// marked read, and looked up.
  func tapThePushOfN9(_ store: TestStore<Feature.State, Feature.Action>) async throws {
    let push = try PushPayloadParser.parse(Self.pushOfN9, receivedAt: ChangeLogTests.start)
    await store.send(.notificationResponse(Self.pushOfN9)) {
      $0.log.receive(push, at: ChangeLogTests.start)
      $0.log.record(.markAsRead("n9"), id: UUID(0))
      $0.shown.append(Self.read(push))
      $0.lastTap = .nothingToOpen(id: "n9")
    }
  }

  /// A change to a push the server has not listed asks the server for it by id: one the server
  /// has on a page not loaded (a cold start from the push of an older notification) is held,
  /// and the change is sent (it used to wait for a listing that never came).
  @Test func aChangeToAPushTheServerHasIsSent() async throws {
    let older = Self.notification("n9", version: 2, minutesAgo: 90)
    let page = NotificationPage(
      items: [Self.notification("n1", isRead: true, version: 2, minutesAgo: 1)], hasMore: true,
      changeCursor: 3)
    let backend = Backend(pages: [page], answers: [.success(4)], byID: ["n9": older])
    let store = await sync.launched(with: page, backend: backend)
    try await tapThePushOfN9(store)
    await store.receive(.pushLookedUp(id: "n9", older)) {
      $0.server.fetched(older)
      $0.log.serverListed(["n9"])
      $0.log.markSending(UUID(0))
      $0.shown[id: "n9"] = Self.read(older)
    }
    await store.receive(.changeAnswered(UUID(0), 4)) { $0.log.acknowledge(UUID(0), at: 4) }
    #expect(backend.requests.withLock { $0 } == [ChangeRequest(id: UUID(0), .markAsRead("n9"))])
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// The push of a notification the server deleted (another device did, before this device
  /// ever listed it) is looked up when the person changes it: the server answers with the
  /// cursor of the deletion, and the push leaves with the change waiting for it. It used to be
  /// shown for good, the change waiting for a listing that never came (lifetime seeds
  /// 11902651592191399676 and 7487743439238319572).
  @Test func aPushOfANotificationTheServerDeletedLeavesWithTheChangesWaitingForIt() async throws {
    let page = NotificationPage(
      items: [Self.notification("n1", isRead: true, version: 2, minutesAgo: 1)], changeCursor: 3)
    let backend = Backend(pages: [page])
    var client = backend.client
    client.fetchNotification = { id in throw DeletedNotificationError(id: id, cursor: 3) }
    let store = await sync.launched(with: page, backend: backend, client: client)
    try await tapThePushOfN9(store)
    await store.receive(.deletedOnServer(id: "n9", at: 3)) {
      $0.server.remove("n9", at: 3)
      $0.log.serverRemoved(["n9"])
      $0.shown.remove(id: "n9")
    }
    #expect(store.state.log.records.isEmpty)
    #expect(backend.requests.withLock { $0 }.isEmpty)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// Issue #24, item 6: the push service delivers again the push of a notification the person
  /// deleted. In the launch that saw the deletion the server's deletion holds: nothing is
  /// listed or announced. After a relaunch, which remembers nothing of it, the push is looked up
  /// and the server's answer (deleted, at its cursor) takes it out again. It used to come back
  /// and stay.
  @Test func aDeletedNotificationStaysDeletedWhenItsPushComesAgain() async throws {
    let n9 = Self.notification("n9", version: 2, minutesAgo: 90)
    let page = NotificationPage(items: [n9], changeCursor: 2)
    let store = await sync.launched(with: page, backend: Backend(pages: [page]))
    let deleted = NotificationEvent(.deleted(id: "n9"), cursor: 3)
    await store.send(.liveEvent(deleted)) {
      $0.server.apply(deleted)
      $0.shown = []
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.pushReceived(Self.pushOfN9))
    await store.send(.onDisappear) { $0.connection = .offline }

    // A relaunch: the server's first page no longer lists n9.
    let after = NotificationPage(items: [], changeCursor: 3)
    let backend = Backend(pages: [after])
    var client = backend.client
    client.fetchNotification = { id in throw DeletedNotificationError(id: id, cursor: 3) }
    let relaunched = await sync.launched(with: after, backend: backend, client: client)
    let push = try PushPayloadParser.parse(Self.pushOfN9, receivedAt: ChangeLogTests.start)
    await relaunched.send(.pushReceived(Self.pushOfN9)) {
      $0.log.receive(push, at: ChangeLogTests.start)
      $0.shown = [push]
    }
    await relaunched.receive(.delegate(.presentBanner(push, [.banner, .sound, .badge])))
    await relaunched.receive(.deletedOnServer(id: "n9", at: 3)) {
      $0.server.remove("n9", at: 3)
      $0.log.serverRemoved(["n9"])
      $0.shown = []
    }
    await relaunched.receive(.delegate(.unreadCountChanged(1)))
    await relaunched.receive(.delegate(.unreadCountChanged(0)))
    await relaunched.send(.onDisappear) { $0.connection = .offline }
    #expect(relaunched.state.log.isEmpty)
  }

  /// A change to a notification another device deleted first is answered with the deletion's
  /// cursor (`DeletedNotificationError`): the deletion holds, and a delete of it did what the
  /// person asked (no error), while a read of it is refused. A delete answered "not found" used
  /// to fail, and the copy held from before (a later page's) was shown again for good (lifetime
  /// seed 7838458024297765256).
  @Test func aChangeToANotificationDeletedFirstElsewhereLeavesItDeleted() async throws {
    let n1 = Self.notification("n1", version: 2, minutesAgo: 1)
    let n2 = Self.notification("n2", version: 2, minutesAgo: 2)
    let page = NotificationPage(items: [n1, n2], changeCursor: 3)
    let backend = Backend(pages: [page])
    var client = backend.client
    client.apply = { request in
      backend.requests.withLock { $0.append(request) }
      let id = request.intent.ids.first ?? ""
      throw DeletedNotificationError(id: id, cursor: id == "n1" ? 4 : 5)
    }
    let store = await sync.launched(with: page, backend: backend, client: client)
    await store.send(.delete("n1")) {
      $0.log.record(.delete("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = [n2]
    }
    await store.receive(.deletedOnServer(id: "n1", at: 4)) {
      $0.server.remove("n1", at: 4)
    }
    // The server holds no copy of it any more: the record leaves at once.
    await store.receive(.changeAnswered(UUID(0), 4)) { $0.log = ChangeLog() }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.markAsRead("n2")) {
      $0.log.record(.markAsRead("n2"), id: UUID(1))
      $0.log.markSending(UUID(1))
      $0.shown = [Self.read(n2)]
    }
    await store.receive(.deletedOnServer(id: "n2", at: 5)) {
      $0.server.remove("n2", at: 5)
      $0.shown = []
    }
    await store.receive(.changeFailed(UUID(1), .notFound)) {
      _ = $0.log.fail(UUID(1), with: .notFound, at: ChangeLogTests.start)
      $0.error = .notFound
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.delegate(.errorOccurred(.notFound)))
    #expect(store.state.shown.isEmpty)
    #expect(store.state.error == .notFound)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// `backend`'s client whose look-ups fail with `failures`, one a call, then answer that the
  /// server deleted the notification at 3; `lookUps` counts the calls.
  func client(
    of backend: Backend, lookUpsFailing failures: [UserFacingError],
    counting lookUps: LockedState<Int>
  ) -> NotificationClient {
    var client = backend.client
    client.fetchNotification = { id in
      let count = lookUps.withLock { count in
        count += 1
        return count
      }
      if count <= failures.count { throw failures[count - 1] }
      throw DeletedNotificationError(id: id, cursor: 3)
    }
    return client
  }

  /// The push of n9 arrives, unlisted: shown, announced and counted.
  func receiveThePushOfN9(_ store: TestStore<Feature.State, Feature.Action>) async throws {
    let push = try PushPayloadParser.parse(Self.pushOfN9, receivedAt: ChangeLogTests.start)
    await store.send(.pushReceived(Self.pushOfN9)) {
      $0.log.receive(push, at: ChangeLogTests.start)
      $0.shown = [push]
    }
    await store.receive(.delegate(.presentBanner(push, [.banner, .sound, .badge])))
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  /// The look-up of n9 says the server deleted it at 3: it leaves.
  func receiveTheDeletionOfN9(_ store: TestStore<Feature.State, Feature.Action>) async {
    await store.receive(.deletedOnServer(id: "n9", at: 3)) {
      $0.server.remove("n9", at: 3)
      $0.log.serverRemoved(["n9"])
      $0.shown = []
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
  }

  /// A push whose look-up the server refuses is looked up again by the next first page: the
  /// server deleted it, and it leaves.
  @Test func aPushWhoseLookUpWasRefusedIsLookedUpAgainByTheNextFirstPage() async throws {
    let page = NotificationPage(items: [], changeCursor: 3)
    let backend = Backend(pages: [page, page])
    let lookUps = LockedState(0)
    let client = client(of: backend, lookUpsFailing: [.server(status: 400)], counting: lookUps)
    let store = await sync.launched(with: page, backend: backend, client: client)
    try await receiveThePushOfN9(store)
    #expect(lookUps.withLock { $0 } == 1)
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(page, first: true)) { $0.paging.isLoading = false }
    await receiveTheDeletionOfN9(store)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A push whose look-up fails for now (the server cannot be reached) is looked up again
  /// after a backoff, with no first page: the server deleted it, and it leaves.
  @Test func aPushWhoseLookUpFailedForNowIsLookedUpAgainAfterABackoff() async throws {
    let page = NotificationPage(items: [], changeCursor: 3)
    let backend = Backend(pages: [page])
    let lookUps = LockedState(0)
    let client = client(of: backend, lookUpsFailing: [.network, .network], counting: lookUps)
    let store = await sync.launched(with: page, backend: backend, client: client)
    try await receiveThePushOfN9(store)
    await receiveTheDeletionOfN9(store)
    #expect(lookUps.withLock { $0 } == 3)
    await store.send(.onDisappear) { $0.connection = .offline }
  }

  /// A push an earlier launch kept, tapped again at a cold start and found on the server while
  /// the saved log is read, is not kept as unlisted once the log is read: what the server said
  /// meanwhile holds for what was restored, and the change to the push is sent. It
  /// used to stay listed after the server deleted it (lifetime seed 1641622519520334210).
  @Test func whatTheServerSaysWhileTheLogIsReadHoldsForWhatWasRestored() async throws {
    let push = try PushPayloadParser.parse(Self.pushOfN9, receivedAt: ChangeLogTests.start)
    var saved = ChangeLog()
    saved.receive(push, at: ChangeLogTests.start)
    saved.record(.markAsRead("n9"), id: UUID(100))
    var listed = push
    listed.version = 2
    let page = NotificationPage(items: [], changeCursor: 3)
    let backend = Backend(pages: [page], answers: [.success(4)], byID: ["n9": listed])
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = sync.makeStore(launching, backend: backend, saved: .inMemory(saved))
    store.exhaustivity = .off

    await store.send(.notificationResponse(Self.pushOfN9))
    await store.receive(.pushLookedUp(id: "n9", listed))
    await store.send(.restored(Feature.Saved(log: saved)))
    #expect(store.state.log.unlisted.isEmpty)
    // The tap's own mark-read replaced the saved one (rule 4 of the log).
    await store.receive(.changeAnswered(UUID(0), 4))
    #expect(backend.requests.withLock { $0 } == [ChangeRequest(id: UUID(0), .markAsRead("n9"))])
    await store.send(.onDisappear)
  }
}
