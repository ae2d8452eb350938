import Foundation
import Loom
import NotificationClients
import Notifications

/// W8, on `NotificationFeature`, the reducer being rebuilt on the change log (issue #24): the
/// same N and the same `markAsRead` actions as ``runW8(scale:)``, each recorded in the log,
/// shown, saved as a row (an in-memory change log store) and sent to an in-memory backend, every
/// effect awaited. The feature starts launched, its first page the whole seed. Reported beside
/// the shipped reducer's figure, in the same process, so the two compare.
@MainActor
func runW8ChangeLog(scale: Int) async {
  for size in [1_000, 10_000, 100_000] {
    await runW8ChangeLog(count: size / scale, actions: 10_000 / scale)
  }
}

/// The launched state W8 (change log) starts from, `count` unread notifications all shown, and a
/// maker of fresh stores on it (an in-memory backend holding the same seed, an in-memory change
/// log store). Shared with the gate's W8 (`Gate.swift`).
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
    }
  }
}

@MainActor
private func runW8ChangeLog(count: Int, actions: Int) async {
  let ids = (0..<min(count, actions)).map { "n\($0)" }
  let makeStore = w8ChangeLogFixture(count: count)
  var markTimes: [Duration] = []
  // One warm-up run, then five measured.
  for _ in 0..<6 {
    var marking = Duration.zero
    var sent = 0
    while sent < actions {
      let store = makeStore()
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
        FileHandle.standardError.write(Data("W8 change log: \(unread) unread\n".utf8))
      }
    }
    markTimes.append(marking)
  }
  let measured = markTimes.dropFirst().sorted()
  let perAction = measured[measured.count / 2].nanoseconds / Double(actions) / 1_000
  report("W8", "notification-feature (change log) mark-as-read n=\(count)", perAction, "µs/action")
}
