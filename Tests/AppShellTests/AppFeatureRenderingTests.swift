import AppShell
import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// The shell renders what the feature says: banners wait in a queue and show one at a time, in
/// the order they were announced; the current error is the newest one until it is dismissed; a
/// push that cannot be read is shown as an error. A tapped contact or alert push routes the shell.
@MainActor
struct AppFeatureRenderingTests {
  static let announced: NotificationFeature.BannerOptions = [.banner, .sound, .badge]
  static let first = NotificationData(
    id: "b1", type: .alert, title: "First", message: "One", timestamp: AppFeatureTests.now,
    target: .alert(alertID: "a1"))
  static let second = NotificationData(
    id: "b2", type: .ping, title: "Second", message: "Two", timestamp: AppFeatureTests.now,
    priority: .high)

  func makeStore(_ state: AppFeature.State = AppFeatureTests.shell())
    -> TestStore<AppFeature.State, AppFeature.Action>
  {
    AppFeatureTests().makeStore(state)
  }

  @Test func bannersQueueInOrderAndShowOneAtATimeUntilDismissed() async {
    let store = makeStore()
    let first = AppFeature.Banner(notification: Self.first, options: Self.announced)
    let second = AppFeature.Banner(notification: Self.second, options: [.banner])
    await store.send(.notifications(.delegate(.presentBanner(Self.first, Self.announced)))) {
      $0.banners = [first]
    }
    await store.send(.notifications(.delegate(.presentBanner(Self.second, [.banner])))) {
      $0.banners = [first, second]
    }
    #expect(store.state.currentBanner == first)
    await store.send(.bannerDismissed) { $0.banners = [second] }
    #expect(store.state.currentBanner == second)
    await store.send(.bannerDismissed) { $0.banners = [] }
    #expect(store.state.currentBanner == nil)
    // Nothing shown: dismissing changes nothing.
    await store.send(.bannerDismissed)
  }

  @Test func aPushInTheForegroundQueuesItsBanner() async {
    // The server does not list the push yet.
    let store = AppFeatureTests().makeStore {
      $0.notificationClient.fetchNotification = { _ in throw UserFacingError.notFound }
    }
    let json =
      #"{"id":"b1","type":"alert","alertId":"a1","title":"First","body":"One","timestamp":1700000000}"#
    await store.send(.notifications(.pushReceived(Data(json.utf8)))) {
      $0.notifications.log.receive(Self.first, at: AppFeatureTests.now)
      $0.notifications.shown.insert(Self.first, at: 0)
    }
    await store.receive(.notifications(.delegate(.presentBanner(Self.first, Self.announced)))) {
      $0.banners = [AppFeature.Banner(notification: Self.first, options: Self.announced)]
    }
    await store.receive(.notifications(.pushLookedUp(id: "b1", nil)))
    await store.receive(.notifications(.delegate(.unreadCountChanged(2)))) { $0.unreadCount = 2 }
  }

  @Test func theNewestErrorIsShownUntilDismissed() async {
    let store = makeStore()
    await store.send(.notifications(.delegate(.errorOccurred(.notFound)))) {
      $0.error = .feature(.notFound)
    }
    await store.send(.notifications(.delegate(.errorOccurred(.unauthorized)))) {
      $0.error = .feature(.unauthorized)
    }
    #expect(store.state.error?.message == "Your session has expired. Sign in again.")
    await store.send(.notifications(.dismissError)) { $0.error = nil }
  }

  @Test func aFailedChangeShowsTheFeaturesErrorAndDismissingClearsBoth() async {
    // Holds the answer until the count the change made at once is asserted.
    let answer = AsyncStream<Void>.makeStream()
    let store = AppFeatureTests().makeStore(AppFeatureTests.shell()) {
      $0.notificationClient.markAsRead = { _ in
        for await _ in answer.stream { break }
        throw UserFacingError.notFound
      }
    }
    await store.send(.notifications(.markAsRead("n1"))) {
      $0.notifications.log.record(.markAsRead("n1"), id: AppFeatureTests.changeID)
      $0.notifications.log.markSending(AppFeatureTests.changeID)
      $0.notifications.shown[id: "n1"]?.isRead = true
    }
    await store.receive(.notifications(.delegate(.unreadCountChanged(0)))) { $0.unreadCount = 0 }
    answer.continuation.yield()
    // Refused for good: the change leaves the log, and n1 is shown as the server has it.
    await store.receive(.notifications(.changeFailed(AppFeatureTests.changeID, .notFound))) {
      _ = $0.notifications.log.fail(
        AppFeatureTests.changeID, with: .notFound, at: AppFeatureTests.now)
      $0.notifications.shown[id: "n1"]?.isRead = false
      $0.notifications.error = .notFound
    }
    await store.receive(.notifications(.delegate(.errorOccurred(.notFound)))) {
      $0.error = .feature(.notFound)
    }
    await store.receive(.notifications(.delegate(.unreadCountChanged(1)))) { $0.unreadCount = 1 }
    await store.send(.notifications(.dismissError)) {
      $0.notifications.error = nil
      $0.error = nil
    }
  }

  @Test func anUnreadablePushIsShownAsAnError() async {
    let store = makeStore()
    await store.send(.notifications(.pushReceived(Data(#"{"type":"ping"}"#.utf8)))) {
      $0.notifications.lastPushParseError = .missingField("id")
    }
    await store.receive(.notifications(.delegate(.pushParseFailed(.missingField("id"))))) {
      $0.error = .invalidPush(.missingField("id"))
    }
    #expect(store.state.error?.message == "The push payload has no \"id\".")
    await store.send(.notifications(.dismissError)) { $0.error = nil }
  }

  @Test func aTappedContactPushPushesTheContactsScreen() async {
    let added = NotificationData(
      id: "n3", type: .added, title: "Added", message: "Ada", timestamp: AppFeatureTests.now,
      isRead: true, target: .contact(contactID: "c2"))
    var state = AppFeatureTests.shell([added])
    state.isReady = true
    let store = makeStore(state)
    let tap =
      #"{"id":"n3","type":"added","contactId":"c2","title":"Added","body":"Ada","timestamp":1700000000}"#
    await store.send(.pushTapped(Data(tap.utf8)))
    await store.receive(.notifications(.notificationResponse(Data(tap.utf8)))) {
      $0.notifications.lastTap = .navigated(id: "n3")
    }
    await store.receive(.notifications(.delegate(.navigateToContact(contactID: "c2")))) {
      $0.path.append(.contact(contactID: "c2"))
    }
  }

  @Test func aTappedAlertPushPushesTheAlertsScreenOverTheTabShown() async {
    let alert = NotificationData(
      id: "n2", type: .alert, title: "Alert", message: "Smoke", timestamp: AppFeatureTests.now,
      isRead: true, target: .alert(alertID: "a1"))
    var state = AppFeatureTests.shell([alert])
    state.isReady = true
    state.selectedTab = .settings
    let store = makeStore(state)
    let tap =
      #"{"id":"n2","type":"alert","alertId":"a1","title":"Alert","body":"Smoke","timestamp":1700000000}"#
    await store.send(.pushTapped(Data(tap.utf8)))
    await store.receive(.notifications(.notificationResponse(Data(tap.utf8)))) {
      $0.notifications.lastTap = .navigated(id: "n2")
    }
    await store.receive(.notifications(.delegate(.navigateToAlert(alertID: "a1")))) {
      $0.path.append(.alert(alertID: "a1"))
    }
  }
}
