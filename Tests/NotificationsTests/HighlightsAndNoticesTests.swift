import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct HighlightsAndNoticesTests {
  let changeID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()

  @Test func aLocalNoticeIsSilentReadLocalAndStampedFromDependencies() async {
    let store = makeStore()
    var notice = NotificationData(
      id: "local-00000000-0000-0000-0000-000000000000", type: .system, title: "Message sent",
      message: "To Ada", timestamp: Fixtures.now, isRead: true, priority: .silent,
      isLocal: true)
    // Kept on the device only: saved with the pushes, so a relaunch keeps it.
    await store.send(.recordLocalNotice(title: "Message sent", message: " To Ada\n")) {
      $0.notifications.insert(notice, at: 0)
      $0.localNoticeIDs = [notice.id]
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes(notices: [notice])
    }
    await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
    // Changing a local notice never calls the backend (the client is unimplemented here).
    notice.isRead = false
    await store.send(.markAsUnread(notice.id)) {
      $0.notifications[id: notice.id]?.isRead = false
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes(notices: [notice])
    }
    await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(3)))
    // Deleting it forgets it.
    await store.send(.delete(notice.id)) {
      $0.notifications.remove(id: notice.id)
      $0.localNoticeIDs = []
      $0.pushesBeingSaved = NotificationsFeature.SavedPushes()
    }
    await store.receive(.pushesSaved) { $0.pushesBeingSaved = nil }
    await store.receive(.delegate(.unreadCountChanged(2)))
  }

  /// A list that holds the whole feed: opening an entity fetches nothing.
  static func everyPageLoaded(_ notifications: [NotificationData]) -> NotificationsFeature.State {
    var state = NotificationsFeature.State(notifications: notifications)
    state.hasLoadedOnce = true
    return state
  }

  @Test func entitiesWithUnreadNotificationsAreHighlighted() {
    let state = NotificationsFeature.State(notifications: Fixtures.feed)
    #expect(state.highlightedEntities == [.ping("p1"), .contact("c1"), .alert("a1")])
  }

  @Test func openingAnEntityMarksEverythingAboutItRead() async {
    let extra = Fixtures.notification("n5", minutesAgo: 5, type: .role, target: .contact(contactID: "c1"))
    let store = makeStore(state: Self.everyPageLoaded(Fixtures.feed + [extra])) {
      $0.notificationClient.markAllAsRead = { _ in }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n5"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["n1", "n5"])
    }
    await store.receive(.sync(.changeSucceeded(changeID, at: nil))) { $0.sync.pendingChanges = [:] }
    await store.receive(.delegate(.unreadCountChanged(1)))
    #expect(store.state.highlightedEntities == [.alert("a1")])
  }

  @Test func openingAnEntityRollsBackPerItemOnFailure() async {
    let unread = Fixtures.notification(
      "n5", minutesAgo: 5, type: .role, target: .contact(contactID: "c1"))
    let alreadyRead = Fixtures.notification(
      "n6", minutesAgo: 6, type: .added, isRead: true, target: .contact(contactID: "c1"))
    let store = makeStore(state: Self.everyPageLoaded(Fixtures.feed + [unread, alreadyRead])) {
      $0.notificationClient.markAllAsRead = { _ in throw UserFacingError.unauthorized }
    }
    await store.send(.markTargetRead(.contact("c1"))) {
      $0.notifications[id: "n1"]?.isRead = true
      $0.notifications[id: "n5"]?.isRead = true
      $0.sync.pendingChanges[changeID] = .markAll(ids: ["n1", "n5"])
    }
    // Only the two it marked read become unread again; n6 was read before and stays read.
    await store.receive(.sync(.changeFailed(changeID, .unauthorized))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    let undone = NotificationsFeature.PendingChange.markAll(ids: ["n1", "n5"])
    await store.receive(.sync(.delegate(.rollBack(undone, error: .unauthorized)))) {
      $0.notifications[id: "n1"]?.isRead = false
      $0.notifications[id: "n5"]?.isRead = false
      $0.error = .unauthorized
    }
    await store.receive(.delegate(.errorOccurred(.unauthorized)))
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  @Test func theBadgeTextCapsAt99() {
    let many = (0..<120).map { Fixtures.notification("m\($0)", minutesAgo: Double($0)) }
    #expect(NotificationsFeature.State(notifications: many).badgeText == "99+")
    #expect(NotificationsFeature.State(notifications: Array(many.prefix(7))).badgeText == "7")
    #expect(NotificationsFeature.State().badgeText == "")
  }
}
