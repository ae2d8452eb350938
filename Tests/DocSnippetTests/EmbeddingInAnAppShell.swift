// The snippets of Docs/EmbeddingInAnAppShell.md. The shell's manifest and `main.swift` are in
// GuidePackageFiles.swift; GuidePackageTests builds and runs the guide's package.

// snippet: shell-feature
import Foundation
import Loom
import NotificationClients
import Notifications
// snippet: hide
import AppShell
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif
// snippet: show

/// Marks notification `id` read in `inbox` and returns the lines to print: the feed, or the
/// error the feature reports.
@MainActor
func markAsRead(_ id: String, in inbox: LocalInbox) async -> [String] {
  let store = Store(initialState: NotificationFeature.State()) {
    NotificationFeature()
  } withDependencies: {
    $0.notificationClient = inbox.notificationClient
    $0.settingsClient = inbox.settingsClient
    $0.changeLogStore = inbox.changeLogStore(scope: "local")
  }
  // The launch reads what earlier runs saved, then loads the first page.
  store.send(.onAppear)
  for await state in store.states where state.launch == .ready && !state.paging.isLoading {
    break
  }
  // A command does not follow the live updates the first page opened.
  store.send(.onDisappear)
  await store.send(.markAsRead(id)).finish()
  if let error = store.state.error { return ["error: \(error.message)"] }
  return store.state.filteredNotifications.map { "\($0.isRead ? " " : "•") \($0.title)" }
}
// snippet: end

@MainActor
@Test func theCommandLineShellMarksANotificationRead() async throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-doc-snippets-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.json"))
  try inbox.insert(feed)

  #expect(await markAsRead("n1", in: inbox) == ["  Ping from Ada", "• Battery low"])
  #expect(await markAsRead("nope", in: inbox) == ["error: \(UserFacingError.notFound.message)"])
}

// snippet: swiftui-shell
struct NotificationsView: View {
  let store: StoreOf<AppShell.AppFeature>

  var body: some View {
    List(store.notifications.filteredNotifications) { notification in
      Button(notification.title) {
        store.send(.notifications(.notificationTapped(notification.id)))
      }
      .badge(notification.isRead ? 0 : 1)
    }
    .onAppear { store.send(.notifications(.onAppear)) }
    .onDisappear { store.send(.notifications(.onDisappear)) }
    .sheet(isPresented: Binding(
      get: { store.preferencesSheet != nil },
      set: { if !$0 { store.send(.preferencesSheet(.dismiss)) } })) {
      PreferencesView(
        store: store.scope(state: \.notifications, action: .notifications)
          .scope(state: \.preferences, action: .preferences))
    }
  }
}
// snippet: end

struct PreferencesView: View {
  let store: Store<NotificationPreferencesFeature.State, NotificationPreferencesFeature.Action>

  var body: some View {
    Text(store.state.muted.isEmpty ? "Every type shows banners" : "Some types are muted")
  }
}
