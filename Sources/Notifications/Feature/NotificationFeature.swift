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
    package var connection = ConnectionState.offline
    /// The error to show, until dismissed.
    package var error: UserFacingError?
    /// Which notifications the list shows (saved, and restored by the launch).
    package var filter: NotificationFilter = .all
    package var unreadOnly = false
    /// The preferences: muted types (saved, and restored by the launch) and the OS
    /// authorization (read by the launch).
    package var preferences = NotificationPreferencesFeature.State()
    package var isPreferencesPresented = false
    /// Whether the app is in the foreground (banners are only for foreground pushes).
    package var isInForeground = true
    /// What the last tap did, for a shell to show when it opened nothing.
    package var lastTap: TapOutcome?
    /// The last push payload that could not be parsed.
    package var lastPushParseError: PushParseError?

    package init() {}

    /// The number of unread notifications: those shown, and those the server has that are not
    /// held, unless the person marked everything read or cleared everything since (a change in
    /// the log that the server's count does not reflect).
    ///
    /// - Complexity: O(1), unless the server has unread notifications not held: then O(*r*) for
    ///   *r* records.
    package var unreadCount: Int {
      let notHeld = server.unreadNotHeld?.count ?? 0
      guard notHeld > 0, !log.records.contains(where: \.touchesEverything) else {
        return shown.unreadCount
      }
      return shown.unreadCount + notHeld
    }

    /// The badge text a shell shows: "" for none, "1"…"99", then "99+".
    package var badgeText: String {
      let count = unreadCount
      return count <= 0 ? "" : count > 99 ? "99+" : "\(count)"
    }

    /// The notifications the list shows, newest first: a view of what is shown that copies
    /// none.
    package var filteredNotifications: FilteredNotifications {
      shown.filtered(filter, unreadOnly: unreadOnly)
    }

    /// The entities (contacts, alerts, pings) that have unread notifications, for a shell to
    /// highlight their rows.
    package var highlightedEntities: Set<Entity> {
      var entities: Set<Entity> = []
      for notification in shown where !notification.isRead {
        switch notification.target {
        case .none: break
        case .contact(let contactID): entities.insert(.contact(contactID))
        case .alert(let alertID): entities.insert(.alert(alertID))
        case .ping(let pingID, let contactID):
          entities.insert(.ping(pingID))
          entities.insert(.contact(contactID))
        }
      }
      return entities
    }

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

  package typealias ConnectionState = NotificationsFeature.ConnectionState
  package typealias Entity = NotificationsFeature.Entity
  package typealias TapOutcome = NotificationsFeature.TapOutcome
  package typealias BannerOptions = NotificationsFeature.BannerOptions
  package typealias SavedFilter = NotificationsFeature.SavedFilter
  package typealias SettingsKey = NotificationsFeature.SettingsKey

  /// Where the launch is: nothing is sent or listed until what was saved is read.
  package enum Launch: Sendable, Equatable {
    case notStarted
    /// Reading what was saved, with what arrived meanwhile that waits for it.
    case restoring(Arrived = Arrived())
    case ready

    /// Whether what was saved is being read.
    package var isRestoring: Bool {
      if case .restoring = self { true } else { false }
    }
  }

  /// What arrived while the launch read what was saved, and waits for it.
  package struct Arrived: Sendable, Equatable {
    /// Foreground pushes, announced (or not) once the muted types are read.
    package var banners: [NotificationData] = []
    /// Whether the person picked a filter: the saved one is then older.
    package var pickedFilter = false

    package init(banners: [NotificationData] = [], pickedFilter: Bool = false) {
      self.banners = banners
      self.pickedFilter = pickedFilter
    }
  }

  /// What a launch reads before anything is listed or sent.
  package struct Saved: Sendable, Equatable {
    package var log: ChangeLog
    package var filter: SavedFilter?
    package var muted: Set<NotificationType>?
    package var authorization: PushClient.AuthorizationStatus

    package init(
      log: ChangeLog, filter: SavedFilter? = nil, muted: Set<NotificationType>? = nil,
      authorization: PushClient.AuthorizationStatus = .notDetermined
    ) {
      self.log = log
      self.filter = filter
      self.muted = muted
      self.authorization = authorization
    }
  }

  /// The next page of the feed.
  package struct Paging: Sendable, Equatable {
    package var isLoading = false
    package var hasMore = false
    package var next: String?
  }

  package enum Action: Sendable, Equatable {
    case onAppear
    case onDisappear
    /// What was saved was read.
    case restored(Saved)
    /// The saved log could not be read (the filter and the preferences, read apart, are in
    /// `saved`).
    case restoreFailed(UserFacingError, Saved)
    case refreshRequested
    case loadMoreRequested
    case pageLoaded(NotificationPage, first: Bool)
    case pageFailed(UserFacingError)
    case updatesConnected
    case liveEvent(NotificationEvent)
    /// The live stream failed, after `attempt` reconnections that never connected.
    case updatesFailed(UserFacingError, attempt: Int)
    case reconnect(attempt: Int)

    case filterChanged(NotificationFilter)
    case unreadOnlyChanged(Bool)

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

    /// The entity's screen opened: marks read every unread notification about it, those the
    /// list has not loaded too (fetched with `fetchUnread`).
    case markTargetRead(Entity)
    /// The server's unread notifications about an entity, fetched when it was opened: the
    /// server's feed was at `cursor`, and `change` was the person's newest change then. Those
    /// changed since (by a newer copy, or by a newer change of the person's) are left as they
    /// are.
    case targetUnreadLoaded(
      Entity, [NotificationData], cursor: ChangeCursor?, after: UUID?)
    case targetUnreadFailed(Entity, UserFacingError)
    case notificationTapped(String)
    /// Loads a notification the list has not loaded (for a shell to show it), by id.
    case loadNotification(String)
    /// A notification fetched by id: held, and tapped if the fetch was for a tap.
    case notificationLoaded(NotificationData, thenTap: Bool)
    case notificationLoadFailed(id: String, UserFacingError, thenTap: Bool)
    /// The person tapped a push (a cold start from it, too): it is kept as a push, and opened.
    case notificationResponse(Data)
    case foregroundChanged(Bool)

    case dismissError
    case setPreferencesPresented(Bool)
    case preferences(NotificationPreferencesFeature.Action)
    case delegate(Delegate)

    /// What the feature tells its parent.
    package enum Delegate: Sendable, Equatable {
      case navigateToContact(contactID: String)
      case navigateToAlert(alertID: String)
      case navigateToPing(pingID: String, contactID: String)
      case unreadCountChanged(Int)
      case presentBanner(NotificationData, BannerOptions)
      case errorOccurred(UserFacingError)
      case pushParseFailed(PushParseError)
    }
  }

  enum CancelID: Hashable, Sendable {
    case updates, reconnect, responses, loadMore
  }

  /// How many notifications a page holds.
  package static let pageSize = 50

  /// How many times the live stream is retried before the feature goes offline.
  package static let maximumReconnectAttempts = 5

  @Dependency(\.notificationClient) var client
  @Dependency(\.changeLogStore) var changeLogStore
  @Dependency(\.settingsClient) var settings
  @Dependency(\.pushClient) var push
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
  @Dependency(\.randomNumberGenerator) var random

  package init() {}

  package var body: some ReducerOf<Self> {
    Scope(state: \.preferences, action: .preferences) {
      NotificationPreferencesFeature()
    }
    Reduce { state, action in
      // What the store holds: after a restore, what it read with this launch's records after
      // it (written as they were made).
      let before =
        if case .restored(let saved) = action, state.launch.isRestoring {
          saved.log.holding(state.log)
        } else {
          state.log
        }
      let effect = reduceAction(into: &state, action: action)
      return .merge(effect, save(from: before, in: state), sendReady(&state))
    }
    .onChange(of: \.unreadCount) { _, count in
      Reduce { _, _ in .send(.delegate(.unreadCountChanged(count))) }
    }
  }
}

extension CasePath
where
  Root == NotificationFeature.Action,
  Value == NotificationPreferencesFeature.Action
{
  /// The preferences' actions inside the notification center's, for scoping a store to them.
  package static var preferences: Self {
    Self(NotificationFeature.Action.preferences) {
      if case .preferences(let action) = $0 { action } else { nil }
    }
  }
}
