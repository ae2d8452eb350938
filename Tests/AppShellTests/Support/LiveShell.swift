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
      Waited \(timeout) for \(expectation). The list shows \(list.shown.ids), \
      launch \(list.launch), isLoading \(list.paging.isLoading), \
      listing \(String(describing: list.server.listing)), connection \(list.connection), \
      log \(list.log.records.map { ($0.intent, $0.status) }), unlisted \(list.log.unlisted.ids), \
      badge "\(store.state.badgeText)", error \(String(describing: list.error)).
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
  var listedIDs: [String] { notifications.shown.ids }

  /// Whether the launch has read what was saved (the change log, the settings) and the list
  /// has the answer to its first page (the server's, or the cache's in its place when the
  /// server cannot be reached), and loads nothing.
  var hasLoaded: Bool {
    notifications.launch == .ready && !notifications.paging.isLoading
  }
}

/// Waits until `store` holds a saved log that satisfies `condition` (a write is applied after
/// the state that asked for it), and returns it. When none does within `timeout`, records an
/// issue naming `expectation` and throws.
@MainActor
@discardableResult
func waitForSaved(
  _ expectation: String, in store: ChangeLogStore, timeout: Duration = .seconds(90),
  sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ condition: (ChangeLog) -> Bool
) async throws -> ChangeLog {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  var saved = try await store.load()
  while !condition(saved) {
    guard clock.now < deadline else {
      Issue.record(
        """
        Waited \(timeout) for \(expectation). The saved log holds \
        \(saved.records.map { ($0.intent, $0.status) }), unlisted \(saved.unlisted.ids).
        """,
        sourceLocation: sourceLocation)
      throw WaitTimedOut()
    }
    try await Task.sleep(for: .milliseconds(10))
    saved = try await store.load()
  }
  return saved
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
  client.fetchNotification = { id in
    try await gate.value
    return try await server.fetchNotification(id)
  }
  client.apply = { request in
    try await gate.value
    return try await server.apply(request)
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
