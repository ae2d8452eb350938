import AppShell
import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct AppFeatureTests {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)
  static let ping = NotificationData(
    id: "n1", type: .ping, title: "Ping", message: "Hi", timestamp: now,
    target: .ping(pingID: "p1", contactID: "c1"))

  static let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  /// A shell, not launched yet, whose feed has listed `notifications` (its launch read the
  /// saved log, and a first page listed them) and whose badge shows their unread count, so a
  /// test sees the count the feed reports change it.
  static func shell(_ notifications: [NotificationData] = [ping]) -> AppFeature.State {
    var feature = NotificationFeature.State()
    feature.launch = .ready
    feature.server.replace(with: NotificationPage(items: notifications, changeCursor: 1))
    feature.reshowAll()
    var state = AppFeature.State(notifications: feature)
    state.unreadCount = state.notifications.unreadCount
    return state
  }

  func makeStore(
    _ state: AppFeature.State = shell(),
    _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    let store = TestStore(initialState: state, reducer: { AppFeature() }) {
      $0.date = .constant(Self.now)
      $0.uuid = .incrementing
      $0.notificationClient.markAsRead = { _ in }
      $0.settingsClient = .inMemory()
      $0.changeLogStore = .inMemory()
      $0.pushClient.deviceTokens = { AsyncStream { $0.finish() } }
      $0.pushClient.authorizationStatus = { .denied }
      prepare(&$0)
    }
    // Effects here call client closures off the main actor; under the thread sanitizer on a
    // loaded machine a round trip has taken over a second. Passing tests never wait this long.
    store.timeout = .seconds(15)
    return store
  }

  @Test func aTappedPingPushesThePingsScreen() async {
    // Holds the answer until what the tap did at once is asserted.
    let answer = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in for await _ in answer.stream { break } }
    }
    await store.send(.notifications(.notificationTapped("n1"))) {
      $0.notifications.log.record(.markAsRead("n1"), id: Self.changeID)
      $0.notifications.log.markSending(Self.changeID)
      $0.notifications.shown[id: "n1"]?.isRead = true
      $0.notifications.lastTap = .navigated(id: "n1")
    }
    await store.receive(.notifications(.delegate(.navigateToPing(pingID: "p1", contactID: "c1")))) {
      $0.path.append(.ping(pingID: "p1", contactID: "c1"))
    }
    await store.receive(.notifications(.delegate(.unreadCountChanged(0)))) { $0.unreadCount = 0 }
    #expect(store.state.badgeText == "")
    answer.continuation.yield()
    await receiveReadAnsweredWithoutCursor(store)
  }

  /// The backend's answer to the mark-as-read of n1, without a cursor (the test's client says
  /// none): the change leaves the log, n1 stays read, and the badge stays empty.
  func receiveReadAnsweredWithoutCursor(
    _ store: TestStore<AppFeature.State, AppFeature.Action>
  ) async {
    await store.receive(.notifications(.changeAnswered(Self.changeID, nil))) {
      $0.notifications.log.acknowledge(Self.changeID, at: nil)
      // Taken as applied: the server's copy is read now.
      $0.notifications.server.assume(.markAsRead("n1"))
    }
    await store.finish()
    #expect(store.state.badgeText == "")
  }

  @Test func aTappedAlertPushesTheAlertsScreen() async {
    let alert = NotificationData(
      id: "n2", type: .alert, title: "Alert", message: "Smoke", timestamp: Self.now,
      isRead: true, target: .alert(alertID: "a1"))
    let store = makeStore(Self.shell([alert]))
    await store.send(.notifications(.notificationTapped("n2"))) {
      $0.notifications.lastTap = .navigated(id: "n2")
    }
    await store.receive(.notifications(.delegate(.navigateToAlert(alertID: "a1")))) {
      $0.path.append(.alert(alertID: "a1"))
    }
  }

  @Test func aTappedContactNotificationPushesTheContactsScreenOverTheTabShown() async {
    let added = NotificationData(
      id: "n3", type: .added, title: "Added", message: "Ada", timestamp: Self.now,
      isRead: true, target: .contact(contactID: "c2"))
    var state = Self.shell([added])
    state.selectedTab = .settings
    let store = makeStore(state)
    await store.send(.notifications(.notificationTapped("n3"))) {
      $0.notifications.lastTap = .navigated(id: "n3")
    }
    await store.receive(.notifications(.delegate(.navigateToContact(contactID: "c2")))) {
      $0.path.append(.contact(contactID: "c2"))
    }
  }

  @Test func theBadgeTextCapsAt99() {
    var state = AppFeature.State()
    state.unreadCount = 7
    #expect(state.badgeText == "7")
    state.unreadCount = 150
    #expect(state.badgeText == "99+")
  }

  @Test func tapsBeforeLaunchAreBufferedAndHandledOnce() async {
    // Holds the mark-as-read call so that it answers after push registration: both start at
    // launch, and the test asserts them in one order.
    let markRead = AsyncStream<Void>.makeStream()
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in for await _ in markRead.stream { break } }
    }
    let tap = Data(
      #"{"id":"n1","type":"ping","pingId":"p1","contactId":"c1","title":"Ping","body":"Hi","timestamp":1700000000}"#
        .utf8)
    await store.send(.pushTapped(tap)) { $0.bufferedTaps = [tap] }
    await store.send(.launched) {
      $0.isReady = true
      $0.bufferedTaps = []
    }
    await store.receive(.notifications(.notificationResponse(tap))) {
      $0.notifications.log.record(.markAsRead("n1"), id: Self.changeID)
      $0.notifications.log.markSending(Self.changeID)
      $0.notifications.shown[id: "n1"]?.isRead = true
      $0.notifications.lastTap = .navigated(id: "n1")
    }
    await store.receive(.pushRegistration(.start)) {
      $0.pushRegistration.phase = .requestingAuthorization
    }
    await store.receive(.notifications(.delegate(.navigateToPing(pingID: "p1", contactID: "c1")))) {
      $0.path.append(.ping(pingID: "p1", contactID: "c1"))
    }
    await store.receive(.notifications(.delegate(.unreadCountChanged(0)))) { $0.unreadCount = 0 }
    await store.receive(.pushRegistration(.authorizationResolved(.denied))) {
      $0.pushRegistration.phase = .denied
      $0.pushRegistration.authorization = .denied
    }
    markRead.continuation.yield()
    await receiveReadAnsweredWithoutCursor(store)
  }

  @Test func launchingRegistersForPushAndUploadsEachNewTokenOnce() async {
    let uploaded = LockedState<[String]>([])
    let removed = LockedState<[String]>([])
    let tokens = AsyncStream<String>.makeStream()
    var state = AppFeature.State()
    state.pushRegistration.registeredTokens = ["old"]
    let store = makeStore(state) {
      $0.pushClient.authorizationStatus = { .notDetermined }
      $0.pushClient.requestAuthorization = { .authorized }
      $0.pushClient.register = {}
      $0.pushClient.deviceTokens = { tokens.stream }
      $0.pushClient.uploadToken = { token in uploaded.withLock { $0.append(token) } }
      $0.pushClient.removeToken = { token in removed.withLock { $0.append(token) } }
    }
    await store.send(.launched) { $0.isReady = true }
    await store.receive(.pushRegistration(.start)) {
      $0.pushRegistration.phase = .requestingAuthorization
    }
    await store.receive(.pushRegistration(.authorizationResolved(.authorized))) {
      $0.pushRegistration.phase = .registered
      $0.pushRegistration.authorization = .authorized
    }
    tokens.continuation.yield("old")
    await store.receive(.pushRegistration(.tokenReceived("old"))) {
      $0.pushRegistration.deviceToken = "old"
    }
    tokens.continuation.yield("new")
    await store.receive(.pushRegistration(.tokenReceived("new"))) {
      $0.pushRegistration.deviceToken = "new"
      $0.pushRegistration.call = .upload("new")
    }
    await store.receive(.pushRegistration(.callFinished(.upload("new"), error: nil))) {
      $0.pushRegistration.registeredTokens = ["old", "new"]
      $0.pushRegistration.call = .remove("old")
    }
    await store.receive(.pushRegistration(.callFinished(.remove("old"), error: nil))) {
      $0.pushRegistration.registeredTokens = ["new"]
      $0.pushRegistration.call = nil
    }
    #expect(uploaded.withLock { $0 } == ["new"])
    #expect(removed.withLock { $0 } == ["old"])
    tokens.continuation.finish()
    await store.finish()
  }
}
