import Foundation
import Loom
import Notifications

/// Push registration beside the notification center, for the lifetime model-based test: the
/// operating system hands each launch its device token (and a new one when it changes), and
/// ``PushRegistrationFeature`` uploads it to a token backend, removing the one it replaces, on
/// a network with the lifetime's latency and failures. Once everything has drained, the backend
/// holds exactly the current token.
///
/// Everything runs on the main actor, and the tokens reach the feature through a
/// ``GatedStream``, so a seed replays identically.
@MainActor
final class LifetimeTokens: LifetimeGate {
  typealias Feature = PushRegistrationFeature

  let clock: TestClock
  private var random: SeededRandomNumberGenerator
  /// The tokens the backend holds: uploaded and not removed.
  private(set) var registered: Set<String> = []
  /// The token the operating system gave last.
  private(set) var current: String?
  private var issued = 0
  /// The chance that an upload or a removal fails, for now.
  var failureRate = 0.0
  /// The stream of tokens the current launch reads, and the tokens it has not been handed.
  private var stream: GatedStream<String>?
  private var undelivered: [String] = []
  private(set) var store: Store<Feature.State, Feature.Action>?

  init(clock: TestClock, seed: UInt64) {
    self.clock = clock
    self.random = SeededRandomNumberGenerator(seed: seed &+ 0x70CE_2025)
    issueNewToken()
  }

  /// The operating system's push client: authorized, and the tokens as the test hands them.
  var client: PushClient {
    PushClient(
      authorizationStatus: { .authorized },
      requestAuthorization: { .authorized },
      register: {},
      // `PushRegistrationFeature` calls it from a `.run` effect, whose operation is `@MainActor`
      // (`Effect.run`): on the main actor, as `assumeIsolated` checks (it traps otherwise).
      deviceTokens: { MainActor.assumeIsolated { self.openStream() } },
      responses: { AsyncStream { $0.finish() } },
      uploadToken: { @MainActor token in
        try await self.call { _ = self.registered.insert(token) }
      },
      removeToken: { @MainActor token in
        try await self.call { _ = self.registered.remove(token) }
      })
  }

  /// Starts the registration of a launch, with the settings every launch shares.
  func launch(settings: SettingsClient) {
    let client = client
    let clock = clock
    let random = WithRandomNumberGenerator(
      SeededRandomNumberGenerator(seed: self.random.next()))
    let store = Store(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.pushClient = client
      $0.settingsClient = settings
      $0.continuousClock = clock
      $0.randomNumberGenerator = random
    }
    self.store = store
    store.send(.start)
  }

  /// Stops the launch's registration where it is.
  func stop() {
    store?.cancelAll()
    stream?.close()
    stream = nil
  }

  /// The operating system replaces the device token.
  func issueNewToken() {
    issued += 1
    let token = "token\(issued)"
    current = token
    undelivered.append(token)
  }

  /// What is wrong with the backend's tokens, once everything has drained.
  var problems: [String] {
    guard let current, registered != [current] else { return [] }
    let state = store.map { String(describing: $0.state) } ?? "none"
    return [
      "the token backend holds \(registered.sorted()); the current token is \(current); "
        + "the registration: \(state)"
    ]
  }

  // MARK: LifetimeGate

  var isBusy: Bool { stream?.isBusy ?? false }

  func deliverNext() async -> Bool {
    guard let stream, stream.isWaiting, !undelivered.isEmpty else { return false }
    stream.deliver(undelivered.removeFirst())
    return true
  }

  // MARK: The device and the backend

  /// The stream of device tokens a registration reads: it starts with the current token, as
  /// the operating system gives it at every registration.
  private func openStream() -> AsyncStream<String> {
    stream?.close()
    let stream = GatedStream<String>()
    self.stream = stream
    undelivered = current.map { [$0] } ?? []
    return stream.stream()
  }

  /// A call to the token backend: it waits a random time on the clock, and may fail.
  private func call(_ body: () -> Void) async throws {
    try await clock.sleep(for: .milliseconds(Int.random(in: 0...400, using: &random)))
    if failureRate > 0, Double.random(in: 0..<1, using: &random) < failureRate {
      throw UserFacingError.network
    }
    body()
  }
}
