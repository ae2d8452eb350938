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

  @Test func aFailedUploadIsRetriedWithBackoff() async {
    let clock = TestClock()
    let attempts = LockedState(0)
    let store = TestStore(initialState: PushRegistrationFeature.State()) {
      PushRegistrationFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.settingsClient = .inMemory()
      $0.pushClient.uploadToken = { _ in
        if attempts.withLock({ $0 += 1; return $0 }) == 1 { throw UserFacingError.network }
      }
    }
    store.timeout = featureTestTimeout
    await store.send(.tokenReceived("t1")) { $0.uploading = .init(token: "t1") }
    await store.receive(.uploadFinished("t1", error: .network)) {
      $0.uploading = .init(token: "t1", failures: 1)
    }
    await clock.advance(by: .seconds(2))
    await store.receive(.retryUpload("t1"))
    await store.receive(.uploadFinished("t1", error: nil)) {
      $0.uploadedToken = "t1"
      $0.uploading = nil
    }
    await store.send(.tokenReceived("t1"))
  }
}
