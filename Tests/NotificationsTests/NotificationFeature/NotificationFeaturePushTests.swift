import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// What a push becomes over its lifetime: kept as the person left it when delivered again or
/// listed by the server, not shown when the person deleted it, kept through a snapshot until
/// the server lists it; announced once the launch has read the muted types. Ported from
/// `PushLifetimeTests` and `RelaunchTests`.
@MainActor
struct NotificationFeaturePushTests {
  typealias Feature = NotificationFeature
  typealias Event = NotificationEvent

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let page = NotificationPage(items: [n1], changeCursor: 5)
  static let p1Payload = Ported.pushPayload("p1", minutesAgo: 0.5)
  static let p1 = Ported.parsed(p1Payload)

  /// The push of p1 arrives in the background (no banner): shown, looked up, not listed yet.
  func receiveP1(_ store: Ported.Store, count: Int) async {
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await store.send(.pushReceived(Self.p1Payload)) {
      $0.log.receive(Self.p1, at: Ported.start)
      $0.shown.insert(Self.p1, at: 0)
    }
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.delegate(.unreadCountChanged(count)))
  }

  /// A push the person read stays read when it is delivered again, and when the server lists
  /// it unread (a change older than the person's read); the read is sent once it is listed.
  @Test func aPushReadHereStaysReadWhenDeliveredAgainAndWhenListedUnread() async {
    let (store, backend) = await Ported.launched(listing: Self.page, answers: [.at(8)])
    await receiveP1(store, count: 2)
    await store.send(.markAsRead("p1")) {
      $0.log.record(.markAsRead("p1"), id: UUID(0))
      $0.shown[id: "p1"]?.isRead = true
    }
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.pushReceived(Self.p1Payload))
    #expect(store.state.shown == [Ported.read(Self.p1), Self.n1])

    var listed = Self.p1
    listed.version = 6
    let inserted = Event(.inserted(listed), cursor: 6)
    await store.send(.liveEvent(inserted)) {
      $0.server.apply(inserted)
      $0.log.serverListed(["p1"])
      $0.log.markSending(UUID(0))
      $0.shown[id: "p1"] = Ported.read(listed)
    }
    await store.receive(.changeAnswered(UUID(0), 8)) { $0.log.acknowledge(UUID(0), at: 8) }
    var updated = listed
    updated.version = 7
    let stillUnread = Event(.updated(updated), cursor: 7)
    await store.send(.liveEvent(stillUnread)) {
      $0.server.apply(stillUnread)
      $0.shown[id: "p1"] = Ported.read(updated)
    }
    #expect(backend.sentIntents == [.markAsRead("p1")])
    #expect(store.state.shown[id: "p1"]?.isRead == true)
    await Ported.leave(store)
  }

  /// The push of a notification whose deletion is on its way to the server is not shown.
  @Test func aPushOfANotificationThePersonDeletedIsNotShown() async {
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await Ported.launched(listing: Self.page, answers: [.held(answer)])
    await store.send(.delete("n1")) {
      $0.log.record(.delete("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown = []
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    await store.send(.pushReceived(Ported.pushPayload("n1", minutesAgo: 1)))
    #expect(store.state.shown.isEmpty)
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) {
      $0.log.acknowledge(UUID(0), at: 6)
      $0.server.remove("n1", at: 6)
      Ported.forgetSeen(&$0, reflectedIn: ["n1"])
    }
    await store.send(.pushReceived(Ported.pushPayload("n1", minutesAgo: 1)))
    #expect(store.state.shown.isEmpty)
    await Ported.leave(store)
  }

  /// A snapshot of the feed that does not list a push keeps it (the server has not listed it
  /// yet); once a live insert lists it, it is one notification, and the server's snapshots
  /// decide.
  @Test func aSnapshotKeepsAnUnlistedPushAndALiveInsertMakesItOne() async {
    let (store, _) = await Ported.launched(listing: Self.page)
    await receiveP1(store, count: 2)
    let first = Event(.snapshot([Self.n1]), cursor: 6)
    await store.send(.liveEvent(first)) { $0.server.apply(first) }
    #expect(store.state.shown == [Self.p1, Self.n1])
    var listed = Self.p1
    listed.version = 7
    listed.message = "From the server"
    let inserted = Event(.inserted(listed), cursor: 7)
    await store.send(.liveEvent(inserted)) {
      $0.server.apply(inserted)
      $0.log.serverListed(["p1"])
      $0.shown[id: "p1"] = listed
    }
    let second = Event(.snapshot([Self.n1]), cursor: 8)
    await store.send(.liveEvent(second)) {
      $0.server.apply(second)
      $0.shown = [Self.n1]
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await Ported.leave(store)
  }

  static let alertPayload = Ported.pushPayload("a1", minutesAgo: 2, type: .alert)
  static let alert = Ported.parsed(alertPayload)
  static let saved = Feature.Saved(log: ChangeLog(), muted: [.ping], authorization: .denied)

  /// A store reading what was saved, and two pushes meanwhile: a ping and an alert.
  func pushesWhileTheLaunchReads(_ backend: Ported.Backend) async -> Ported.Store {
    var launching = Feature.State()
    launching.launch = .restoring()
    let store = Ported.makeStore(launching, backend: backend)
    await store.send(.pushReceived(Self.p1Payload)) {
      $0.log.receive(Self.p1, at: Ported.start)
      $0.shown = [Self.p1]
      $0.launch = .restoring(Feature.Arrived(banners: [Self.p1]))
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    await store.send(.pushReceived(Self.alertPayload)) {
      $0.log.receive(Self.alert, at: Ported.start)
      $0.shown = [Self.p1, Self.alert]
      $0.launch = .restoring(Feature.Arrived(banners: [Self.p1, Self.alert]))
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    return store
  }

  /// The launch has read the muted types (`saved`): listing starts.
  func restore(_ store: Ported.Store, inForeground: Bool) async {
    await store.send(.restored(Self.saved)) {
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.preferences.muted = [.ping]
      $0.preferences.authorization = .denied
    }
    await store.receive(.pageLoaded(Self.page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: Self.page)
      $0.shown = [Self.p1, Self.n1, Self.alert]
      $0.connection = .connecting
    }
    if inForeground {
      await store.receive(.delegate(.presentBanner(Self.alert, [.banner, .sound, .badge])))
    }
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.pushLookedUp(id: "a1", nil))
    await store.receive(.updatesConnected) { $0.connection = .live }
    await store.receive(.delegate(.unreadCountChanged(3)))
  }

  /// Pushes that arrive before the launch has read the muted types wait for them: a type
  /// muted before the relaunch is not announced after it, another type is.
  @Test func aPushBeforeTheMutedTypesAreReadWaitsForThem() async {
    let store = await pushesWhileTheLaunchReads(Ported.Backend(pages: [Self.page]))
    await restore(store, inForeground: true)
    await Ported.leave(store)
  }

  /// Pushes waiting for the muted types are not announced once the app is in the background.
  @Test func pushesWaitingForTheMutedTypesAreNotAnnouncedInTheBackground() async {
    let store = await pushesWhileTheLaunchReads(Ported.Backend(pages: [Self.page]))
    await store.send(.foregroundChanged(false)) { $0.isInForeground = false }
    await restore(store, inForeground: false)
    await Ported.leave(store)
  }

  /// A push the server has not listed, deleted by the person, then a mark-all: the mark-all
  /// adds no read of the deleted push. (It did, and once the server listed the push the read
  /// went after the delete, and the server's "deleted" showed an error for a change the person
  /// never made.)
  @Test func aMarkAllAfterDeletingAnUnlistedPushSendsNoReadOfIt() async {
    let backend = InMemoryNotificationBackend(seed: [])
    let store = Ported.makeStore(backend: Ported.Backend(pages: []), client: backend.client)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(.updatesConnected)
    let payload = Ported.pushPayload("p1", minutesAgo: 1)
    await store.send(.pushReceived(payload))
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.send(.delete("p1"))
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.send(.markAllAsRead)
    await store.receive(where: { if case .changeAnswered = $0 { true } else { false } })
    let changes = store.state.log.records.map(\.intent).filter { $0 != .markAllAsRead(nil) }
    #expect(changes == [.delete("p1")])

    // The server lists the push: the delete goes out, and nothing else.
    backend.insert(Ported.parsed(payload))
    await store.receive(where: { if case .liveEvent = $0 { true } else { false } })
    await store.receive(where: { if case .changeAnswered = $0 { true } else { false } })
    await store.skipInFlightEffects()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.shown.isEmpty)
    #expect(store.state.error == nil)
    #expect(store.state.log.records.isEmpty)
    #expect(backend.notifications.isEmpty)
    await Ported.leave(store)
    await store.skipInFlightEffects()
  }
}
