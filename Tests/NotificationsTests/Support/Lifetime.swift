import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// One app lifetime for ``LifetimeModelTests``: a store (rebuilt at each relaunch) on an
/// in-memory backend behind a ``LifetimeNetwork``, settings shared by every launch
/// (``LifetimeSettings``), the reference model, and the trace of what happened.
///
/// Everything runs on the main actor: the store's effects, the backend's calls, the settings'
/// reads and writes, and the test's own steps. Time passes only on the test clock. So a seed
/// replays identically: ``settle()`` decides that nothing more can happen without the clock by
/// a fixed number of yields and the state of the main actor, never by the time, and the digest
/// (``LifetimeDigest``) of two runs of a seed is the same.
@MainActor
final class Lifetime {
  typealias Feature = NotificationFeature

  /// One generator over every launch: a local notice saved by one launch keeps its id, and the
  /// next launch's notices get new ones.
  let uuids = UUIDGenerator.incrementing
  let seed: UInt64
  let tracing: Bool
  var random: SeededRandomNumberGenerator
  static let start = Date(timeIntervalSince1970: 1_700_000_000)
  var start: Date { Self.start }
  let clock: TestClock
  /// The device's clock and the backend's.
  let clocks: LifetimeClocks
  let backend: InMemoryNotificationBackend
  let network: LifetimeNetwork
  /// Push registration beside the notification center, with the device's tokens.
  let tokens: LifetimeTokens
  /// One settings store for every launch, as the device keeps it.
  let settings: LifetimeSettings
  /// One saved change log for every launch, as the device keeps it.
  let changeLog: LifetimeChangeLogStore
  var store: Store<Feature.State, Feature.Action>
  var model = LifetimeReferenceModel()
  /// What the stores processed, over every launch: the errors the feature reported, the
  /// banners, the last actions, and the digest.
  let log: LifetimeLog
  var trace: [String] = []
  var step = 0
  var failed = false
  var nextID = 0
  var faults = "none"
  /// Whether the person cleared all since everything last converged: the clear-all may be
  /// waiting to be sent.
  var clearAllMayBeQueued = false
  /// The notifications the person changed since effects last settled: their calls may not
  /// have started yet.
  var touchedSinceSettle: Set<String> = []
  /// The errors the feature had reported when this launch began.
  var errorsAtLaunch = 0
  /// What the person did since everything they did was last saved or confirmed: lost if the
  /// app is killed now (see ``kill()``).
  var sinceSaved = Unsaved()
  /// Copies of the notifications the person deleted, for a late duplicate of their push.
  var deletedCopies: [String: NotificationData] = [:]

  /// What the person did that is not saved or confirmed yet.
  struct Unsaved {
    /// The notifications changed; `nil`: every one (a mark-all or a clear-all).
    var touched: Set<String>? = []
    var pushes: Set<String> = []
    var notices: Set<String> = []
    /// Whether the filter choice, or the muted types, changed.
    var filter = false
    var muted = false

    mutating func touch(_ ids: some Sequence<String>) {
      touched?.formUnion(ids)
    }
  }

  init(seed: UInt64, tracing: Bool, digesting: Bool = false) {
    self.seed = seed
    self.tracing = tracing
    self.random = SeededRandomNumberGenerator(seed: seed)
    let clock = TestClock()
    let log = LifetimeLog(digesting: digesting, tracing: tracing)
    let clocks = LifetimeClocks(start: Self.start, clock: clock)
    let settings = LifetimeSettings(clock: clock, seed: seed)
    let changeLog = LifetimeChangeLogStore(clock: clock, seed: seed)
    self.clock = clock
    self.clocks = clocks
    self.settings = settings
    self.changeLog = changeLog
    self.log = log
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
    self.tokens = LifetimeTokens(clock: clock, seed: seed)
    store = Self.makeStore(
      network: network, settings: settings.client, changeLog: changeLog.store, clocks: clocks,
      seed: seed, uuids: uuids, log: log)
  }

  /// A store as a launch makes it: empty, with the shared settings and backend.
  func makeStore() -> Store<Feature.State, Feature.Action> {
    Self.makeStore(
      network: network, settings: settings.client, changeLog: changeLog.store, clocks: clocks,
      seed: seed, uuids: uuids, log: log)
  }

