import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Opening an entity's screen (`markTargetRead`) marks read every unread notification about
/// it: those loaded at once, and those on pages not loaded once the backend names them.
@MainActor
struct OpenTargetTests {
  /// n1 (a ping of c1) and n2 are loaded and unread; the backend has three more unread on
  /// pages not loaded: x1 and x2 about c1, and one about something else.
  static func firstPageLoaded() -> NotificationsFeature.State {
    var state = NotificationsFeature.State(notifications: Fixtures.feed)
    state.hasLoadedOnce = true
    state.hasMore = true
    state.nextCursor = "3"
    state.unreadNotLoaded = 3
    return state
  }

  nonisolated static let x1 = Fixtures.notification("x1", minutesAgo: 100, target: .contact(contactID: "c1"))
  nonisolated static let x2 = Fixtures.notification(
    "x2", minutesAgo: 200, target: .ping(pingID: "p9", contactID: "c1"))

  @Test func openingAnEntityMarksItsNotificationsOnPagesNotLoadedReadToo() async {
    let marked = LockedState<[[String]]>([])
    // The fetch waits until the test lets it answer, so the two calls finish in a known order.
    let (answer, letAnswer) = AsyncStream<Void>.makeStream()
    let store = makeStore(state: Self.firstPageLoaded()) {
      $0.notificationClient.markAllAsRead = { ids in marked.withLock { $0.append(ids ?? []) } }
      $0.notificationClient.fetchUnread = { entity in
        #expect(entity == .contact("c1"))
        for await _ in answer { break }
        // n1 is still unread on the backend when it answers.
        return [Fixtures.feed[0], Self.x1, Self.x2]
      }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n1"])
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    // Confirmed while the fetch is in flight: applied to its answer.
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.markAllAsRead(["n1"])]
    }
    await store.receive(.delegate(.unreadCountChanged(4)))
    letAnswer.yield()
    await store.receive(
      .targetUnreadLoaded(.contact("c1"), [Fixtures.feed[0], Self.x1, Self.x2], fetch: 1)
    ) {
      $0.targetFetchesInFlight = 0
      $0.sync.confirmedWhileLoading = []
      var x1 = Self.x1
      x1.isRead = true
      var x2 = Self.x2
      x2.isRead = true
      $0.notifications.append(x1)
      $0.notifications.append(x2)
      // The two it loaded were among the unread ones not loaded.
      $0.unreadNotLoaded = 1
      $0.sync.pendingChanges[UUID(1)] = .markAll(ids: ["x1", "x2"])
    }
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(2)))
    // n1 is not sent twice.
    #expect(marked.withLock { $0 } == [["n1"], ["x1", "x2"]])
  }

  @Test func oneThePersonMarkedUnreadSinceTheEntityWasOpenedIsLeftUnread() async {
    let (answer, letAnswer) = AsyncStream<Void>.makeStream()
    let store = makeStore(state: Self.firstPageLoaded()) {
      $0.notificationClient.markAllAsRead = { _ in }
      $0.notificationClient.markAsUnread = { _ in }
      $0.notificationClient.fetchUnread = { _ in
        for await _ in answer { break }
        return [Fixtures.feed[0]]
      }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n1"])
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.markAllAsRead(["n1"])]
    }
    await store.receive(.delegate(.unreadCountChanged(4)))
    // The person marks n1 unread again before the backend answers.
    await store.send(.markAsUnread("n1")) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.markedUnreadWhileOpening = ["n1": 1]
      $0.sync.pendingChanges[UUID(1)] = .setRead(id: "n1", isRead: false, previous: true)
    }
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading.append(.markAsUnread("n1"))
    }
    await store.receive(.delegate(.unreadCountChanged(5)))
    letAnswer.yield()
    await store.receive(.targetUnreadLoaded(.contact("c1"), [Fixtures.feed[0]], fetch: 1)) {
      $0.targetFetchesInFlight = 0
      $0.sync.confirmedWhileLoading = []
      $0.markedUnreadWhileOpening = [:]
    }
  }

  @Test func noFetchWhenTheBackendHasNoUnreadNotificationNotLoaded() async {
    var state = Self.firstPageLoaded()
    state.unreadNotLoaded = 0
    // `fetchUnread` is unimplemented here: calling it fails the test.
    let store = makeStore(state: state) { $0.notificationClient.markAllAsRead = { _ in } }
    await store.send(.markTargetRead(.alert("a1"))) {
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n2"])
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(1)))
  }

  @Test func beforeTheFirstPageEveryUnreadNotificationAboutItIsFetched() async {
    let store = makeStore(state: NotificationsFeature.State()) {
      $0.notificationClient.markAllAsRead = { _ in }
      $0.notificationClient.fetchUnread = { _ in [Self.x1] }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    await store.receive(.targetUnreadLoaded(.contact("c1"), [Self.x1], fetch: 1)) {
      $0.targetFetchesInFlight = 0
      var x1 = Self.x1
      x1.isRead = true
      $0.notifications = [x1]
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["x1"])
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
  }

  @Test func aFailedFetchLeavesTheLoadedOnesReadAndShowsTheError() async {
    let (answer, letAnswer) = AsyncStream<Void>.makeStream()
    let store = makeStore(state: Self.firstPageLoaded()) {
      $0.notificationClient.markAllAsRead = { _ in }
      $0.notificationClient.fetchUnread = { _ in
        for await _ in answer { break }
        throw UserFacingError.server(status: 500)
      }
    }
    await store.send(.markTargetRead(.alert("a1"))) {
      $0.notifications[id: "n2"]?.isRead = true
      $0.sync.pendingChanges[UUID(0)] = .markAll(ids: ["n2"])
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.markAllAsRead(["n2"])]
    }
    await store.receive(.delegate(.unreadCountChanged(4)))
    letAnswer.yield()
    await store.receive(.targetUnreadFailed(.alert("a1"), .server(status: 500))) {
      $0.targetFetchesInFlight = 0
      $0.sync.confirmedWhileLoading = []
      $0.error = .server(status: 500)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 500))))
  }

  /// Found in review: a clear-all confirmed while the fetch was in flight was not applied to its
  /// answer, which the backend made before it, and the cleared notifications came back.
  @Test func aClearAllConfirmedWhileTheFetchIsInFlightAppliesToItsAnswer() async {
    let (answer, letAnswer) = AsyncStream<Void>.makeStream()
    var state = Self.firstPageLoaded()
    state.notifications[id: "n1"]?.isRead = true
    state.notifications[id: "n2"]?.isRead = true
    state.unreadNotLoaded = 2
    let bound = FeedPosition(Fixtures.feed[0])
    let store = makeStore(state: state) {
      $0.notificationClient.deleteAllUpTo = { _ in }
      $0.notificationClient.fetchUnread = { _ in
        for await _ in answer { break }
        // Made before the clear-all reached the backend.
        return [Self.x1, Self.x2]
      }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    await store.send(.clearAll) {
      $0.notifications = []
      $0.deletedIDs = ["n1", "n2", "n3"]
      $0.unreadNotLoaded = 0
      $0.sync.pendingChanges[UUID(0)] = .clearAll(Fixtures.feed.map {
        var read = $0
        if read.id != "n3" { read.isRead = true }
        return read
      }, unreadNotLoaded: 2)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.deleteAll(upTo: bound)]
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    letAnswer.yield()
    await store.receive(.targetUnreadLoaded(.contact("c1"), [Self.x1, Self.x2], fetch: 1)) {
      $0.targetFetchesInFlight = 0
      $0.sync.confirmedWhileLoading = []
    }
  }

  /// Two entities opened one after the other, the first's fetch slow: a notification the person
  /// marked unread between the two opens is marked read by the second, opened after.
  @Test func aNotificationMarkedUnreadBeforeASecondOpenIsMarkedReadByIt() async {
    let (answer, letAnswer) = AsyncStream<Void>.makeStream()
    var state = Self.firstPageLoaded()
    state.notifications[id: "n1"]?.isRead = true
    state.notifications[id: "n2"]?.isRead = true
    state.unreadNotLoaded = 2
    let x1 = Fixtures.notification("x1", minutesAgo: 100, isRead: true, target: .contact(contactID: "c1"))
    let unreadX1 = Fixtures.notification("x1", minutesAgo: 100, target: .contact(contactID: "c1"))
    let store = makeStore(state: state) {
      $0.notificationClient.markAsUnread = { _ in }
      $0.notificationClient.markAllAsRead = { _ in }
      $0.notificationClient.fetchUnread = { entity in
        // The alert's answer waits; the contact's comes at once.
        if entity == .alert("a9") { for await _ in answer { break } }
        return entity == .contact("c1") ? [unreadX1] : []
      }
    }
    await store.send(.markTargetRead(.alert("a9"))) {
      $0.targetFetchesInFlight = 1
      $0.targetFetchesStarted = 1
    }
    // x1 (not loaded) marked unread while the alert's fetch is in flight, before c1 is opened.
    await store.send(.markAsUnread("x1")) {
      $0.markedUnreadWhileOpening = ["x1": 1]
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "x1", isRead: false, previous: true)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading = [.markAsUnread("x1")]
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.targetFetchesInFlight = 2
      $0.targetFetchesStarted = 2
    }
    await store.receive(.targetUnreadLoaded(.contact("c1"), [unreadX1], fetch: 2)) {
      $0.targetFetchesInFlight = 1
      $0.notifications.append(x1)
      $0.unreadNotLoaded = 1
      $0.sync.pendingChanges[UUID(1)] = .markAll(ids: ["x1"])
    }
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) {
      $0.sync.pendingChanges = [:]
      $0.sync.confirmedWhileLoading.append(.markAllAsRead(["x1"]))
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    letAnswer.yield()
    await store.receive(.targetUnreadLoaded(.alert("a9"), [], fetch: 1)) {
      $0.targetFetchesInFlight = 0
      $0.markedUnreadWhileOpening = [:]
      $0.sync.confirmedWhileLoading = []
    }
  }
}
