import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications
import Testing

/// Lifetimes over the local inbox, the SQLite backend the CLI and the example server use:
/// launched, ended and launched again on one inbox file.
@MainActor
struct NotificationFeatureLocalInboxTests {
  /// The person clears all; after a relaunch the push of a cleared notification is delivered
  /// again (a push service may). Its look-up answers that it was deleted, so it is not shown,
  /// then or after the next relaunch. (The inbox answered "not found": a clear-all logged no
  /// deletion per notification, and the push was kept as one the server had not listed yet.)
  @Test func aClearedNotificationsPushDeliveredAgainAfterARelaunchIsNotShown() async throws {
    try await redeliveryAfterARelaunch(of: .clearAll)
  }

  /// The same after a delete.
  @Test func aDeletedNotificationsPushDeliveredAgainAfterARelaunchIsNotShown() async throws {
    try await redeliveryAfterARelaunch(of: .delete("n1"))
  }

  private func redeliveryAfterARelaunch(of change: NotificationFeature.Action) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-local-inbox-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.sqlite"))
    try inbox.insert([Ported.notification("n1", version: nil, minutesAgo: 1)])
    let first = await launch(inbox)
    #expect(first.state.shown.ids == ["n1"])
    await first.send(change)
    await first.receive(where: { if case .changeAnswered = $0 { true } else { false } })
    #expect(first.state.shown.isEmpty)
    await end(first)

    let second = await launch(inbox)
    #expect(second.state.shown.isEmpty)
    await second.send(.pushReceived(Ported.pushPayload("n1", minutesAgo: 1)))
    await second.receive(where: {
      switch $0 {
      case .pushLookedUp, .deletedOnServer: true
      default: false
      }
    })
    #expect(second.state.shown.isEmpty)
    #expect(second.state.log.unlisted.isEmpty)
    await end(second)

    let third = await launch(inbox)
    #expect(third.state.shown.isEmpty)
    await end(third)
  }

  /// Launched on `inbox` (its change log and its notifications), up to the first page.
  private func launch(_ inbox: LocalInbox) async -> Ported.Store {
    let store = Ported.makeStore(
      backend: Ported.Backend(pages: []), saved: inbox.changeLogStore(scope: "local"),
      client: inbox.notificationClient)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(where: { if case .pageLoaded(_, first: true) = $0 { true } else { false } })
    return store
  }

  private func end(_ store: Ported.Store) async {
    await store.send(.onDisappear)
    await store.skipInFlightEffects()
    await store.skipReceivedActions(strict: false)
  }
}
