import Foundation
import Loom
import NotificationClients
import Notifications

/// W8: a notification center with N = 1,000, 10,000 and 100,000 notifications (all unread, the
/// seven known types in turn) receives 10,000 `markAsRead` actions (optimistic update plus a
/// client effect on an in-memory backend, every effect awaited) and 100 filter changes.
///
/// Every `markAsRead` marks a different unread notification read, so each one is a real
/// change: the ids run through the first min(N, 10,000) notifications, and when N is smaller
/// than the number of actions they are sent in rounds of N, each round on a fresh store (built
/// outside the timing). A filter change sends `.filterChanged` (cycling through `.all` and the
/// seven types), reads what a list shows first (the count and the first 50 rows) and awaits the
/// effect that saves the filter. `--quick` divides N and both action counts by 10.
@MainActor
func runW8(scale: Int) async {
  for size in [1_000, 10_000, 100_000] {
    await runW8(count: size / scale, actions: 10_000 / scale, filterChanges: 100 / scale)
  }
}

@MainActor
private func runW8(count: Int, actions: Int, filterChanges: Int) async {
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  let seed = (0..<count).map { index in
    NotificationData(
      id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "Title \(index)",
      message: "Message \(index)", timestamp: start.addingTimeInterval(-Double(index)))
  }
  let ids = (0..<min(count, actions)).map { "n\($0)" }
  let filters: [NotificationFilter] = [.all] + NotificationType.knownCases.map { .type($0) }
  @MainActor func makeStore() -> Store<NotificationsFeature.State, NotificationsFeature.Action> {
    let backend = InMemoryNotificationBackend(seed: seed)
    return Store(initialState: NotificationsFeature.State(notifications: seed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.notificationClient = backend.client
      $0.settingsClient = .inMemory()
    }
  }
  var markTimes: [Duration] = []
  var filterTimes: [Duration] = []
  // One warm-up run, then five measured.
  for _ in 0..<6 {
    var marking = Duration.zero
    var store = makeStore()
    var sent = 0
    while sent < actions {
      if sent > 0 { store = makeStore() }
      let round = ids.prefix(actions - sent)
      let began = ContinuousClock.now
      var tasks: [StoreTask] = []
      tasks.reserveCapacity(round.count)
      for id in round { tasks.append(store.send(.markAsRead(id))) }
      for task in tasks { await task.finish() }
      marking += ContinuousClock.now - began
      sent += round.count
      if store.state.unreadCount != count - round.count {
        FileHandle.standardError.write(Data("W8: \(store.state.unreadCount) unread\n".utf8))
      }
    }
    markTimes.append(marking)

    var tasks: [StoreTask] = []
    tasks.reserveCapacity(filterChanges)
    let filterBegan = ContinuousClock.now
    for index in 0..<filterChanges {
      tasks.append(store.send(.filterChanged(filters[index % filters.count])))
      let shown = store.state.filteredNotifications
      blackHole(shown.count)
      for notification in shown.prefix(50) { blackHole(notification.id) }
    }
    for task in tasks { await task.finish() }
    filterTimes.append(ContinuousClock.now - filterBegan)
  }
  func middle(_ values: [Duration]) -> Duration {
    let measured = values.dropFirst().sorted()
    return measured[measured.count / 2]
  }
  let perAction = middle(markTimes).nanoseconds / Double(actions) / 1_000
  let perChange = middle(filterTimes).nanoseconds / Double(max(filterChanges, 1)) / 1_000
  report("W8", "notifications mark-as-read n=\(count)", perAction, "µs/action")
  report("W8", "notifications filter-change n=\(count)", perChange, "µs/change")
}
