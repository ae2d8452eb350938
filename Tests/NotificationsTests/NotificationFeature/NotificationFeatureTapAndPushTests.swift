import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// Taps open the notification's screen and mark it read; pushes are listed once, and announced
/// unless silent or muted (a muted type still is at high priority, except a system one).
/// Ported from `TapAndPushTests`.
@MainActor
struct NotificationFeatureTapAndPushTests {
  typealias Feature = NotificationFeature

  init() {}

  static let announced: Feature.BannerOptions = [.banner, .sound, .badge]
  static let empty = NotificationPage(items: [], changeCursor: 5)

  nonisolated static let targets: [NotificationTarget] = [
    .contact(contactID: "c2"), .alert(alertID: "a2"), .ping(pingID: "p2", contactID: "c2"),
  ]

  nonisolated static let navigations: [Feature.Action.Delegate] = [
    .navigateToContact(contactID: "c2"), .navigateToAlert(alertID: "a2"),
    .navigateToPing(pingID: "p2", contactID: "c2"),
  ]

  /// A tap on a notification of each kind of target opens that target's screen, and the
  /// notification is marked read on the server.
  @Test(arguments: zip(targets, navigations))
  func aTapOpensTheScreenOfItsTargetAndMarksItRead(
    _ target: NotificationTarget, _ navigation: Feature.Action.Delegate
  ) async {
    let tapped = Ported.notification("t1", version: 2, minutesAgo: 1, target: target)
    let answer = TestContinuation<ChangeCursor?>()
    let page = NotificationPage(items: [tapped], changeCursor: 5)
    let (store, backend) = await Ported.launched(listing: page, answers: [.held(answer)])
    await store.send(.notificationTapped("t1")) {
      $0.log.record(.markAsRead("t1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "t1"]?.isRead = true
      $0.lastTap = .navigated(id: "t1")
    }
    await store.receive(.delegate(navigation))
    await store.receive(.delegate(.unreadCountChanged(0)))
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    #expect(backend.sentIntents == [.markAsRead("t1")])
    await Ported.leave(store)
  }

  /// A notification with no target opens nothing, and says so; it is marked read all the same.
  @Test func aNotificationWithoutATargetOpensNothingAndSaysSo() async {
    let plain = Ported.notification("n1", version: 2, minutesAgo: 1)
    let answer = TestContinuation<ChangeCursor?>()
    let page = NotificationPage(items: [plain], changeCursor: 5)
    let (store, _) = await Ported.launched(listing: page, answers: [.held(answer)])
    await store.send(.notificationTapped("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
      $0.lastTap = .nothingToOpen(id: "n1")
    }
    await store.receive(.delegate(.unreadCountChanged(0)))
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    await Ported.leave(store)
  }

  /// A tapped push of a notification the list holds marks it read and opens its screen; it is
  /// not announced (the person is looking at it) and not listed twice.
  @Test func aTappedPushOfAListedNotificationMarksItReadAndOpensIt() async {
    let n2 = Ported.notification(
      "n2", version: 2, minutesAgo: 2, type: .alert, target: .alert(alertID: "a1"))
    let page = NotificationPage(items: [n2], changeCursor: 5)
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await Ported.launched(listing: page, answers: [.held(answer)])
    let tap = Ported.pushPayload(
      "n2", minutesAgo: 2, type: .alert, target: #","alertId":"a1""#)
    await store.send(.notificationResponse(tap)) {
      $0.log.record(.markAsRead("n2"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n2"]?.isRead = true
      $0.lastTap = .navigated(id: "n2")
    }
    await store.receive(.delegate(.navigateToAlert(alertID: "a1")))
    await store.receive(.delegate(.unreadCountChanged(0)))
    answer.resume(returning: 6)
    await store.receive(.changeAnswered(UUID(0), 6)) { $0.log.acknowledge(UUID(0), at: 6) }
    #expect(store.state.shown.ids == ["n2"])
    #expect(store.state.log.unlisted.isEmpty)
    await Ported.leave(store)
  }

  /// A notification loaded by id is listed once (one the list holds is not fetched), and one
  /// the person deleted is not listed again by a later load.
  @Test func aNotificationLoadedByIDIsListedOnceAndADeletedOneIsNotListedAgain() async {
    let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
    let far = Ported.notification("far", version: 1, minutesAgo: 600)
    let page = NotificationPage(items: [n1], hasMore: true, changeCursor: 5)
    let answer = TestContinuation<ChangeCursor?>()
    let (store, _) = await Ported.launched(
      listing: page, answers: [.held(answer)], byID: ["far": far])
    await store.send(.loadNotification("n1"))
    await store.send(.loadNotification("far"))
    await store.receive(.notificationLoaded(far, thenTap: false)) {
      $0.server.fetched(far)
      $0.shown.append(far)
    }
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.delete("far")) {
      $0.log.record(.delete("far"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown.remove(id: "far")
    }
    await store.receive(.delegate(.unreadCountChanged(1)))
    answer.resume(returning: 7)
    await store.receive(.changeAnswered(UUID(0), 7)) {
      $0.log.acknowledge(UUID(0), at: 7)
      $0.server.remove("far", at: 7)
      Ported.forgetSeen(&$0, reflectedIn: ["far"])
    }
    await store.send(.loadNotification("far"))
    await store.receive(.notificationLoaded(far, thenTap: false))
    #expect(store.state.shown.ids == ["n1"])
    await Ported.leave(store)
  }

  /// A push the server then lists, and a push of a notification the server lists already, are
  /// each one notification, as the server has it; the duplicate is not announced.
  @Test func aNotificationByPushAndByTheFeedIsShownOnce() async {
    let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
    let page = NotificationPage(items: [n1], changeCursor: 5)
    let p1Payload = Ported.pushPayload("p1", minutesAgo: 0.5)
    let p1 = Ported.parsed(p1Payload)
    var listedP1 = p1
    listedP1.version = 6
    let later = NotificationPage(items: [listedP1, n1], changeCursor: 6)
    let backend = Ported.Backend(pages: [page, later])
    let store = Ported.makeStore(backend: backend)
    await Ported.launch(store, listing: page)

    // n1's push: the server's copy is kept, and it is not announced (it adds nothing).
    await store.send(.pushReceived(Ported.pushPayload("n1", minutesAgo: 1)))
    #expect(store.state.shown == [n1])
    await store.send(.pushReceived(p1Payload)) {
      $0.log.receive(p1, at: Ported.start)
      $0.shown.insert(p1, at: 0)
    }
    await store.receive(.delegate(.presentBanner(p1, Self.announced)))
    // Looked up: the server does not list it yet.
    await store.receive(.pushLookedUp(id: "p1", nil))
    await store.receive(.delegate(.unreadCountChanged(2)))
    await store.send(.refreshRequested) { $0.paging.isLoading = true }
    await store.receive(.pageLoaded(later, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: later)
      $0.log.serverListed(["p1"])
      $0.shown[id: "p1"] = listedP1
    }
    #expect(store.state.shown.ids == ["p1", "n1"])
    #expect(store.state.log.isEmpty)
    await Ported.leave(store)
  }

  struct BannerCase: Sendable, CustomTestStringConvertible {
    var type: NotificationType
    var priority: NotificationPriority
    var muted: Bool
    var announced: Bool

    var testDescription: String {
      "\(priority) \(type)\(muted ? ", muted" : ""): \(announced ? "" : "not ")announced"
    }
  }

  nonisolated static let bannerCases: [BannerCase] = [
    BannerCase(type: .ping, priority: .regular, muted: false, announced: true),
    BannerCase(type: .ping, priority: .silent, muted: false, announced: false),
    BannerCase(type: .ping, priority: .regular, muted: true, announced: false),
    BannerCase(type: .ping, priority: .high, muted: true, announced: true),
    BannerCase(type: .system, priority: .high, muted: true, announced: false),
    BannerCase(type: .system, priority: .high, muted: false, announced: true),
  ]

  /// Which foreground pushes are announced: never a silent one; a muted type only at high
  /// priority, and a muted system notification never.
  @Test(arguments: bannerCases)
  func aForegroundPushIsAnnouncedUnlessSilentOrMuted(_ banner: BannerCase) async {
    let (store, _) = await Ported.launched(listing: Self.empty)
    if banner.muted {
      await store.send(.preferences(.typeToggled(banner.type, isOn: false))) {
        $0.preferences.muted = [banner.type]
      }
    }
    let pushPayload = Ported.pushPayload(
      "m1", minutesAgo: 1, type: banner.type, priority: banner.priority)
    let push = Ported.parsed(pushPayload)
    await store.send(.pushReceived(pushPayload)) {
      $0.log.receive(push, at: Ported.start)
      $0.shown = [push]
    }
    if banner.announced {
      await store.receive(.delegate(.presentBanner(push, Self.announced)))
    }
    await store.receive(.pushLookedUp(id: "m1", nil))
    let count = store.state.unreadCount
    if count > 0 { await store.receive(.delegate(.unreadCountChanged(count))) }
    await Ported.leave(store)
  }
}
