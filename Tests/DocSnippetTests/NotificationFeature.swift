// The snippets of Docs/NotificationFeature.md and the routing one of
// Docs/EmbeddingInAnAppShell.md. `AppFeature` here is a small stand-in for the complete shell in
// Examples/AppShell.

// snippet: embedding
import Loom
import Notifications

struct AppFeature: Reducer {
  enum Tab: Equatable { case inbox, contacts, alerts }
  struct State: Equatable {
    var notifications = NotificationFeature.State()
    var selectedTab: Tab = .inbox
    var selectedContactID: String?
    var selectedPingID: String?
    var unreadCount = 0
  }
  enum Action: Sendable { case notifications(NotificationFeature.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.notifications, action: .notifications) { NotificationFeature() }
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

extension CasePath where Root == AppFeature.Action, Value == NotificationFeature.Action {
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
import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
@Test func aChangeTheServerRefusesLeavesTheLog() async {
  let unread = NotificationData(
    id: "n1", type: .ping, title: "Ping from Ada", message: "Are you there?",
    timestamp: Date(timeIntervalSince1970: 1_700_000_060), version: 3)
  // A feature that has launched, and whose server listed n1, unread.
  var launched = NotificationFeature.State()
  launched.launch = .ready
  launched.server.replace(with: NotificationPage(items: [unread], changeCursor: 3))
  launched.reshowAll()
  let store = TestStore(initialState: launched) {
    NotificationFeature()
  } withDependencies: {
    $0.uuid = .incrementing
    $0.date = .constant(Date(timeIntervalSince1970: 1_700_000_120))
    $0.changeLogStore = .inMemory()
    $0.notificationClient.apply = { _ in throw UserFacingError.notFound }
  }
  await store.send(.markAsRead("n1")) {
    $0.log.record(.markAsRead("n1"), id: UUID(0))
    $0.log.markSending(UUID(0))
    $0.shown[id: "n1"]?.isRead = true
  }
  // The server refuses it for good: the record leaves, and n1 is shown as the server has it.
  await store.receive(.changeFailed(UUID(0), .notFound)) {
    $0.log = ChangeLog()
    $0.shown[id: "n1"]?.isRead = false
    $0.error = .notFound
  }
  await store.receive(.delegate(.unreadCountChanged(0)))
  await store.receive(.delegate(.errorOccurred(.notFound)))
  await store.receive(.delegate(.unreadCountChanged(1)))
}
// snippet: end

// snippet: pushes
@MainActor
@Test func aPushIsKeptUntilTheServerListsIt() async {
  let now = Date(timeIntervalSince1970: 1_700_000_120)
  var launched = NotificationFeature.State()
  launched.launch = .ready
  let store = TestStore(initialState: launched) {
    NotificationFeature()
  } withDependencies: {
    $0.date = .constant(now)
    $0.changeLogStore = .inMemory()
    // The server does not list it yet.
    $0.notificationClient.fetchNotification = { _ in throw UserFacingError.notFound }
  }
  let pushed = NotificationData(
    id: "p1", type: .ping, title: "Hi", message: "Are you there?", timestamp: now)
  let payload = #"{"id":"p1","type":"ping","title":"Hi","body":"Are you there?"}"#
  await store.send(.pushReceived(Data(payload.utf8))) {
    $0.log.receive(pushed, at: now)
    $0.shown = [pushed]
  }
  await store.receive(.delegate(.presentBanner(pushed, [.banner, .sound, .badge])))
  await store.receive(.pushLookedUp(id: "p1", nil))
  await store.receive(.delegate(.unreadCountChanged(1)))
  // The server lists it: the push leaves the log, and the server's copy is shown.
  let listing = NotificationEvent(.inserted(pushed), cursor: 1)
  var listed = pushed
  listed.version = 1
  await store.send(.liveEvent(listing)) {
    $0.server.apply(listing)
    $0.log = ChangeLog()
    $0.shown = [listed]
  }
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
