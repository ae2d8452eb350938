// The snippets of Docs/NotificationFeature.md and the routing one of
// Docs/EmbeddingInAnAppShell.md. `AppFeature` here is a small stand-in for the complete shell in
// Examples/AppShell.

// snippet: sync-engine-test
import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
@Test func theEngineAloneRollsBackAChangeThatFailsForGood() async {
  let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
  var state = NotificationSyncEngine.State()
  state.pendingChanges[UUID(0)] = change
  let store = TestStore(initialState: state) { NotificationSyncEngine() }
  await store.send(.changeFailed(UUID(0), .notFound)) { $0.pendingChanges = [:] }
  await store.receive(.delegate(.rollBack(change, error: .notFound)))
}
// snippet: end

// snippet: embedding
import Loom
import Notifications

struct AppFeature: Reducer {
  enum Tab: Equatable { case inbox, contacts, alerts }
  struct State: Equatable {
    var notifications = NotificationsFeature.State()
    var selectedTab: Tab = .inbox
    var selectedContactID: String?
    var selectedPingID: String?
    var unreadCount = 0
  }
  enum Action: Sendable { case notifications(NotificationsFeature.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.notifications, action: .notifications) { NotificationsFeature() }
    Reduce { state, action in
      switch action {
      case .notifications(.delegate(.navigateToContact(let id))):
        state.selectedTab = .contacts
        state.selectedContactID = id
        return .none
      // snippet: delegate-routing
      case .notifications(.delegate(.navigateToPing(let pingID, let contactID))):
        state.selectedTab = .contacts
        state.selectedContactID = contactID
        state.selectedPingID = pingID
        return .none
      // snippet: end
      case .notifications(.delegate(.unreadCountChanged(let count))):
        state.unreadCount = count
        return .none
      default:
        return .none
      }
    }
  }
}

extension CasePath where Root == AppFeature.Action, Value == NotificationsFeature.Action {
  static var notifications: Self {
    Self(AppFeature.Action.notifications) {
      if case .notifications(let action) = $0 { action } else { nil }
    }
  }
}
// snippet: end

/// The feed of Docs/EmbeddingInAnAppShell.md's shell; the same as the one of `testing`.
let feed = [
  NotificationData(
    id: "n1", type: .ping, title: "Ping from Ada", message: "Are you there?",
    timestamp: Date(timeIntervalSince1970: 1_700_000_060),
    target: .ping(pingID: "p1", contactID: "c1")),
  NotificationData(
    id: "n2", type: .alert, title: "Battery low", message: "Sensor 4 is at 5%.",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000), target: .alert(alertID: "a1")),
]

// snippet: testing
@MainActor
@Test func aFailedMarkAsReadRollsBack() async {
  let feed = [
    NotificationData(
      id: "n1", type: .ping, title: "Ping from Ada", message: "Are you there?",
      timestamp: Date(timeIntervalSince1970: 1_700_000_060),
      target: .ping(pingID: "p1", contactID: "c1")),
    NotificationData(
      id: "n2", type: .alert, title: "Battery low", message: "Sensor 4 is at 5%.",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000), target: .alert(alertID: "a1")),
  ]
  let store = TestStore(initialState: NotificationsFeature.State(notifications: feed)) {
    NotificationsFeature()
  } withDependencies: {
    $0.uuid = .incrementing
    $0.notificationClient.markAsRead = { _ in throw UserFacingError.notFound }
  }
  await store.send(.markAsRead("n1")) {
    $0.notifications[id: "n1"]?.isRead = true
    $0.sync.pendingChanges[UUID(0)] = .setRead(id: "n1", isRead: true, previous: false)
  }
  await store.receive(.sync(.changeFailed(UUID(0), .notFound))) {
    $0.sync.pendingChanges = [:]
  }
  await store.receive(.delegate(.unreadCountChanged(1)))
  let undone = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
  await store.receive(.sync(.delegate(.rollBack(undone, error: .notFound)))) {
    $0.notifications[id: "n1"]?.isRead = false
    $0.error = .notFound
  }
  await store.receive(.delegate(.errorOccurred(.notFound)))
  await store.receive(.delegate(.unreadCountChanged(2)))
}
// snippet: end

// snippet: saved-pushes
@MainActor
@Test func aPushIsSavedUntilTheFeedListsIt() async {
  let now = Date(timeIntervalSince1970: 1_700_000_120)
  let store = TestStore(initialState: NotificationsFeature.State()) {
    NotificationsFeature()
  } withDependencies: {
    $0.date = .constant(now)
    $0.settingsClient = .inMemory()
  }
  await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
  let pushed = NotificationData(
    id: "p1", type: .ping, title: "Hi", message: "Are you there?", timestamp: now)
  let payload = #"{"id":"p1","type":"ping","title":"Hi","body":"Are you there?"}"#
  await store.send(.pushReceived(Data(payload.utf8))) {
    $0.notifications = [pushed]
    $0.unlistedPushIDs = ["p1"]
    $0.pushesBeingSaved = NotificationsFeature.SavedPushes(pushes: [pushed])
  }
  await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
  await store.receive(.delegate(.unreadCountChanged(1)))
  // The backend's feed lists it: one item, no longer saved as a push.
  await store.send(.liveEvent(NotificationEvent(.inserted(pushed), cursor: 1))) {
    $0.newestCursor = 1
    $0.unlistedPushIDs = []
    $0.pushesBeingSaved = NotificationsFeature.SavedPushes()
  }
  await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
}
// snippet: end

@MainActor
@Test func theAppRoutesTheFeaturesDelegateActions() async {
  let store = Store(initialState: AppFeature.State()) { AppFeature() }
  store.send(.notifications(.delegate(.navigateToPing(pingID: "p1", contactID: "c1"))))
  #expect(store.state.selectedTab == .contacts)
  #expect(store.state.selectedContactID == "c1")
  #expect(store.state.selectedPingID == "p1")
  store.send(.notifications(.delegate(.unreadCountChanged(3))))
  #expect(store.state.unreadCount == 3)
}

// snippet: life-of-a-change
@Test func aChangeFromTheTapToTheServersTruth() {
  var log = ChangeLog()
  let unread = NotificationData(
    id: "n1", type: .ping, title: "Hi", message: "", timestamp: .now, version: 40)

  // The person taps: the record is shown at once.
  log.record(.markAsRead("n1"), id: UUID(1))
  #expect(log.replaying(on: unread)?.isRead == true)

  // Its turn comes; the request carries the record's id on every attempt.
  #expect(log.recordsReadyToSend == [UUID(1)])
  log.markSending(UUID(1))

  // Offline: nothing counts, it waits for its backoff, then its next attempt.
  #expect(log.fail(UUID(1), with: .network, at: .now) == .willRetry(failures: 0))
  log.retry(UUID(1))
  log.markSending(UUID(1))

  // The server applied it at cursor 42. A page read before (version 40) still shows it read.
  log.acknowledge(UUID(1), at: 42)
  #expect(log.replaying(on: unread)?.isRead == true)

  // A page at cursor 42 reflects it: the record leaves, and the server's copy is the truth.
  log.forget(upTo: 42)
  #expect(log.isEmpty)
}
// snippet: end
