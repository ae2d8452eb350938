import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What outlives the app: the person's changes on their way, the pushes the server has not
/// listed, the local notices and the filter, saved by one launch and restored by the next (a
/// new store over the same saved rows and settings). Ported from `OutboxLifetimeTests`,
/// `OutboxTests` and `SavedPushesTests`.
@MainActor
struct NotificationFeatureRelaunchTests {
  typealias Feature = NotificationFeature

  init() {}

  static let n1 = Ported.notification("n1", version: 2, minutesAgo: 1)
  static let n2 = Ported.notification("n2", version: 2, minutesAgo: 2)
  static let page = NotificationPage(items: [n1, n2], changeCursor: 5)
  static let empty = NotificationPage(items: [], changeCursor: 5)
  static let p1Payload = Ported.pushPayload("p1", minutesAgo: 10)
  static let p1 = Ported.parsed(p1Payload)

  /// A launch over `rows` and `settings` that has read them and listed its first page; not
  /// exhaustive: the tests state what the person sees and what the server got.
  func launch(
    _ backend: Ported.Backend, rows: ChangeLogStore, settings: SettingsClient = .inMemory()
  ) async -> Ported.Store {
    let store = Ported.makeStore(backend: backend, saved: rows, settings: settings)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(where: { if case .pageLoaded(_, first: true) = $0 { true } else { false } })
    return store
  }

  /// The app is killed, or leaves: what it did is saved, nothing more happens.
  func end(_ store: Ported.Store) async {
    await store.send(.onDisappear) { $0.connection = .offline }
    await store.skipInFlightEffects()
    await store.skipReceivedActions(strict: false)
  }

