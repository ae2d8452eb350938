import AppShell
import Foundation
import Loom
import NotificationClients
import NotificationFeature

/// The app shell's store, embedded: the CLI sends it actions and renders its state.
@MainActor
final class Session {
  let store: Store<AppFeature.State, AppFeature.Action>
  let inbox: LocalInbox
  /// The server the session works on, if any, for errors that name it.
  let server: Server?

  /// A notifications server: its address and the token given for it.
  struct Server {
    var url: URL
    var token: String?
  }

  /// The commands that work on a server as well as on the local inbox.
  static let serverCommands = ["list", "show", "read", "unread", "delete", "clear", "tap", "open"]

  /// `trace` prints every action and the state change it caused to `output`: standard error
  /// unless told otherwise, so that what a command prints (JSON, say) stays as it is.
  init(
    inbox: LocalInbox, client: NotificationClient? = nil, server: Server? = nil, trace: Bool,
    output: @escaping (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
  ) {
    self.inbox = inbox
    self.server = server
    let notificationClient = client ?? inbox.notificationClient
    let settingsClient = inbox.settingsClient
    store = Store(initialState: AppFeature.State()) {
      if trace {
        AppFeature().printChanges(to: output)
      } else {
        AppFeature()
      }
    } withDependencies: {
      $0.notificationClient = notificationClient
      $0.settingsClient = settingsClient
      $0.pushClient = .unavailable
    }
    store.send(.notifications(.foregroundChanged(false)))
  }

  var feature: NotificationsFeature.State { store.state.notifications }

  /// Sends an action and waits for everything it started.
  func send(_ action: NotificationsFeature.Action) async {
    await store.send(.notifications(action)).finish()
  }

  /// How much of the feed a command loads.
  enum Extent {
    /// The first page: what a list shows first.
    case firstPage
    /// Every page.
    case all
  }

  /// Loads the feed, `extent` of it. The first load is the app's launch: the feature appears,
  /// and restores what earlier runs saved (the pushes the feed has not listed, queued changes,
  /// the filter) with its first page. Its live stream is closed then: only `watch` follows it.
  func load(_ extent: Extent = .all) async throws(CLIError) {
    if feature.hasLoadedOnce {
      await send(.refreshRequested)
    } else {
      store.send(.notifications(.onAppear))
      for await state in store.states
      where !state.notifications.isLoading && !state.notifications.isLoadingPreferences {
        break
      }
      await send(.onDisappear)
    }
    if extent == .all {
      while feature.hasMore, feature.error == nil { await send(.loadMoreRequested) }
    }
    try failIfError()
  }

  /// Turns an error the feature shows into a CLI failure; a notification that does not exist
  /// is named by `id` when the command acted on one.
  func failIfError(id: String? = nil) throws(CLIError) {
    guard let error = feature.error else { return }
    if let id, error == .notFound { throw .failed("No notification with id \(id).") }
    throw .failed(describe(error))
  }

  /// What went wrong, for a person at a terminal: the app's sentences ("Your session has
  /// expired") are about an app's session; here they name the server and the option to fix.
  func describe(_ error: UserFacingError) -> String {
    guard let server else { return error.message }
    let address = server.url.absoluteString
    switch error {
    case .unauthorized where server.token == nil:
      return "The server at \(address) needs a token: pass it with --token."
    case .unauthorized:
      return "The server at \(address) refused the token: check the --token value."
    case .network:
      return "Cannot reach the server at \(address): check that it is running and that the --server URL is right."
    case .notFound:
      return "The server at \(address) does not serve the notifications API (404): check the --server URL."
    default:
      return error.message
    }
  }
}
