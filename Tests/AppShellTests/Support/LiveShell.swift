import AppShell
import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// A fresh folder per test, removed afterwards.
struct TemporaryFolder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-shell-\(UUID().uuidString)")

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The shell as an app runs it: a store over `backend`'s live clients, launched, with its
/// notifications list shown. Its effects run for real; a test waits for the states it expects.
@MainActor
func launchShell(_ backend: AppBackend) -> Store<AppFeature.State, AppFeature.Action> {
  let store = Store(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.use(backend)
    $0.pushClient = .unavailable
  }
  store.send(.launched)
  store.send(.notifications(.onAppear))
  return store
}

/// Waits for a state of `store` that satisfies `condition`, and returns it. When none does
/// within `timeout`, records an issue naming `expectation` and showing the last state, and
/// throws, so that the test stops there.
///
/// A passing wait takes milliseconds. The timeout only bounds a failing one: under the thread
/// sanitizer, while a guide package builds beside the tests, one wait took over 30 seconds.
@MainActor
@discardableResult
func waitFor(
  _ expectation: String, in store: Store<AppFeature.State, AppFeature.Action>,
  timeout: Duration = .seconds(90), sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ condition: @escaping @Sendable (AppFeature.State) -> Bool
) async throws -> AppFeature.State {
  let states = store.states
  let reached = await withTaskGroup(of: AppFeature.State?.self) { group in
    group.addTask {
      for await state in states where condition(state) { return state }
      return nil
    }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
  guard let reached else {
    let list = store.state.notifications
    Issue.record(
      """
      Waited \(timeout) for \(expectation). The list shows \(list.notifications.ids), \
      isLoading \(list.isLoading), hasLoadedOnce \(list.hasLoadedOnce), \
      isLoadingPreferences \(list.isLoadingPreferences), connection \(list.connection), \
      outbox \(list.sync.outbox), badge "\(store.state.badgeText)", error \(String(describing: list.error)).
      """,
      sourceLocation: sourceLocation)
    throw WaitTimedOut()
  }
  return reached
}

/// What ``waitFor(_:in:timeout:sourceLocation:_:)`` throws when the state never came.
struct WaitTimedOut: Error {}

extension AppFeature.State {
  /// The ids of the notifications listed, newest first.
  var listedIDs: [String] { notifications.notifications.ids }

  /// Whether the list has its first page (the server's, or the cache's in its place when the
  /// server cannot be reached) and the saved settings, and loads nothing.
  var hasLoaded: Bool {
    notifications.hasLoadedOnce && !notifications.isLoading
      && !notifications.isLoadingPreferences
  }
}

/// `server` with every call held until `gate` is resumed: a server that is slow to answer.
/// (Changed field by field, so that an operation added to the client later passes through.)
func held(_ server: NotificationClient, until gate: TestContinuation<Void>) -> NotificationClient {
  var client = server
  client.fetchPage = { request in
    try await gate.value
    return try await server.fetchPage(request)
  }
  client.updates = { since in
    try await gate.value
    return try await server.updates(since)
  }
  client.changesSince = { cursor in
    try await gate.value
    return try await server.changesSince(cursor)
  }
  client.markAsRead = { id in
    try await gate.value
    try await server.markAsRead(id)
  }
  client.markAsUnread = { id in
    try await gate.value
    try await server.markAsUnread(id)
  }
  client.markAllAsRead = { ids in
    try await gate.value
    try await server.markAllAsRead(ids)
  }
  client.delete = { id in
    try await gate.value
    try await server.delete(id)
  }
  client.deleteAll = {
    try await gate.value
    try await server.deleteAll()
  }
  client.deleteAllUpTo = { bound in
    try await gate.value
    try await server.deleteAllUpTo(bound)
  }
  client.fetchNotification = { id in
    try await gate.value
    return try await server.fetchNotification(id)
  }
  return client
}

extension InMemoryNotificationBackend {
  /// Makes every call fail as a server that cannot be reached does.
  func goOffline() {
    updateFaults {
      $0.failureRate = 1
      $0.randomError = .network
    }
  }
}
