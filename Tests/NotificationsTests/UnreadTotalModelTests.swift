import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// The backend's notifications: 120 unread of 130.
private let feed = PagedFeed.notifications

/// Random sequences against a backend of more than a page (see `UnreadTotalTests`).
@MainActor
struct UnreadTotalModelTests {
  /// Random changes, refreshes and later pages on an in-memory backend of 130 notifications
  /// that fails at random: whenever nothing is pending or queued, the count is the backend's
  /// unread total, and the shell was told each change of it. The seeds are the model-based
  /// test's (`LOOM_MODEL_SEEDS=200` for random ones).
  @Test(arguments: ModelBasedTests.seeds)
  func withNothingPendingTheCountIsTheBackendsTotal(seed: UInt64) async {
    var random = SeededRandomNumberGenerator(seed: seed)
    let backend = InMemoryNotificationBackend(seed: feed, randomSeed: seed)
    let errors: [UserFacingError] = [
      .network, .server(status: 503), .notFound, .server(status: 400),
    ]
    let reported = LockedState<[Int]>([])
    let store = Store(initialState: NotificationsFeature.State()) {
      NotificationsFeature()
      Reduce { _, action in
        if case .delegate(.unreadCountChanged(let count)) = action {
          reported.withLock { $0.append(count) }
        }
        return .none
      }
    } withDependencies: {
      $0.useFeatureDefaults()
      $0.notificationClient = backend.client
    }
    func backendUnread() -> Int { backend.notifications.count(where: { !$0.isRead }) }
    await store.send(.refreshRequested).finish()
    #expect(store.state.unreadCount == 120)
    var nextID = 0
    for step in 0..<200 {
      let ids = store.state.notifications.ids
      let id = ids.isEmpty ? "none" : ids[Int.random(in: 0..<ids.count, using: &random)]
      if Int.random(in: 0..<4, using: &random) == 0 {
        backend.failNext(1, with: errors[Int.random(in: 0..<errors.count, using: &random)])
      }
      let action: NotificationsFeature.Action
      switch Int.random(in: 0..<40, using: &random) {
      case 0..<10: action = .markAsRead(id)
      case 10..<16: action = .markAsUnread(id)
      case 16..<21: action = .delete(id)
      case 21: action = .markAllAsRead
      case 22: action = .clearAll
      case 23..<25: action = .recordLocalNotice(title: "Notice \(step)", message: "")
      case 25..<28: action = .refreshRequested
      case 28..<32: action = .loadMoreRequested
      case 32..<36:
        // Read on another device, loaded here or not.
        let unread = backend.notifications.filter { !$0.isRead }
        guard !unread.isEmpty else { continue }
        var read = unread[Int.random(in: 0..<unread.count, using: &random)]
        read.isRead = true
        backend.updateFaults { $0.failNext = [] }
        await markReadElsewhere(read.id, on: backend)
        action = .liveEvent(NotificationEvent(.updated(read)))
      default:
        nextID += 1
        let new = NotificationData(
          id: "new\(nextID)", type: .ping, title: "New", message: "",
          timestamp: Fixtures.now.addingTimeInterval(Double(step)))
        backend.insert(new)
        action = .liveEvent(NotificationEvent(.inserted(new)))
      }
      await store.send(action).finish()
      let state = store.state
      let message = "seed \(seed), step \(step), after \(action)"
      #expect(reported.withLock { $0.last } == state.unreadCount, "\(message)")
      // Local notices are the feature's own: one the person marked unread counts too.
      let localUnread = state.notifications.count(where: { $0.isLocal && !$0.isRead })
      if state.sync.pendingChanges.isEmpty, state.sync.outbox.isEmpty {
        #expect(state.unreadCount == backendUnread() + localUnread, "\(message)")
      }
    }
    backend.updateFaults { $0 = .init() }
    while !store.state.sync.outbox.isEmpty {
      await store.send(.sync(.retryOutbox(attempt: 0))).finish()
    }
    await store.send(.refreshRequested).finish()
    let localUnread = store.state.notifications.count(where: { $0.isLocal && !$0.isRead })
    #expect(store.state.unreadCount == backendUnread() + localUnread, "seed \(seed)")
  }

  /// Marks a notification read on the backend as another device would.
  func markReadElsewhere(_ id: String, on backend: InMemoryNotificationBackend) async {
    do {
      try await backend.client.markAsRead(id)
    } catch {
      Issue.record("marking \(id) read on the backend failed: \(error)")
    }
  }
}
