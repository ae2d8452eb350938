// The snippets of Docs/EmbeddingInAnAppShell.md. The routing snippet is in
// NotificationFeature.swift, inside `AppFeature`.

import Foundation
import Loom
import NotificationClients
import NotificationFeature
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Marks notification `id` read in `inbox`, the way the `notifications` CLI does.
@MainActor
func markAsRead(_ id: String, in inbox: LocalInbox) async -> (output: [String], errors: [String]) {
  var output: [String] = []
  var errors: [String] = []
  func fail(_ message: String) { errors.append(message) }
  func render(_ notifications: some Collection<NotificationData>) -> String {
    notifications.map { "\($0.isRead ? " " : "•") \($0.title)" }.joined(separator: "\n")
  }
  func print(_ text: String) { output.append(text) }
  // snippet: command-line-shell
  let store = Store(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.notificationClient = inbox.notificationClient
    $0.settingsClient = inbox.settingsClient
  }
  await store.send(.notifications(.refreshRequested)).finish()
  await store.send(.notifications(.markAsRead(id))).finish()
  if let error = store.state.notifications.error { fail(error.message) }
  print(render(store.state.notifications.filteredNotifications))
  // snippet: end
  return (output, errors)
}

@MainActor
@Test func theCommandLineShellMarksANotificationRead() async throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-doc-snippets-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.json"))
  try inbox.insert(feed)

  let marked = await markAsRead("n1", in: inbox)
  #expect(marked.errors == [])
  #expect(marked.output == ["  Ping from Ada\n• Battery low"])

  let missing = await markAsRead("nope", in: inbox)
  #expect(missing.errors == [UserFacingError.notFound.message])
}

// snippet: swiftui-shell
struct NotificationsView: View {
  let store: Store<NotificationsFeature.State, NotificationsFeature.Action>

  var body: some View {
    List(store.state.filteredNotifications) { notification in
      Button(notification.title) { store.send(.notificationTapped(notification.id)) }
        .badge(notification.isRead ? 0 : 1)
    }
    .onAppear { store.send(.onAppear) }
    .onDisappear { store.send(.onDisappear) }
    .sheet(isPresented: Binding(
      get: { store.state.isPreferencesPresented },
      set: { store.send(.setPreferencesPresented($0)) })) {
      PreferencesView(store: store.scope(state: \.preferences, action: .preferences))
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
