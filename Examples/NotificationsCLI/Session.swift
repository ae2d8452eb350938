import AppShell
import Foundation
import Loom
import NotificationClients
import Notifications

/// The app shell's store, embedded: the CLI sends it actions and renders its state.
@MainActor
final class Session {
  let store: Store<AppFeature.State, AppFeature.Action>
  let inbox: LocalInbox
  /// The feed's backend, for what the feature does not ask it: a filtered page.
  let client: NotificationClient
  /// The server the session works on, if any, for errors that name it.
  let server: Server?

  /// A notifications server: its address and the token given for it.
  struct Server {
    var url: URL
    var token: String?
  }

  /// The commands that work on a server as well as on the local inbox.
  static let serverCommands = ["list", "show", "read", "unread", "delete", "clear", "tap", "open"]

  /// Whether the session waits out the feature's backoffs (see ``NoWaitingClock``).
  let waitsOutBackoffs: Bool
  /// Notes for standard error (see ``EarlierChanges``), until ``takeNotes()``.
  private let notes: LockedState<[String]>

  /// A session on `backend` (the app shell's wiring: the local inbox, or a server cached in
  /// one). `trace` prints every action and the state change it caused to `output`: standard
  /// error unless told otherwise, so that what a command prints (JSON, say) stays as it is.
  /// `waitsOutBackoffs` false is for commands that end when their work is done: a retry the
  /// feature schedules after a backoff is left to the next command (see ``NoWaitingClock``).
  init(
    backend: AppBackend, server: Server? = nil, trace: Bool, waitsOutBackoffs: Bool = true,
    output: @escaping (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
  ) {
    self.inbox = backend.inbox
    self.client = backend.notificationClient
    self.server = server
    self.waitsOutBackoffs = waitsOutBackoffs
    let notes = LockedState<[String]>([])
    self.notes = notes
    store = Store(initialState: AppFeature.State()) {
      if trace {
        AppFeature().printChanges(to: output)
      } else {
        AppFeature()
      }
      EarlierChanges(notes: notes)
    } withDependencies: {
      $0.use(backend)
      $0.pushClient = .unavailable
      if !waitsOutBackoffs { $0.continuousClock = NoWaitingClock() }
    }
    store.send(.notifications(.foregroundChanged(false)))
  }

  /// A session on the local inbox whose feed goes through `client`: the demo's, which injects
  /// faults into the inbox's.
  convenience init(
    inbox: LocalInbox, client: NotificationClient, trace: Bool, waitsOutBackoffs: Bool,
    output: @escaping (String) -> Void
  ) {
    var backend = AppBackend.localInbox(inbox)
    backend.notificationClient = client
    self.init(backend: backend, trace: trace, waitsOutBackoffs: waitsOutBackoffs, output: output)
  }

  var feature: NotificationFeature.State { store.state.notifications }

  /// Sends an action and waits for everything it started.
  func send(_ action: NotificationFeature.Action) async {
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
  /// and restores what earlier runs saved (the change log: queued changes, the pushes the feed
  /// has not listed, the notices; the filter) before its first page. Its live stream is never
  /// followed: only `watch` follows it.
  func load(_ extent: Extent = .all) async throws(CLIError) {
    if case .notStarted = feature.launch {
      let appeared = store.send(.notifications(.onAppear))
      for await state in store.states
      where state.notifications.launch == .ready && !state.notifications.paging.isLoading {
        break
      }
      // A command does not follow the live stream (only `watch` does): the first page opens
      // it, and it is closed at once.
      await send(.onDisappear)
      // What the launch started besides the first page (the restored changes sent again)
      // finishes before the command goes on: the live stream is closed, and no backoff is
      // waited out, so this ends once each call is answered.
      if !waitsOutBackoffs { await appeared.finish() }
    } else {
      await send(.refreshRequested)
    }
    if extent == .all {
      while feature.paging.hasMore, feature.error == nil { await send(.loadMoreRequested) }
    }
    try failIfError()
  }

  /// The notifications `request` passes, as the list shows them: the backend's filtered pages
  /// (the first, or every one when `all`) with the person's changes the log holds replayed on
  /// them, and the local notices and pushes the backend does not list yet that pass, in their
  /// place. Costs what it lists, however many notifications do not pass.
  ///
  /// - Returns: The notifications, newest first, and whether the backend has more.
  func filtered(_ request: PageRequest, all: Bool) async throws(CLIError)
    -> (notifications: [NotificationData], hasMore: Bool)
  {
    var request = request
    var listed: [NotificationData] = []
    var hasMore = false
    let log = feature.log
    repeat {
      let page: NotificationPage
      do {
        page = try await client.fetchPage(request)
      } catch {
        throw .failed(describe(UserFacingError(error)))
      }
      for notification in page.items {
        if let shown = log.replaying(on: notification), request.passes(shown) {
          listed.append(shown)
        }
      }
      hasMore = page.hasMore && page.nextCursor != nil
      request.cursor = page.nextCursor
    } while all && hasMore
    let oldest = listed.last
    let listedIDs = Set(listed.map(\.id))
    let own = feature.shown.elements.filter { notification in
      log.unlisted.contains(id: notification.id)
        && !listedIDs.contains(notification.id) && request.passes(notification)
        && !(hasMore && oldest.map { NotificationData.isOrderedBefore($0, notification) } ?? false)
    }
    return ((listed + own).sorted(by: NotificationData.isOrderedBefore), hasMore)
  }

  /// Turns an error the feature shows into a CLI failure; a notification that does not exist
  /// is named by `id` when the command acted on one.
  func failIfError(id: String? = nil) throws(CLIError) {
    guard let error = feature.error else { return }
    if let id, error == .notFound {
      throw .failed("No notification with id \(Renderer.id(id)).")
    }
    throw .failed(describe(error))
  }

  /// A note for stderr when changes are waiting to reach the server: made here (the feature
  /// shows no error for a change it will send again), saved, and sent by a later command.
  var unsentNote: String? {
    guard let server else { return nil }
    let count = feature.log.unsent.count
    guard count > 0 else { return nil }
    return "note: Cannot reach the server at \(server.url.absoluteString): \(count) change"
      + "\(count == 1 ? " is" : "s are") saved, and the next command that reaches the server sends "
      + "\(count == 1 ? "it" : "them")."
  }

  /// The notes for standard error that came up since the last call: the changes earlier
  /// commands saved that the server refused (see ``EarlierChanges``).
  func takeNotes() -> [String] {
    notes.withLock { notes in
      defer { notes = [] }
      return notes
    }
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
      return
        "Cannot reach the server at \(address): check that it is running and that the --server URL is right."
    case .notFound:
      return
        "The server at \(address) does not serve the notifications API (404): check the --server URL."
    default:
      return error.message
    }
  }
}

/// The clock of a command that ends when its work is done: its sleeps end at once, cancelled.
/// The feature sleeps only to back off: before it sends a queued change again (for up to five
/// minutes) or reconnects its live stream. A command does not wait for those: the queued change
/// stays in the change log, saved in the inbox, and the next command's launch sends it.
/// (`watch` keeps the continuous clock.)
struct NoWaitingClock: Clock {
  var now: ContinuousClock.Instant { .now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    throw CancellationError()
  }
}

extension ChangeLog {
  /// The person's changes the server has not applied, and that wait for nothing but the
  /// server (not for a push to be listed): what a note says is saved for a later command.
  var unsent: [ChangeRecord] {
    records.filter { record in
      switch record.status {
      case .pending, .sending, .waiting: true
      case .awaitingListing, .acknowledged: false
      }
    }
  }
}
