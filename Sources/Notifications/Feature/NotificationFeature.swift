import Foundation
import Loom

/// The notification center rebuilt on its sync model (issue #24): what the person sees is the
/// server's truth (``ServerFeed``) with the person's changes (``ChangeLog``) replayed on it.
///
/// Package-visible while it is being built: it replaces ``NotificationsFeature`` once it does
/// everything that one does. This first part launches, lists, follows the live stream, keeps
/// pushes and local notices, and makes the person's changes through the log, saved as rows
/// (``ChangeLogStore``).
///
/// How a change travels: an action records it in the log, which shows it at once; the records
/// whose turn has come (``ChangeLog/recordsReadyToSend``) are sent, each with its own id on every
/// attempt; the answer acknowledges it at a cursor, and it leaves once the feed has seen that
/// cursor. Every change to the log is written as the rows that changed, in the order of the
/// actions (the store applies calls in the order made), so nothing in this state waits for a
/// write.
///
/// A launch is one step: ``Action/onAppear`` reads the saved log, and nothing is sent or listed
/// before it is read. What the person does meanwhile is recorded, and kept on top of what is
/// read (``ChangeLog/merging(newer:)``).
package struct NotificationFeature: Reducer {
  package struct State: Equatable, Sendable {
    /// What the server said, newest by cursor.
    package var server = ServerFeed()
    /// The person's changes on their way, the pushes the server has not listed, the notices.
    package var log = ChangeLog()
    /// What is shown: ``log`` replayed on ``server``, kept up to date as either changes.
    package var shown: NotificationFeed = []
    /// Where the launch is.
    package var launch = Launch.notStarted
    /// The next page of the feed.
    package var paging = Paging()
    package var connection = NotificationsFeature.ConnectionState.offline
    /// The error to show, until dismissed.
    package var error: UserFacingError?

    package init() {}

    /// Recomputes what is shown of the notifications with these ids.
    ///
    /// - Complexity: O(*k* × (*r* + log *n*)) for *k* ids, *r* records and *n* notifications;
    ///   O(*n*) for each one that moves.
    package mutating func reshow(_ ids: some Sequence<String>) {
      for id in ids {
        let copy = server.notifications[id: id] ?? log.unlisted[id: id]
        let now = copy.flatMap(log.replaying(on:))
        let before = shown[id: id]
        guard now != before else { continue }
        if let before, let now, before.timestamp == now.timestamp {
          shown[id: id] = now
        } else {
          shown.remove(id: id)
          if let now { shown.insert(now, at: shown.insertionIndex(for: now)) }
        }
      }
    }

    /// Recomputes everything shown.
    ///
    /// - Complexity: O((*n* + *u*) × *r* + (*n* + *u*) log(*n* + *u*)).
    package mutating func reshowAll() {
      shown = log.shown(over: server.notifications)
    }
  }

  /// Where the launch is: nothing is sent or listed until the saved log is read.
  package enum Launch: Sendable, Equatable {
    case notStarted
    /// Reading the saved log.
    case restoring
    case ready
  }

  /// The next page of the feed.
  package struct Paging: Sendable, Equatable {
    package var isLoading = false
    package var hasMore = false
    package var next: String?
  }

  package enum Action: Sendable, Equatable {
    case onAppear
    /// The saved log was read.
    case restored(ChangeLog)
    case restoreFailed(UserFacingError)
    case refreshRequested
    case loadMoreRequested
    case pageLoaded(NotificationPage, first: Bool)
    case pageFailed(UserFacingError)
    case updatesConnected
    case liveEvent(NotificationEvent)
    case updatesFailed(UserFacingError)

    case markAsRead(String)
    case markAsUnread(String)
    case markAllAsRead
    case delete(String)
    case clearAll
    /// The server applied a change at a cursor (`nil`: it does not say).
    case changeAnswered(UUID, ChangeCursor?)
    case changeFailed(UUID, UserFacingError)
    /// A push arrived: shown until the server lists it (or deletes it), saved meanwhile.
    case pushReceived(Data)
    /// A notice of something the person did on this device: shown, read, never sent.
    case recordLocalNotice(title: String, message: String)
    /// A change that failed for now is due again.
    case retryDue(UUID)
    /// The log's rows could not be written.
    case saveFailed(UserFacingError)
    case dismissError
  }

  enum CancelID: Hashable, Sendable {
    case updates, loadMore
  }

  /// How many notifications a page holds.
  package static let pageSize = 50

  @Dependency(\.notificationClient) var client
  @Dependency(\.changeLogStore) var changeLogStore
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid

  package init() {}

  package var body: some ReducerOf<Self> {
    Reduce { state, action in
      // What the store holds: after a restore, what it read with this launch's records after
      // it (written as they were made).
      let before =
        if case .restored(let saved) = action, state.launch == .restoring {
          saved.holding(state.log)
        } else {
          state.log
        }
      let effect = reduceAction(into: &state, action: action)
      return .merge(effect, save(from: before, in: state), sendReady(&state))
    }
  }
}
