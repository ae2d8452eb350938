import Foundation
import Loom
import NotificationClients
import Notifications

/// W8: a `NotificationFeature` store with N = 1,000, 10,000 and 100,000 notifications (all
/// unread, the seven known types in turn) receives 10,000 `markAsRead` actions and 100 filter
/// changes. The feature starts launched, its first page the whole seed.
///
/// Each `markAsRead` is recorded in the change log, shown, saved as a row (an in-memory change
/// log store) and sent to an in-memory backend, every effect awaited. Every one marks a
/// different unread notification read, so each is a real change: the ids run through the first
/// min(N, 10,000) notifications, and when N is smaller than the number of actions they are sent
/// in rounds of N, each round on a fresh store (built outside the timing). A filter change sends
/// `.filterChanged` (cycling through `.all` and the seven types), reads what a list shows first
/// (the count and the first 50 rows) and awaits the effect that saves the filter (an in-memory
/// settings client). `--quick` divides N and both action counts by 10.
@MainActor
func runW8(scale: Int) async {
  for size in [1_000, 10_000, 100_000] {
    await runW8(count: size / scale, actions: 10_000 / scale, filterChanges: 100 / scale)
  }
}

/// The launched state W8 starts from, `count` unread notifications all shown, and a maker of
/// fresh stores on it (an in-memory backend holding the same seed, an in-memory change log
/// store, in-memory settings). Shared with the gate's W8 (`Gate.swift`).
@MainActor
func w8ChangeLogFixture(
  count: Int
) -> () -> Store<NotificationFeature.State, NotificationFeature.Action> {
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  let seed = (0..<count).map { index in
    NotificationData(
      id: "n\(index)", type: NotificationType.knownCases[index % 7], title: "Title \(index)",
      message: "Message \(index)", timestamp: start.addingTimeInterval(-Double(index)))
  }
  var launched = NotificationFeature.State()
  launched.launch = .ready
  // The backend's log starts at 0 (its seed is no change): the page reflects that.
  launched.server.replace(with: NotificationPage(items: seed, changeCursor: 0))
  launched.reshowAll()
  let state = launched
  return {
    let backend = InMemoryNotificationBackend(seed: seed)
    return Store(initialState: state) {
      NotificationFeature()
    } withDependencies: {
      $0.notificationClient = backend.client
      $0.changeLogStore = .inMemory()
      $0.settingsClient = .inMemory()
    }
  }
}

@MainActor
private func runW8(count: Int, actions: Int, filterChanges: Int) async {
  let ids = (0..<min(count, actions)).map { "n\($0)" }
  let filters: [NotificationFilter] = [.all] + NotificationType.knownCases.map { .type($0) }
  let makeStore = w8ChangeLogFixture(count: count)
  var markTimes: [Duration] = []
  var filterTimes: [Duration] = []
  // One warm-up run, then five measured.
  for _ in 0..<6 {
    var marking = Duration.zero
    var sent = 0
    var store = makeStore()
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
      let unread = store.state.shown.unreadCount
      if unread != count - round.count {
        FileHandle.standardError.write(Data("W8: \(unread) unread\n".utf8))
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
