import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// Drives random action sequences against an in-memory backend that fails at random (with
/// retryable and permanent errors) and checks the feature's invariants after every step: ids
/// unique, newest first, the unread count reported exactly when it changes, and the feature and
/// the backend in agreement whenever nothing is queued or in flight. At the end it drains the
/// outbox and checks that they agree.
///
/// CI runs fixed seeds. For a longer run with random seeds:
/// `LOOM_MODEL_SEEDS=200 swift test --filter ModelBasedTests`.
@MainActor
struct ModelBasedTests {
  nonisolated static var seeds: [UInt64] {
    if let count = ProcessInfo.processInfo.environment["LOOM_MODEL_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...8)
  }

  @Test(arguments: seeds)
  func theFeatureAndTheBackendAgreeAfterRandomFailures(seed: UInt64) async {
    var random = SeededRandomNumberGenerator(seed: seed)
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let targets: [NotificationTarget] = [
      .none, .contact(contactID: "c1"), .alert(alertID: "a1"), .ping(pingID: "p1", contactID: "c1"),
    ]
    let initial = (0..<20).map { index in
      NotificationData(
        id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "T\(index)",
        message: "", timestamp: start.addingTimeInterval(-Double(index) * 60),
        isRead: index % 3 == 0, target: targets[index % targets.count])
    }
    let backend = InMemoryNotificationBackend(seed: initial, randomSeed: seed)
    let errors: [UserFacingError] = [.network, .server(status: 503), .notFound, .server(status: 400)]
    let traceLog = LockedState<[String]>([])
    let tracing = ProcessInfo.processInfo.environment["LOOM_MODEL_TRACE"] == "\(seed)"
    // Every unread count the feature reports, as a shell's badge would see them.
    let reportedCounts = LockedState<[Int]>([])
    let store = Store(initialState: NotificationsFeature.State(notifications: initial)) {
      NotificationsFeature().printChanges(to: { line in
        if tracing { traceLog.withLock { $0.append(line.split(separator: "\n").prefix(2).joined(separator: " ")) } }
      })
      Reduce { _, action in
        if case .delegate(.unreadCountChanged(let count)) = action {
          reportedCounts.withLock { $0.append(count) }
        }
        return .none
      }
    } withDependencies: {
      $0.notificationClient = backend.client
      $0.settingsClient = .inMemory()
      $0.continuousClock = ImmediateClock()
      $0.uuid = .incrementing
      $0.date = .constant(start)
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: seed))
    }
    let initialUnread = store.state.unreadCount
    var nextID = 100
    for step in 0..<250 {
      let ids = store.state.notifications.ids
      let id = ids.isEmpty ? "none" : ids[Int.random(in: 0..<ids.count, using: &random)]
      if Int.random(in: 0..<4, using: &random) == 0 {
        let error = errors[Int.random(in: 0..<errors.count, using: &random)]
        backend.failNext(1, with: error)
      }
      let action: NotificationsFeature.Action
      switch Int.random(in: 0..<20, using: &random) {
      case 0..<6: action = .markAsRead(id)
      case 6..<10: action = .markAsUnread(id)
      case 10..<13: action = .delete(id)
      case 13: action = .markAllAsRead
      case 14: action = .clearAll
      case 15: action = .recordLocalNotice(title: "Notice \(step)", message: "")
      case 16:
        let entities: [NotificationsFeature.Entity] = [.contact("c1"), .alert("a1"), .ping("p1")]
        action = .markTargetRead(entities[Int.random(in: 0..<3, using: &random)])
      default:
        nextID += 1
        let new = NotificationData(
          id: "n\(nextID)", type: .ping, title: "New", message: "",
          timestamp: start.addingTimeInterval(Double(step)))
        backend.insert(new)
        action = .liveEvent(NotificationEvent(.inserted(new)))
      }
      await store.send(action).finish()
      let state = store.state
      if ProcessInfo.processInfo.environment["LOOM_MODEL_TRACE"] == "\(seed)" {
        print("TRACE step \(step) \(action) error=\(String(describing: state.error)) feature=\(state.notifications[id: id].map { "\($0.isRead)" } ?? "-") backend=\(backend.notifications.first { $0.id == id }.map { "\($0.isRead)" } ?? "-")")
      }
      let message = "seed \(seed), step \(step), after \(action)"
      #expect(Set(state.notifications.ids).count == state.notifications.count, "\(message)")
      #expect(
        state.notifications.elements
          == state.notifications.elements.sorted(by: NotificationData.isOrderedBefore),
        "\(message)")
      #expect(
        state.unreadCount == state.notifications.filter { !$0.isRead }.count, "\(message)")
      // The count is reported exactly when it changes, so the last report is the count now.
      let counts = [initialUnread] + reportedCounts.withLock { $0 }
      #expect(counts.last == state.unreadCount, "\(message)")
      #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 != $1 }, "\(message)")
      // With nothing queued or in flight, the feature and the backend agree after every step.
      if state.sync.outbox.isEmpty, state.sync.pendingChanges.isEmpty,
        state.notifications.filter({ !$0.isLocal }).map(Snapshot.init)
          != backend.notifications.map(Snapshot.init)
      {
        Issue.record(
          "\(message): the feature and the backend disagree; outbox \(state.sync.outbox)")
        for line in traceLog.withLock({ $0.suffix(12) }) { print("  ACTION \(line)") }
        return
      }
    }
    // Drain the outbox with the faults off, then compare with the backend.
    backend.updateFaults { $0 = .init() }
    while !store.state.sync.outbox.isEmpty {
      await store.send(.sync(.retryOutbox(attempt: 0))).finish()
    }
    #expect(store.state.sync.pendingChanges.isEmpty, "seed \(seed)")
    #expect(
      store.state.notifications.filter { !$0.isLocal }.map(Snapshot.init)
        == backend.notifications.map(Snapshot.init),
      "seed \(seed): the feature and the backend disagree")
  }

  struct Snapshot: Equatable {
    let id: String
    let isRead: Bool
    init(_ notification: NotificationData) {
      id = notification.id
      isRead = notification.isRead
    }
  }
}
