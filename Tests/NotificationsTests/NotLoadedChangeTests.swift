import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Changes by id to a notification the list has not loaded (past the pages loaded, or one a
/// shell names): the backend makes them, or says the notification does not exist.
@MainActor
struct NotLoadedChangeTests {
  @Test func markingANotificationNotLoadedReadAsksTheBackend() async {
    let calls = LockedState<[String]>([])
    let store = makeStore {
      $0.notificationClient.markAsRead = { id in calls.withLock { $0.append("read \(id)") } }
      $0.notificationClient.markAsUnread = { id in calls.withLock { $0.append("unread \(id)") } }
    }
    await store.send(.markAsRead("far")) {
      $0.sync.pendingChanges[UUID(0)] = .setRead(id: "far", isRead: true, previous: false)
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
    await store.send(.markAsUnread("far")) {
      $0.sync.pendingChanges[UUID(1)] = .setRead(id: "far", isRead: false, previous: true)
    }
    await store.receive(.sync(.changeSucceeded(UUID(1), at: nil))) { $0.sync.pendingChanges = [:] }
    #expect(calls.withLock { $0 } == ["read far", "unread far"])
    #expect(store.state.notifications.elements == Fixtures.feed)
  }

  @Test func anUnknownIDIsTheBackendsNotFoundAndChangesNothing() async {
    let store = makeStore {
      $0.notificationClient.markAsRead = { _ in throw UserFacingError.notFound }
    }
    let change = NotificationsFeature.PendingChange.setRead(id: "nope", isRead: true, previous: false)
    await store.send(.markAsRead("nope")) { $0.sync.pendingChanges[UUID(0)] = change }
    await store.receive(.sync(.changeFailed(UUID(0), .notFound))) { $0.sync.pendingChanges = [:] }
    await store.receive(.sync(.delegate(.rollBack(change, error: .notFound)))) {
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    #expect(store.state.notifications.elements == Fixtures.feed)
  }

  @Test func deletingANotificationNotLoadedAsksTheBackendAndALaterPageDoesNotListIt() async {
    let deleted = LockedState<[String]>([])
    let far = Fixtures.notification("far", minutesAgo: 600)
    let store = makeStore {
      $0.notificationClient.delete = { id in deleted.withLock { $0.append(id) } }
    }
    await store.send(.delete("far")) {
      $0.sync.pendingChanges[UUID(0)] = .deleteNotLoaded(id: "far")
      $0.deletedIDs = ["far"]
    }
    await store.receive(.sync(.changeSucceeded(UUID(0), at: nil))) { $0.sync.pendingChanges = [:] }
    #expect(deleted.withLock { $0 } == ["far"])
    // A page made before the deletion reached the backend does not list it.
    await store.send(.pageLoaded(NotificationPage(items: [far]), replacing: false)) {
      $0.hasLoadedOnce = true
    }
    // Deleting it again: it is gone.
    await store.send(.delete("far")) { $0.error = .notFound }
    await store.receive(.delegate(.errorOccurred(.notFound)))
  }

  @Test func aDeletionOfANotificationNotLoadedThatFailsForGoodIsForgotten() async {
    let far = Fixtures.notification("far", minutesAgo: 600)
    let store = makeStore {
      $0.notificationClient.delete = { _ in throw UserFacingError.server(status: 403) }
    }
    let change = NotificationsFeature.PendingChange.deleteNotLoaded(id: "far")
    await store.send(.delete("far")) {
      $0.sync.pendingChanges[UUID(0)] = change
      $0.deletedIDs = ["far"]
    }
    await store.receive(.sync(.changeFailed(UUID(0), .server(status: 403)))) {
      $0.sync.pendingChanges = [:]
    }
    await store.receive(.sync(.delegate(.rollBack(change, error: .server(status: 403))))) {
      $0.deletedIDs = []
      $0.error = .server(status: 403)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 403))))
    // Not deleted: a later page lists it.
    await store.send(.pageLoaded(NotificationPage(items: [far]), replacing: false)) {
      $0.hasLoadedOnce = true
      $0.notifications.append(far)
    }
    await store.receive(.delegate(.unreadCountChanged(3)))
  }
}