  /// Old lifetime test (11 of 200 seeds): a change still waiting for an older one's answer
  /// when the app is killed is saved, and the next launch sends both, in order, with their
  /// ids.
  @Test func aChangeWaitingWhenTheAppIsKilledIsSentByTheNextLaunchInOrder() async throws {
    let rows = ChangeLogStore.inMemory()
    let held = TestContinuation<ChangeCursor?>()
    let first = Ported.makeStore(
      backend: Ported.Backend(pages: [Self.page], answers: [.held(held)]), saved: rows)
    await Ported.launch(first, listing: Self.page)
    await first.send(.markAsRead("n1")) {
      $0.log.record(.markAsRead("n1"), id: UUID(0))
      $0.log.markSending(UUID(0))
      $0.shown[id: "n1"]?.isRead = true
    }
    await first.receive(.delegate(.unreadCountChanged(1)))
    await first.send(.markAsUnread("n1")) {
      $0.log.record(.markAsUnread("n1"), id: UUID(1))
      $0.shown[id: "n1"]?.isRead = false
    }
    await first.receive(.delegate(.unreadCountChanged(2)))
    // Killed here, the read still in flight.
    await end(first)
    let saved = try await rows.load()
    #expect(saved.records.map(\.intent) == [.markAsRead("n1"), .markAsUnread("n1")])

    let backend = Ported.Backend(pages: [Self.page], answers: [.at(6), .at(7)])
    let second = await launch(backend, rows: rows)
    await second.receive(.changeAnswered(UUID(1), 7))
    #expect(
      backend.sent == [
        ChangeRequest(id: UUID(0), .markAsRead("n1")),
        ChangeRequest(id: UUID(1), .markAsUnread("n1")),
      ])
    #expect(second.state.shown[id: "n1"]?.isRead == false)
    await end(second)
  }

  /// A change saved by an earlier launch is shown over the server's first page, and, refused
  /// for good, leaves: the server's copy is shown with the error, and the saved row goes.
  @Test func aSavedChangeRefusedAfterARelaunchShowsTheServersCopyWithTheError() async throws {
    var saved = ChangeLog()
    saved.record(.markAsRead("n1"), id: UUID(100))
    saved.markSending(UUID(100))
    _ = saved.fail(UUID(100), with: .network, at: Ported.start)
    let rows = ChangeLogStore.inMemory(saved)
    let refusal = TestContinuation<ChangeCursor?>()
    let backend = Ported.Backend(pages: [Self.page], answers: [.held(refusal)])
    let store = await launch(backend, rows: rows)
    #expect(store.state.shown[id: "n1"]?.isRead == true)
    refusal.resume(throwing: UserFacingError.server(status: 400))
    await store.receive(.changeFailed(UUID(100), .server(status: 400)))
    #expect(store.state.shown[id: "n1"]?.isRead == false)
    #expect(store.state.error == .server(status: 400))
    #expect(backend.sent == [ChangeRequest(id: UUID(100), .markAsRead("n1"))])
    await end(store)
    #expect(try await rows.load().records.isEmpty)
  }

  /// The filter and unread-only choice the person made are there after a relaunch.
  @Test func theFilterPickedIsRestoredAfterARelaunch() async {
    let settings = SettingsClient.inMemory()
    let first = await launch(
      Ported.Backend(pages: [Self.empty]), rows: .inMemory(), settings: settings)
    await first.send(.filterChanged(.type(.alert)))
    await first.send(.unreadOnlyChanged(true))
    await end(first)
    let second = await launch(
      Ported.Backend(pages: [Self.empty]), rows: .inMemory(), settings: settings)
    #expect(second.state.filter == .type(.alert))
    #expect(second.state.unreadOnly)
    await end(second)
  }

  /// A push the server has not listed, read on this device, is still listed and read after a
  /// relaunch, before and after the first page and a refresh that do not list it; nothing is
  /// sent for it.
  @Test func aPushReadBeforeARelaunchIsStillListedAndReadAfterItAndRefreshesKeepIt() async {
    let rows = ChangeLogStore.inMemory()
    let first = await launch(Ported.Backend(pages: [Self.empty]), rows: rows)
    await first.send(.pushReceived(Self.p1Payload))
    await first.send(.markAsRead("p1"))
    await first.receive(.pushLookedUp(id: "p1", nil))
    await end(first)

    let backend = Ported.Backend(pages: [Self.empty, Self.empty])
    let second = await launch(backend, rows: rows)
    #expect(second.state.shown == [Ported.read(Self.p1)])
    await second.send(.refreshRequested)
    await second.receive(.pageLoaded(Self.empty, first: true))
    #expect(second.state.shown == [Ported.read(Self.p1)])
    #expect(backend.sent.isEmpty)
    await end(second)
  }

  /// A push read before a relaunch, then listed by the server (unread): one notification,
  /// read, and the read is sent with the id the earlier launch gave it.
  @Test func aPushReadBeforeARelaunchIsOneReadNotificationOnceListedAndTheServerIsTold()
    async
  {
    let rows = ChangeLogStore.inMemory()
    let first = await launch(Ported.Backend(pages: [Self.empty]), rows: rows)
    await first.send(.pushReceived(Self.p1Payload))
    await first.send(.markAsRead("p1"))
    await first.receive(.pushLookedUp(id: "p1", nil))
    await end(first)

    var listed = Self.p1
    listed.version = 6
    let listing = NotificationPage(items: [listed], changeCursor: 6)
    let backend = Ported.Backend(pages: [listing], answers: [.at(7)])
    let second = await launch(backend, rows: rows)
    await second.receive(.changeAnswered(UUID(0), 7))
    #expect(second.state.shown == [Ported.read(listed)])
    #expect(second.state.log.unlisted.isEmpty)
    #expect(backend.sent == [ChangeRequest(id: UUID(0), .markAsRead("p1"))])
    await end(second)
  }

  /// A push deleted before the server listed it stays deleted after a relaunch, a duplicate
  /// delivery does not bring it back, and the server deletes it once it lists it.
  @Test func aPushDeletedBeforeARelaunchStaysDeletedAndIsDeletedOnTheServerOnceListed() async {
    let rows = ChangeLogStore.inMemory()
    let first = await launch(Ported.Backend(pages: [Self.empty]), rows: rows)
    await first.send(.pushReceived(Self.p1Payload))
    await first.send(.delete("p1"))
    await first.receive(.pushLookedUp(id: "p1", nil))
    #expect(first.state.shown.isEmpty)
    await end(first)

    var listed = Self.p1
    listed.version = 6
    let listing = NotificationPage(items: [listed], changeCursor: 6)
    let backend = Ported.Backend(pages: [Self.empty, listing], answers: [.at(7)])
    let second = await launch(backend, rows: rows)
    #expect(second.state.shown.isEmpty)
    await second.send(.pushReceived(Self.p1Payload))
    #expect(second.state.shown.isEmpty)
    await second.send(.refreshRequested)
    await second.receive(.changeAnswered(UUID(0), 7))
    #expect(second.state.shown.isEmpty)
    #expect(backend.sent == [ChangeRequest(id: UUID(0), .delete("p1"))])
    await end(second)
  }

  /// A local notice is kept on the device only: still listed after a relaunch and a refresh,
  /// until the person deletes it; never sent.
  @Test func aLocalNoticeIsStillListedAfterARelaunchUntilItIsDeleted() async {
    let rows = ChangeLogStore.inMemory()
    let first = await launch(Ported.Backend(pages: [Self.empty]), rows: rows)
    await first.send(.recordLocalNotice(title: "Saved", message: "Your changes were saved"))
    await end(first)

    let backend = Ported.Backend(pages: [Self.empty, Self.empty])
    let second = await launch(backend, rows: rows)
    #expect(second.state.shown.map(\.title) == ["Saved"])
    await second.send(.refreshRequested)
    await second.receive(.pageLoaded(Self.empty, first: true))
    #expect(second.state.shown.map(\.title) == ["Saved"])
    await second.send(.delete(second.state.shown.first?.id ?? ""))
    #expect(second.state.shown.isEmpty)
    await end(second)

    let third = await launch(Ported.Backend(pages: [Self.empty]), rows: rows)
    #expect(third.state.shown.isEmpty)
    #expect(backend.sent.isEmpty)
    await end(third)
  }
}
