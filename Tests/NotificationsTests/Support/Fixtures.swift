import Foundation
import Loom
import LoomTesting
import Notifications

enum Fixtures {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  static func notification(
    _ id: String, minutesAgo: Double = 0, type: NotificationType = .ping, isRead: Bool = false,
    target: NotificationTarget = .none, priority: NotificationPriority = .regular
  ) -> NotificationData {
    NotificationData(
      id: id, type: type, title: "Title \(id)", message: "Message \(id)",
      timestamp: now.addingTimeInterval(-minutesAgo * 60), isRead: isRead, target: target,
      priority: priority)
  }

  static let feed = [
    notification("n1", minutesAgo: 1, target: .ping(pingID: "p1", contactID: "c1")),
    notification("n2", minutesAgo: 2, type: .alert, target: .alert(alertID: "a1")),
    notification("n3", minutesAgo: 3, type: .system, isRead: true),
  ]
}

extension DependencyValues {
  /// Dependencies a feature test starts from: fixed time and ids, an in-memory settings store,
  /// an immediate clock and a seeded random generator.
  mutating func useFeatureDefaults() {
    date = .constant(Fixtures.now)
    uuid = .incrementing
    settingsClient = .inMemory()
    continuousClock = ImmediateClock()
    randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
  }
}

@MainActor
func makeStore(
  _ notifications: [NotificationData] = Fixtures.feed,
  _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
  makeStore(state: NotificationsFeature.State(notifications: notifications), prepare)
}

@MainActor
func makeStore(
  state: NotificationsFeature.State,
  _ prepare: @escaping (inout DependencyValues) -> Void = { _ in }
) -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
  let store = TestStore(
    initialState: state,
    reducer: { NotificationsFeature() },
    withDependencies: {
      $0.useFeatureDefaults()
      prepare(&$0)
    }
  )
  store.timeout = featureTestTimeout
  return store
}

/// The feature's effects call client closures that run off the main actor: under the thread
/// sanitizer on a loaded 2-core machine one such round trip has taken over a second. Passing
/// tests never wait this long; it only bounds how long a failing one takes to report.
let featureTestTimeout: Duration = .seconds(15)

func payload(_ json: String) -> Data { Data(json.utf8) }
