import Foundation
import Loom
import NotificationClients
import NotificationFeature

/// W8: a notification center with 10,000 notifications receives 10,000 `markAsRead` actions
/// (optimistic update plus a client effect on an in-memory backend) and 100 filter changes.
@MainActor
func runW8(scale: Int) async {
  let count = 10_000 / scale
  let filterChanges = 100 / scale
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  let seed = (0..<count).map { index in
    NotificationData(
      id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "Title \(index)",
      message: "Message \(index)", timestamp: start.addingTimeInterval(-Double(index)))
  }
  var markTimes: [Duration] = []
  var filterTimes: [Duration] = []
  for _ in 0..<6 {
    let backend = InMemoryNotificationBackend(seed: seed)
    let store = Store(initialState: NotificationsFeature.State(notifications: seed)) {
      NotificationsFeature()
    } withDependencies: {
      $0.notificationClient = backend.client
      $0.settingsClient = .inMemory()
    }
    let began = ContinuousClock.now
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(count)
    for index in 0..<count { tasks.append(store.send(.markAsRead("n\(index)"))) }
    for task in tasks { await task.finish() }
    markTimes.append(ContinuousClock.now - began)
    if store.state.unreadCount != 0 {
      FileHandle.standardError.write(Data("W8: \(store.state.unreadCount) still unread\n".utf8))
    }
    let filters: [NotificationFilter] = [.all] + NotificationType.knownCases.map { .type($0) }
    let filterBegan = ContinuousClock.now
    for index in 0..<filterChanges {
      store.send(.filterChanged(filters[index % filters.count]))
      blackHole(store.state.filteredNotifications.count)
    }
    filterTimes.append(ContinuousClock.now - filterBegan)
  }
  func middle(_ values: [Duration]) -> Duration {
    let measured = values.dropFirst().sorted()
    return measured[measured.count / 2]
  }
  report("W8", "notifications mark-as-read n=\(count)", middle(markTimes).nanoseconds / Double(count) / 1_000, "µs/action")
  report("W8", "notifications filter-change", middle(filterTimes).nanoseconds / Double(max(filterChanges, 1)) / 1e6, "ms/change")
}