  static func makeStore(
    network: LifetimeNetwork, settings: SettingsClient, changeLog: ChangeLogStore,
    clocks: LifetimeClocks, seed: UInt64, uuids: UUIDGenerator, log: LifetimeLog
  ) -> Store<Feature.State, Feature.Action> {
    Store(initialState: Feature.State()) {
      Feature()
      Reduce { _, action in
        log.processed(action)
        return .none
      }
    } withDependencies: {
      $0.notificationClient = network.client
      $0.settingsClient = settings
      $0.changeLogStore = changeLog
      $0.pushClient = .unavailable
      $0.continuousClock = clocks.clock
      $0.uuid = uuids
      $0.date = clocks.date
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: seed))
    }
  }

  // MARK: Living

  /// Lives `steps` steps (converging every 30 and at the end), and returns the digest of what
  /// happened when digesting (see ``LifetimeLog``), else `nil`.
  @discardableResult
  func live(steps: Int) async -> LifetimeDigest? {
    await launchApp()
    await letTimePass(.seconds(1))
    check()
    while step < steps, !failed {
      step += 1
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        await act()
        if failed { return nil }
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
    guard log.digesting else { return nil }
    let digest = log.digest(adding: "end: \(Self.summary(of: store.state))")
    print("DIGEST seed \(seed): \(digest.hex) (\(step) steps, \(digest.count) entries)")
    return digest
  }

  /// Yields in each round of ``settle()``.
  static let yieldsPerRound = 10
  /// Rounds in a row with nothing changed that make ``settle()`` return.
  static let quietRoundsToSettle = 3
  /// Rounds after which ``settle()`` gives up: effects that keep changing the state without
  /// the clock loop.
  static let maximumSettleRounds = 4_000

  /// Lets every effect that can run without the clock run: yields on the main actor until a
  /// few rounds of ``yieldsPerRound`` yields pass with no change to the state, no call inside
  /// the backend and no live stream's reader taking a change; then sends the live streams the
  /// backend's next change, one at a time, the same way, until none is left.
  ///
  /// Every effect, backend call and settings write runs on the main actor, in the order its jobs
  /// were enqueued. A task resumed from a continuation reaches the main actor through the global
  /// executor, when the machine lets it: here only the tasks the test clock wakes, which
  /// `TestClock.advance` waits for one at a time, and the readers of live streams, which are
  /// sent a change only from here, once nothing else can run, and waited for by their own
  /// signal (``LifetimeNetwork/isBusy``). So the same seed takes the same path on every run:
  /// nothing here reads the time or waits on another thread.
  func settle() async {
    var quietRounds = 0
    var last = store.state
    var lastRegistration = tokens.store?.state
    let gates: [any LifetimeGate] = [network, tokens]
    for _ in 0..<Self.maximumSettleRounds {
      for _ in 0..<Self.yieldsPerRound { await Task.yield() }
      let state = store.state
      let registration = tokens.store?.state
      guard network.callsInBackend == 0, !gates.contains(where: \.isBusy), state == last,
        registration == lastRegistration
      else {
        quietRounds = 0
        last = state
        lastRegistration = registration
        continue
      }
      quietRounds += 1
      guard quietRounds >= Self.quietRoundsToSettle else { continue }
      var delivered = false
      for gate in gates where !delivered { delivered = await gate.deliverNext() }
      if delivered {
        quietRounds = 0
        continue
      }
      touchedSinceSettle = []
      // Everything the person did is saved, or confirmed: a kill from now on loses none of it.
      // (Before the launch has read what was saved, nothing is written.)
      if store.state.launch == .ready, !settings.isWriting(), !changeLog.isWriting,
        network.idsInFlight?.isEmpty == true
      {
        sinceSaved = Unsaved()
      }
      return
    }
    fail([
      "effects kept changing the state for \(Self.maximumSettleRounds) rounds without the clock"
    ])
  }

  func letTimePass(_ duration: Duration) async {
    await settle()
    await clock.advance(by: duration)
    await settle()
  }

  func record(_ line: String) {
    trace.append("step \(step): \(line)")
    if log.digesting {
      _ = log.digest(adding: "step \(step): \(line) | \(Self.summary(of: store.state))")
    }
    if tracing {
      let state = store.state
      print(
        "TRACE step \(step): \(line) | server cur \(String(describing: state.server.current)) at \(String(describing: state.server.cursor)) listings \(state.server.listings.map { "\($0.cursor)" }) | listed \(state.shown.count), unread "
          + "\(state.unreadCount), \(state.connection), error \(String(describing: state.error)), "
          + "filter \(state.filter)\(state.unreadOnly ? " unread only" : ""), \(state.launch), "
          + "log \(state.log.records.map { "\($0.intent) \($0.status)" })")
    }
  }

  /// What the person sees, for the digest: the list (ids and read state, in order), the count,
  /// the connection and the error.
  static func summary(of state: Feature.State) -> String {
    "\(describe(state.shown.elements)) | unread \(state.unreadCount), "
      + "\(state.connection), error \(String(describing: state.error))"
  }

  /// Fails the test once, naming the seed, the step and the steps before it.
  func fail(_ problems: [String]) {
    guard !failed else { return }
    failed = true
    if tracing {
      let state = store.state
      print(
        "TRACE failed: log \(state.log.records.map { "\($0.id.uuidString.suffix(4)) \($0.intent) \($0.status)" })"
      )
      print(
        "TRACE failed: server cursor \(String(describing: state.server.cursor)), current \(String(describing: state.server.current)), listings \(state.server.listings)"
      )
      print("TRACE failed: unlisted \(state.log.unlisted.ids.filter { !$0.hasPrefix("local") })")
      for word in problems.joined(separator: " ").split(separator: " ") {
        let id = String(word).trimmingCharacters(in: .punctuationCharacters)
        if let copy = state.server.notifications[id: id] {
          print(
            "TRACE failed: server has \(id) read \(copy.isRead) version \(String(describing: copy.version))"
          )
        }
      }
    }
    let lastSteps = trace.suffix(25).joined(separator: "\n  ")
    let lastActions = log.recentActions.suffix(25).joined(separator: "\n  ")
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

  /// Checks the list against the model, and the banners the feature asked for against the
  /// muted types.
  func check() {
    model.errors = log.reportedErrors
    model.deletionsSeen = log.deletionsSeen
    var problems = model.problems(with: store.state.shown, restored: store.state.launch == .ready)
    problems += checkBanners()
    if !problems.isEmpty { fail(problems) }
  }

  /// The banners asked for since the last check that announce a type the person muted.
  func checkBanners() -> [String] {
    let banners = log.takeBanners()
    // A race a flag forgives may have replaced the person's choices.
    guard model.mutedIsKnown else { return [] }
    var problems: [String] = []
    for notification in banners
    where notification.priority == .regular && model.muted.contains(notification.type) {
      problems.append(
        "the push \(notification.id) was announced though the person muted \(notification.type)")
    }
    return problems
  }
}
