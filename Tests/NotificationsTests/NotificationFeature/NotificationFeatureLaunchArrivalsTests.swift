import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// What arrives while the launch reads what was saved, applied on top of it: the OS
/// authorization the person answered, and pushes delivered again, announced only when they add
/// to the list.
@MainActor
struct NotificationFeatureLaunchArrivalsTests {
  typealias Feature = NotificationFeature

  init() {}

  static let page = NotificationPage(items: [], changeCursor: 5)
  static let p1Payload = Ported.pushPayload("p1", minutesAgo: 0.5)
  static let p1 = Ported.parsed(p1Payload)

  /// The person answers the OS prompt (from the preferences) while the launch reads what was
  /// saved: the launch's read of the authorization, made before the answer, must not replace it.
  @Test func anAuthorizationAnsweredWhileTheLaunchReadsIsKept() async {
    var launching = Feature.State()
    launching.launch = .restoring()
    var push = PushClient.unavailable
    push.requestAuthorization = { .authorized }
    let store = Ported.makeStore(launching, backend: Ported.Backend(pages: [Self.page]), push: push)
    await store.send(.preferences(.requestAuthorizationTapped))
    await store.receive(.preferences(.authorizationChanged(.authorized))) {
      $0.preferences.authorization = .authorized
      $0.launch = .restoring(Feature.Arrived(authorization: .authorized))
    }
    // The launch read the authorization before the person answered.
    await store.send(.restored(Feature.Saved(log: ChangeLog(), authorization: .notDetermined))) {
      $0.log = ChangeLog().restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
      // The person's answer is newer than the launch's read.
      $0.preferences.authorization = .authorized
    }
    await store.receive(.pageLoaded(Self.page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: Self.page)
      $0.connection = .connecting
    }
    await store.receive(.updatesConnected) { $0.connection = .live }
    await Ported.leave(store)
  }

  /// A push the person deleted in an earlier launch (its deletion waits in the saved log for
  /// the server to list it) is delivered again while the launch reads the log: it is not shown
  /// once the log is read, and must not be announced.
  @Test func aPushDeletedInAnEarlierLaunchDeliveredAgainWhileTheLaunchReadsIsNotAnnounced()
    async
  {
    var saved = ChangeLog()
    saved.receive(Self.p1, at: Ported.start)
    saved.record(.delete("p1"), id: UUID(100))
    #expect(saved.records.first?.status == .awaitingListing)
    var launching = Feature.State()
    launching.launch = .restoring()
    launching.isInForeground = true
    let store = Ported.makeStore(
      launching, backend: Ported.Backend(pages: [Self.page]), saved: .inMemory(saved))
    await store.send(.pushReceived(Self.p1Payload)) {
      $0.log.receive(Self.p1, at: Ported.start)
      $0.shown = [Self.p1]
      $0.launch = .restoring(Feature.Arrived(banners: [Self.p1]))
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.restored(Feature.Saved(log: saved))) {
      $0.log = saved.restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.shown = []
    }
    await store.receive(.pageLoaded(Self.page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: Self.page)
      $0.connection = .connecting
    }
    // No banner of p1: the list does not show it.
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await Ported.leave(store)
  }

  /// A push an earlier launch kept (and announced) is delivered again while the launch reads
  /// the log: a duplicate delivery of a push the list holds is not announced again.
  @Test func aPushKeptByAnEarlierLaunchDeliveredAgainWhileTheLaunchReadsIsNotAnnouncedAgain()
    async
  {
    var saved = ChangeLog()
    saved.receive(Self.p1, at: Ported.start.addingTimeInterval(-60))
    var launching = Feature.State()
    launching.launch = .restoring()
    launching.isInForeground = true
    let store = Ported.makeStore(
      launching, backend: Ported.Backend(pages: [Self.page]), saved: .inMemory(saved))
    await store.send(.pushReceived(Self.p1Payload)) {
      $0.log.receive(Self.p1, at: Ported.start)
      $0.shown = [Self.p1]
      $0.launch = .restoring(Feature.Arrived(banners: [Self.p1]))
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.restored(Feature.Saved(log: saved))) {
      $0.log = saved.restoredForLaunch.merging(newer: $0.log)
      $0.launch = .ready
      $0.paging.isLoading = true
    }
    await store.receive(.pageLoaded(Self.page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: Self.page)
      $0.connection = .connecting
    }
    // No second banner of p1.
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await Ported.leave(store)
  }
}
