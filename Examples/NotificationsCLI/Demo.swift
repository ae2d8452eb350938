import AppShell
import Foundation
import Loom
import NotificationClients
import NotificationFeature

/// A scripted session on a fresh temporary inbox that prints each action and the state change
/// it caused: the list, a push arriving, a tap navigating, mark-all-read, a failing backend
/// rolling an optimistic change back, the outbox retrying a change after a network error, and
/// a relaunch that still lists the push (the feature saved it; the inbox never had it).
@MainActor
func runDemo(renderer: Renderer) async throws(CLIError) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-demo-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.json"))
  let now = Date()
  do {
    try inbox.insert(SampleData.notifications(count: 5, now: now))
  } catch {
    throw .failed("\(error)")
  }

  // The backend fails on demand, to show a rollback and the outbox.
  let faults = LockedState<[UserFacingError]>([])
  var client = inbox.notificationClient
  let base = client
  @Sendable nonisolated func nextFault() -> UserFacingError? { faults.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
  client.markAsUnread = { id in
    if let fault = nextFault() { throw fault }
    try await base.markAsUnread(id)
  }
  client.delete = { id in
    if let fault = nextFault() { throw fault }
    try await base.delete(id)
  }

  let session = Session(inbox: inbox, client: client, trace: true, output: { print($0) })
  func step(_ title: String) { print("\n── \(title) " + String(repeating: "─", count: max(0, 60 - title.count))) }

  step("Load the inbox")
  try await session.load()
  print(renderer.table(session.feature.filteredNotifications))

  step("A push arrives in the foreground: the shell shows a banner")
  await session.send(.foregroundChanged(true))
  let push = #"{"aps":{"alert":{"title":"Ping from Grace","body":"Are you there?"},"interruption-level":"time-sensitive"},"id":"push-1","type":"ping","pingId":"p9","contactId":"c1"}"#
  await session.send(.pushReceived(Data(push.utf8)))
  print("→ banner: \(session.store.state.currentBanner.map(renderer.banner) ?? "none")")
  await session.store.send(.bannerDismissed).finish()
  await session.send(.foregroundChanged(false))

  step("Tap it: the shell navigates")
  await session.send(.notificationTapped("push-1"))
  let app = session.store.state
  print("→ \(app.selectedTab.rawValue) tab, contact \(app.selectedContactID ?? "-"), ping \(app.selectedPingID ?? "-")")

  step("Mark all read")
  await session.send(.markAllAsRead)
  print("→ \(session.feature.unreadCount) unread")

  guard let first = session.feature.notifications.first(where: { !$0.isLocal && $0.id != "push-1" })
  else { throw .failed("The demo inbox is empty.") }

  step("A failing backend rolls an optimistic change back")
  faults.withLock { $0 = [.server(status: 400)] }
  await session.send(.markAsUnread(first.id))
  print("→ error shown: \(session.store.state.error?.message ?? "none"); \(first.id) is read again: \(session.feature.notifications[id: first.id]?.isRead == true)")
  await session.send(.dismissError)

  step("A network error: the change waits in the outbox and is retried")
  faults.withLock { $0 = [.network] }
  await session.send(.delete(first.id))
  print("→ outbox: \(session.feature.sync.outbox.count) waiting; \(first.id) gone: \(session.feature.notifications[id: first.id] == nil)")

  step("Relaunch: the push the inbox has not listed is still there")
  let relaunched = Session(inbox: inbox, client: client, trace: true, output: { print($0) })
  try await relaunched.load()
  print(renderer.table(relaunched.feature.filteredNotifications))
  print("\(relaunched.feature.unreadCount) unread")
  let kept = relaunched.feature.notifications[id: "push-1"]
  print("→ push-1 listed: \(kept != nil), read: \(kept?.isRead == true)")
}
