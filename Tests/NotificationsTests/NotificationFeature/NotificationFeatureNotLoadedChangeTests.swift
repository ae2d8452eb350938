import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Changes by id to a notification that is not held (on a page not loaded, or one a shell
/// names): sent to the server, which makes them or refuses them. Ported from
/// `NotLoadedChangeTests`.
@MainActor
struct NotificationFeatureNotLoadedChangeTests {
  typealias Feature = NotificationFeature

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let n3 = Ported.notification("n3", isRead: true, version: 2, minutesAgo: 3)
  static let page = NotificationPage(
    items: [n1, n2, n3], nextCursor: "p2", hasMore: true, changeCursor: 5)
  /// On the second page, which the server made before the person's changes.
  static let far = Ported.notification("far", version: 1, minutesAgo: 600)
  static let second = NotificationPage(items: [far], changeCursor: 5)

  /// Loads the second page, made at cursor 5, which shows `far` or not.
  func loadTheSecondPage(_ store: Ported.Store, showsFar: Bool) async {
    await store.send(.loadMoreRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(Self.second, first: false)) {
      $0.paging.isLoading = false
      $0.server.append(Self.second)
      $0.log.serverListed(["far"])
      Ported.forgetSeen(&$0, reflectedIn: ["far"])
      $0.paging.hasMore = false
      $0.paging.next = nil
      if showsFar { $0.shown.append(Self.far) }
    }
  }

  @Test func markingANotificationNotHeldReadAndUnreadSendsEach() async {
    let (store, backend) = await Ported.launched(listing: Self.page, answers: [.at(6), .at(7)])
    await store.send(.markAsRead("far")) {
      $0.log.record(.markAsRead("far"), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    await store.send(.markAsUnread("far")) {
      $0.log.record(.markAsUnread("far"), id: UUID(1))
      $0.log.markSending(UUID(1))
    }
    await store.receive(.changeAnswered(UUID(1), 7)) { $0.log.acknowledge(UUID(1), at: 7) }
    #expect(
      backend.sent == [
        ChangeRequest(id: UUID(0), .markAsRead("far")),
        ChangeRequest(id: UUID(1), .markAsUnread("far")),
      ])
    #expect(store.state.shown.elements == Self.page.items)
    await Ported.leave(store)
  }

  /// An id the server does not know: it refuses the change, which leaves, and the error is
  /// shown; nothing shown changes.
  @Test func anUnknownIDIsTheServersNotFoundAndChangesNothing() async {
    let (store, _) = await Ported.launched(listing: Self.page, answers: [.failure(.notFound)])
    await store.send(.markAsRead("nope")) {
      $0.log.record(.markAsRead("nope"), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeFailed(UUID(0), .notFound)) {
      _ = $0.log.fail(UUID(0), with: .notFound, at: Ported.start)
      $0.error = .notFound
    }
    await store.receive(.delegate(.errorOccurred(.notFound)))
    #expect(store.state.log.isEmpty)
    #expect(store.state.shown.elements == Self.page.items)
    await Ported.leave(store)
  }

  /// A deletion of a notification not held is sent; a later page the server made before it
  /// does not list the notification.
  @Test func deletingANotificationNotHeldIsSentAndALaterPageMadeBeforeDoesNotListIt() async {
    let backend = Ported.Backend(pages: [Self.page, Self.second], answers: [.at(6)])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.delete("far")) {
      $0.log.record(.delete("far"), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    // The answer is the server's word at 6: "far" is deleted there (rule 2 keeps older copies
    // out), and the record, reflected, leaves.
    await store.receive(.changeAnswered(UUID(0), 6)) {
      $0.log.acknowledge(UUID(0), at: 6)
      $0.server.remove("far", at: 6)
      Ported.forgetSeen(&$0, reflectedIn: ["far"])
    }
    #expect(backend.sentIntents == [.delete("far")])
    // Made at 5, before the deletion reached the server.
    await loadTheSecondPage(store, showsFar: false)
    #expect(store.state.shown.ids == ["n1", "n2", "n3"])
    await Ported.leave(store)
  }

  /// A deletion of a notification not held that the server refuses leaves, with the error: a
  /// later page lists the notification.
  @Test func aRefusedDeletionOfANotificationNotHeldLeavesAndALaterPageListsIt() async {
    let backend = Ported.Backend(
      pages: [Self.page, Self.second], answers: [.failure(.server(status: 403))])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: Self.page)
    await store.send(.delete("far")) {
      $0.log.record(.delete("far"), id: UUID(0))
      $0.log.markSending(UUID(0))
    }
    await store.receive(.changeFailed(UUID(0), .server(status: 403))) {
      _ = $0.log.fail(UUID(0), with: .server(status: 403), at: Ported.start)
      $0.error = .server(status: 403)
    }
    await store.receive(.delegate(.errorOccurred(.server(status: 403))))
    await loadTheSecondPage(store, showsFar: true)
    await store.receive(.delegate(.unreadCountChanged(3)))
    await Ported.leave(store)
  }
}
