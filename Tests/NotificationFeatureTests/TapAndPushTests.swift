import Foundation
import Loom
import LoomTesting
import NotificationFeature
import Testing

@MainActor
struct TapAndPushTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func tappingMarksReadAndNavigatesToTheTarget() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    await store.send(.notificationTapped("n1")) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.pendingChanges[changeID] = .setRead(id: "n1", isRead: true, previous: false)
      $0.lastTap = .navigated(id: "n1")
    }
    await store.receive(.delegate(.navigateToPing(pingID: "p1", contactID: "c1")))
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.receive(.changeSucceeded(changeID)) { $0.pendingChanges = [:] }
  }

  @Test func aNotificationWithoutATargetOpensNothingAndSaysSo() async {
    let store = makeStore()
    await store.send(.notificationTapped("n3")) { $0.lastTap = .nothingToOpen(id: "n3") }
    await store.send(.notificationTapped("missing")) { $0.lastTap = .notFound(id: "missing") }
  }

  @Test func aValidPushIsInsertedInOrderAndAnnounced() async {
    let store = makeStore()
    let json = #"{"aps":{"alert":{"title":"Alert!","body":"Smoke"}},"id":"n7","type":"alert","alertId":"a7","timestamp":1699999990}"#
    let expected = NotificationData(
      id: "n7", type: .alert, title: "Alert!", message: "Smoke",
      timestamp: Date(timeIntervalSince1970: 1_699_999_990), target: .alert(alertID: "a7"))
    await store.send(.pushReceived(payload(json))) {
      $0.notifications.insert(expected, at: 0)
    }
    await store.receive(.delegate(.presentBanner(expected, [.banner, .sound, .badge])))
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  @Test func theSameIDByPushAndByFeedShowsOnce() async {
    let store = makeStore()
    store.exhaustivity = .off
    let json = #"{"id":"n1","type":"ping","pingId":"p1","contactId":"c1","title":"Title n1","body":"Message n1","timestamp":1699999940}"#
    await store.send(.pushReceived(payload(json)))
    #expect(store.state.notifications.ids.filter { $0 == "n1" }.count == 1)
    #expect(store.state.notifications.count == 3)
  }

  @Test func anInvalidPushIsRecordedAndChangesNothingElse() async {
    let store = makeStore()
    await store.send(.pushReceived(payload(#"{"type":"ping"}"#))) {
      $0.lastPushParseError = .missingField("id")
    }
    await store.receive(.delegate(.pushParseFailed(.missingField("id"))))
  }

  @Test func silentPushesAndMutedTypesAreNotAnnouncedUnlessHighPriority() async {
    var state = NotificationsFeature.State()
    state.mutedTypes = [.ping, .system]
    let store = TestStore(initialState: state) { NotificationsFeature() } withDependencies: {
      $0.useFeatureDefaults()
    }
    store.exhaustivity = .off
    await store.send(.pushReceived(payload(#"{"id":"s1","type":"ping","aps":{"interruption-level":"passive"}}"#)))
    await store.send(.pushReceived(payload(#"{"id":"m1","type":"ping"}"#)))
    await store.send(.pushReceived(payload(#"{"id":"h1","type":"ping","priority":"high"}"#)))
    await store.receive(where: {
      if case .delegate(.presentBanner(let notification, _)) = $0 { notification.id == "h1" } else { false }
    })
    await store.send(.pushReceived(payload(#"{"id":"h2","type":"system","aps":{"interruption-level":"critical"}}"#)))
    await store.finish()
    #expect(store.state.notifications.count == 4)
  }

  @Test func aTappedPushMarksTheFeedItemReadAndNavigates() async {
    let store = makeStore { $0.notificationClient.markAsRead = { _ in } }
    store.exhaustivity = .off
    let json = #"{"id":"n2","type":"alert","alertId":"a1","title":"Title n2","body":"Message n2","timestamp":1699999880}"#
    await store.send(.notificationResponse(payload(json)))
    await store.receive(.delegate(.navigateToAlert(alertID: "a1")))
    #expect(store.state.notifications[id: "n2"]?.isRead == true)
    await store.finish()
  }
}
