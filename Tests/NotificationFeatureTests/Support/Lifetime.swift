import Foundation
import Loom
import NotificationClients
import NotificationFeature
import Testing

/// One app lifetime for ``LifetimeModelTests``: a store (rebuilt at each relaunch) on an
/// in-memory backend behind a ``LifetimeNetwork``, a settings client shared by every launch, the
/// reference model, and the trace of what happened.
@MainActor
final class Lifetime {
  typealias Feature = NotificationsFeature

  /// One generator over every launch: a local notice saved by one launch keeps its id, and the
  /// next launch's notices get new ones.
  let uuids = UUIDGenerator.incrementing
  let seed: UInt64
  let tracing: Bool
  var random: SeededRandomNumberGenerator
  static let start = Date(timeIntervalSince1970: 1_700_000_000)
  var start: Date { Self.start }
  let clock: TestClock
  let backend: InMemoryNotificationBackend
  let network: LifetimeNetwork
  /// One settings store for every launch, as the device keeps it.
  let settings: SettingsClient
  var store: Store<Feature.State, Feature.Action>
  var model = LifetimeReferenceModel()
  /// The errors the feature reported (`delegate(.errorOccurred)`), over every launch.
  let reportedErrors: LockedState<Int>
  /// The last actions the store processed, for the trace.
  let actions: LockedState<[String]>
  var trace: [String] = []
  var step = 0
  var failed = false
  var nextID = 0
  var faults = "none"
  /// Whether the person cleared all since everything last converged: the clear-all may be
  /// queued in the outbox.
  var clearAllMayBeQueued = false
  /// The notifications the person changed since effects last settled: their calls may not
  /// have started yet.
  var touchedSinceSettle: Set<String> = []

  init(seed: UInt64, tracing: Bool) {
    self.seed = seed
    self.tracing = tracing
    self.random = SeededRandomNumberGenerator(seed: seed)
    let clock = TestClock()
    let settings = SettingsClient.inMemory()
    let reportedErrors = LockedState(0)
    let actions = LockedState<[String]>([])
    self.clock = clock
    self.settings = settings
    self.reportedErrors = reportedErrors
    self.actions = actions
    let types = NotificationType.knownCases
    let start = Self.start
    var seedFeed: [NotificationData] = []
    for index in 0..<70 {
      let target: NotificationTarget =
        index % 4 == 0 ? .contact(contactID: "c\(index % 3)") : .none
      let timestamp = start.addingTimeInterval(-Double(index) * 60)
      seedFeed.append(
        NotificationData(
          id: "n\(index)", type: types[index % types.count], title: "T\(index)", message: "",
          timestamp: timestamp, isRead: index % 3 == 0, target: target))
    }
    let backend = InMemoryNotificationBackend(seed: seedFeed, randomSeed: seed)
    let network = LifetimeNetwork(backend: backend, clock: clock, seed: seed)
    self.backend = backend
    self.network = network
    store = Self.makeStore(
      network: network, settings: settings, clock: clock, start: start, seed: seed,
      uuids: uuids, reportedErrors: reportedErrors, actions: actions)
  }

  /// A store as a launch makes it: empty, with the shared settings and backend.
  func makeStore() -> Store<Feature.State, Feature.Action> {
    Self.makeStore(
      network: network, settings: settings, clock: clock, start: start, seed: seed,
      uuids: uuids, reportedErrors: reportedErrors, actions: actions)
  }

  static func makeStore(
    network: LifetimeNetwork, settings: SettingsClient, clock: TestClock, start: Date,
    seed: UInt64, uuids: UUIDGenerator, reportedErrors: LockedState<Int>, actions: LockedState<[String]>
  ) -> Store<Feature.State, Feature.Action> {
    Store(initialState: Feature.State()) {
      Feature()
      Reduce { _, action in
        let line = "\(action)"
        actions.withLock {
          $0.append(String(line.prefix(160)))
          if $0.count > 40 { $0.removeFirst($0.count - 40) }
        }
        if case .delegate(.errorOccurred) = action { reportedErrors.withLock { $0 += 1 } }
        return .none
      }
    } withDependencies: {
      $0.notificationClient = network.client
      $0.settingsClient = settings
      $0.pushClient = .unavailable
      $0.continuousClock = clock
      $0.uuid = uuids
      $0.date = .constant(start)
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: seed))
    }
  }

  // MARK: Living

  func live(steps: Int) async {
    store.send(.onAppear)
    await settle()
    await letTimePass(.seconds(1))
    check()
    while step < steps, !failed {
      step += 1
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        await act()
        if failed { return }
      }
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<3: await settle()
      case 3..<8: await letTimePass(.milliseconds(Int.random(in: 0...1_500, using: &random)))
      case 8: await letTimePass(.seconds(Int.random(in: 5...70, using: &random)))
      default: await settle()
      }
      check()
      if step % 30 == 0, !failed { await converge() }
    }
    if !failed { await converge() }
    store.cancelAll()
  }

  /// Lets every effect that can run without the clock run: yields on the main actor until a
  /// few rounds pass with no change to the state and no call inside the backend.
  func settle() async {
    var quietRounds = 0
    var last = store.state
    for _ in 0..<4_000 {
      for _ in 0..<10 { await Task.yield() }
      let state = store.state
      if network.callsInBackend == 0, state == last {
        quietRounds += 1
        if quietRounds >= 3 {
          touchedSinceSettle = []
          return
        }
      } else {
        quietRounds = 0
        last = state
        // A call inside the backend, or a settings write, runs off the main actor.
        try? await Task.sleep(for: .microseconds(50))
      }
    }
  }

  func letTimePass(_ duration: Duration) async {
    await settle()
    await clock.advance(by: duration)
    await settle()
  }

  func record(_ line: String) {
    trace.append("step \(step): \(line)")
    if tracing {
      let state = store.state
      print(
        "TRACE step \(step): \(line) | listed \(state.notifications.count), unread "
          + "\(state.unreadCount), \(state.connection), error \(String(describing: state.error))")
    }
  }

  /// Fails the test once, naming the seed, the step and the steps before it.
  func fail(_ problems: [String]) {
    guard !failed else { return }
    failed = true
    let lastSteps = trace.suffix(25).joined(separator: "\n  ")
    let lastActions = actions.withLock { $0.suffix(25) }.joined(separator: "\n  ")
    Issue.record(
      """
      Lifetime seed \(seed), step \(step): \(problems.joined(separator: "; "))
      Replay: LOOM_MODEL_TRACE=\(seed) swift test --filter LifetimeModelTests
      Last steps:
        \(lastSteps)
      Last actions:
        \(lastActions)
      """)
  }

  /// Checks the list against the model.
  func check() {
    model.errors = reportedErrors.withLock { $0 }
    let problems = model.problems(with: store.state.notifications)
    if !problems.isEmpty { fail(problems) }
  }
}
