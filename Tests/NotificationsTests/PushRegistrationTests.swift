import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

@MainActor
struct PushRegistrationTests {
  @Test func aDeniedUserIsNotRegistered() async {
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.settingsClient = .inMemory()
      $0.pushClient.authorizationStatus = { .notDetermined }
      $0.pushClient.requestAuthorization = { .denied }
    }
    store.timeout = featureTestTimeout
    await store.send(.start) { $0.phase = .requestingAuthorization }
    await store.receive(.authorizationResolved(.denied)) {
      $0.phase = .denied
      $0.authorization = .denied
    }
  }

  @Test func aTokenReplacedWhileItsUploadIsInFlightEndsWithOnlyTheNewTokenOnTheBackend() async {
    let backend = LockedState<Set<String>>([])
    let firstUpload = AsyncStream<Void>.makeStream()
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.settingsClient = .inMemory()
      $0.pushClient.uploadToken = { token in
        // The first upload is answered only after the token has been replaced.
        if token == "t1" { for await _ in firstUpload.stream { break } }
        backend.withLock { _ = $0.insert(token) }
      }
      $0.pushClient.removeToken = { token in backend.withLock { _ = $0.remove(token) } }
    }
    store.timeout = featureTestTimeout
    await store.send(.tokenReceived("t1")) {
      $0.deviceToken = "t1"
      $0.call = .upload("t1")
    }
    await store.send(.tokenReceived("t2")) { $0.deviceToken = "t2" }
    firstUpload.continuation.yield()
    await store.receive(.callFinished(.upload("t1"), error: nil)) {
      $0.registeredTokens = ["t1"]
      $0.call = .upload("t2")
    }
    await store.receive(.callFinished(.upload("t2"), error: nil)) {
      $0.registeredTokens = ["t1", "t2"]
      $0.call = .remove("t1")
    }
    await store.receive(.callFinished(.remove("t1"), error: nil)) {
      $0.registeredTokens = ["t2"]
      $0.call = nil
    }
    #expect(backend.withLock { $0 } == ["t2"])
  }

  @Test func aFailingUploadIsRetriedAfterABackoffWithItsErrorVisibleUntilItSucceeds() async {
    let clock = TestClock()
    let attempts = LockedState(0)
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
      $0.settingsClient = .inMemory()
      $0.pushClient.uploadToken = { _ in
        // More failures than the five an upload used to be given.
        if attempts.withLock({
          $0 += 1; return $0
        }) <= 6 {
          throw UserFacingError.network
        }
      }
    }
    store.timeout = featureTestTimeout
    await store.send(.tokenReceived("t1")) {
      $0.deviceToken = "t1"
      $0.call = .upload("t1")
    }
    for count in 1...6 {
      await store.receive(.callFinished(.upload("t1"), error: .network)) {
        $0.call = nil
        $0.unconfirmedTokens = ["t1"]
        $0.failure = .init(error: .network, count: count)
      }
      // The backoff, at most 2^count seconds (and at most a minute), is not over before half.
      let backoff = Duration.seconds(min(60, 1 << count))
      await clock.advance(by: backoff / 2 - .milliseconds(1))
      await clock.advance(by: backoff / 2 + .milliseconds(1))
      await store.receive(.retry) { $0.call = .upload("t1") }
    }
    await store.receive(.callFinished(.upload("t1"), error: nil)) {
      $0.call = nil
      $0.failure = nil
      $0.registeredTokens = ["t1"]
      $0.unconfirmedTokens = []
    }
    #expect(attempts.withLock { $0 } == 7)
    await store.send(.tokenReceived("t1"))
  }

  @Test func aFailingRemovalIsRetriedAfterABackoff() async {
    let clock = TestClock()
    let removals = LockedState<[String]>([])
    let store = TestStore(initialState: PushRegistrationFeature.State(registeredTokens: ["old"])) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
      $0.settingsClient = .inMemory()
      $0.pushClient.uploadToken = { _ in }
      $0.pushClient.removeToken = { token in
        if removals.withLock({
          $0.append(token); return $0.count
        }) == 1 {
          throw UserFacingError.server(status: 503)
        }
      }
    }
    store.timeout = featureTestTimeout
    await store.send(.tokenReceived("new")) {
      $0.deviceToken = "new"
      $0.call = .upload("new")
    }
    await store.receive(.callFinished(.upload("new"), error: nil)) {
      $0.registeredTokens = ["old", "new"]
      $0.call = .remove("old")
    }
    // The failed removal may have reached the backend: whether it holds "old" is not known.
    await store.receive(.callFinished(.remove("old"), error: .server(status: 503))) {
      $0.call = nil
      $0.failure = .init(error: .server(status: 503))
      $0.registeredTokens = ["new"]
      $0.unconfirmedTokens = ["old"]
    }
    await clock.advance(by: .seconds(2))
    await store.receive(.retry) { $0.call = .remove("old") }
    await store.receive(.callFinished(.remove("old"), error: nil)) {
      $0.unconfirmedTokens = []
      $0.call = nil
      $0.failure = nil
    }
    #expect(removals.withLock { $0 } == ["old", "old"])
  }

  /// The device's token goes back to t1 while the removal of t1 is in flight; the removal
  /// reaches the backend but its answer is lost (a timeout). The backend must end holding the
  /// device's token, t1, as it does when a failed upload may have reached it.
  @Test func aFailedRemovalOfATokenWantedAgainLeavesTheBackendHoldingIt() async {
    let clock = TestClock()
    let backend = LockedState<Set<String>>(["t1", "t2"])
    let removal = AsyncStream<Void>.makeStream()
    let store = TestStore(
      initialState: PushRegistrationFeature.State(registeredTokens: ["t1", "t2"])
    ) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
      $0.settingsClient = .inMemory()
      $0.pushClient.uploadToken = { token in backend.withLock { _ = $0.insert(token) } }
      $0.pushClient.removeToken = { token in
        let first = backend.withLock { $0.remove(token) } != nil
        if token == "t1", first {
          // Removed, but the answer is lost after the token was wanted again.
          for await _ in removal.stream { break }
          throw UserFacingError.network
        }
      }
    }
    store.timeout = featureTestTimeout
    store.exhaustivity = .off
    await store.send(.tokenReceived("t2")) {
      $0.deviceToken = "t2"
      $0.call = .remove("t1")
    }
    await store.send(.tokenReceived("t1")) { $0.deviceToken = "t1" }
    removal.continuation.yield()
    await store.receive(.callFinished(.remove("t1"), error: .network))
    await clock.advance(by: .seconds(60))
    await store.receive(.retry)
    // Whether the backend still holds t1 is not known: it is uploaded again, then t2 removed.
    await store.receive(.callFinished(.upload("t1"), error: nil))
    await store.receive(.callFinished(.remove("t2"), error: nil))
    #expect(store.state.call == nil)
    #expect(store.state.registeredTokens == ["t1"])
    #expect(backend.withLock { $0 } == ["t1"])
  }
}
