import Foundation
import Loom

/// The notification center rebuilt on its sync model (issue #24): what the person sees is the
/// server's truth (``ServerFeed``) with the person's changes (``ChangeLog``) replayed on it.
///
/// It replaced `NotificationsFeature` (removed), whose sync engine grew by patches: one model (the
/// server's truth and the person's log) instead of a field per case.
///
/// ```swift
/// let store = Store(initialState: NotificationFeature.State()) {
///   NotificationFeature()
/// } withDependencies: {
///   $0.notificationClient = InMemoryNotificationBackend(seed: notifications).client
///   $0.changeLogStore = .inMemory()
/// }
/// store.send(.onAppear)
/// ```
///
/// A shell embeds it with `Scope` and handles its ``Action/delegate(_:)`` actions: navigation,
/// the unread count for a badge, banners to present and errors.
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
public struct NotificationFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// What the server said, newest by cursor.
    public var server = ServerFeed()
    /// The person's changes on their way, the pushes the server has not listed, the notices.
    public var log = ChangeLog()
    /// What is shown: ``log`` replayed on ``server``, kept up to date as either changes.
    public var shown: NotificationFeed = []
    /// Where the launch is.
    public var launch = Launch.notStarted()
    /// The next page of the feed.
    public var paging = Paging()
    public var connection = ConnectionState.offline
    /// The error to show, until dismissed.
    public var error: UserFacingError?
    /// Which notifications the list shows (saved, and restored by the launch).
    public var filter: NotificationFilter = .all
    public var unreadOnly = false
    /// The preferences: muted types (saved, and restored by the launch) and the OS
    /// authorization (read by the launch).
    /// Whether a sheet shows them is the shell's: `preferences(.onAppear)` reads the OS
    /// authorization again when it does.
    public var preferences = NotificationPreferencesFeature.State()
    /// Whether the app is in the foreground (banners are only for foreground pushes).
    public var isInForeground = true
    /// What the last tap did, for a shell to show when it opened nothing.
    public var lastTap: TapOutcome?
    /// The last push payload that could not be parsed.
    public var lastPushParseError: PushParseError?

    public init() {}

    /// The number of unread notifications: those shown, and those the server has that are not
    /// held, unless the person marked everything read or cleared everything since (a change in
    /// the log that the server's count does not reflect).
    ///
    /// - Complexity: O(1).
    public var unreadCount: Int {
      let notHeld = server.unreadNotHeld?.count ?? 0
      guard notHeld > 0, !log.hasChangeToEverything else {
        return shown.unreadCount
      }
      return shown.unreadCount + notHeld
    }

    /// The badge text a shell shows: "" for none, "1"…"99", then "99+".
    public var badgeText: String {
      let count = unreadCount
      return count <= 0 ? "" : count > 99 ? "99+" : "\(count)"
    }

    /// The notifications the list shows, newest first: a view of what is shown that copies
    /// none.
    public var filteredNotifications: FilteredNotifications {
      shown.filtered(filter, unreadOnly: unreadOnly)
    }

    /// The notifications the list shows grouped into Today, Yesterday and Earlier relative to
    /// `now`.
    public func daySections(now: Date, calendar: Calendar = .current) -> [DaySection] {
      filteredNotifications.daySections(now: now, calendar: calendar)
    }

    /// The notifications the list shows grouped by thread, in the order of each thread's newest
    /// one. Notifications without a thread are groups of one.
    public var threadGroups: [[NotificationData]] { filteredNotifications.threadGroups }

    /// The entities (contacts, alerts, pings) that have unread notifications, for a shell to
    /// highlight their rows.
    public var highlightedEntities: Set<Entity> { shown.highlightedEntities }

    /// Recomputes what is shown of the notifications with these ids.
    ///
    /// - Complexity: O(*k* × (*r* + log *n*)) for *k* ids, *r* records and *n* notifications;
    ///   O(*n*) for each one that moves.
    public mutating func reshow(_ ids: some Sequence<String>) {
      for id in ids {
        let copy = server.notifications[id: id] ?? log.unlisted[id: id]
        // Not `copy.flatMap(log.replaying(on:))`: the method reference copies the whole log
        // into a closure (a retain of each of its fields, an allocation) at every call.
        let now = if let copy { log.replaying(on: copy) } else { NotificationData?.none }
        // Looked up once, then read and written at its position.
        let position = shown.index(id: id)
        let before = position.map { shown.elements[$0] }
        guard now != before else { continue }
        if let position, let before, let now, before.timestamp == now.timestamp {
          shown.replace(at: position, with: now)
        } else {
          if let position { shown.remove(at: position) }
          if let now { shown.insert(now, at: shown.insertionIndex(for: now)) }
        }
      }
    }

    /// Recomputes everything shown.
    ///
    /// - Complexity: O((*n* + *u*) × *r* + (*n* + *u*) log(*n* + *u*)).
    public mutating func reshowAll() {
      shown = log.shown(over: server.notifications)
    }
  }

  /// Where the launch is: nothing is sent or listed until what was saved is read.
  public enum Launch: Sendable, Equatable {
    /// Before `onAppear`, with what arrived already (a push, say) that waits for the restore.
    case notStarted(Arrived = Arrived())
    /// Reading what was saved, with what arrived meanwhile that waits for it.
    case restoring(Arrived = Arrived())
    case ready

    /// Whether what was saved is being read.
    public var isRestoring: Bool {
      if case .restoring = self { true } else { false }
    }

    /// What arrived before what was saved is read; `nil` once it is.
    public var arrived: Arrived? {
      get {
        switch self {
        case .notStarted(let arrived), .restoring(let arrived): arrived
        case .ready: nil
        }
      }
      set {
        guard let newValue else { return }
        switch self {
        case .notStarted: self = .notStarted(newValue)
        case .restoring: self = .restoring(newValue)
        case .ready: break
        }
      }
    }
  }

  /// What arrived while the launch read what was saved, and waits for it.
  public struct Arrived: Sendable, Equatable {
    /// Foreground pushes, announced (or not) once the muted types are read.
    public var banners: [NotificationData] = []
    /// The filter the person picked, if they did: the saved one is older.
    public var filter: NotificationFilter?
    /// Whether the person picked unread only, or not, if they did.
    public var unreadOnly: Bool?
    /// The types whose banners the person turned on (`true`) or off, if they did.
    public var bannersToggled: [NotificationType: Bool] = [:]
    /// The entities the person opened (``Action/markTargetRead(_:)``), whose unread
    /// notifications the server has beyond what is shown are asked for once what was saved is
    /// read: asked for before, they would be shown, and marked read, without the person's
    /// saved changes on them (a clear-all queued offline, say).
    public var targetsOpened: [TargetOpening] = []
    /// The OS authorization as last read or answered (the person answered the prompt, the
    /// preferences sheet read it), if it was: the launch's read may be older.
    public var authorization: PushClient.AuthorizationStatus?

    public init(
      banners: [NotificationData] = [], filter: NotificationFilter? = nil, unreadOnly: Bool? = nil,
      bannersToggled: [NotificationType: Bool] = [:], targetsOpened: [TargetOpening] = [],
      authorization: PushClient.AuthorizationStatus? = nil
    ) {
      self.banners = banners
      self.filter = filter
      self.unreadOnly = unreadOnly
      self.bannersToggled = bannersToggled
      self.targetsOpened = targetsOpened
      self.authorization = authorization
    }
  }

  /// An entity the person opened, and the newest of their changes then: a change made after it
  /// to a notification about the entity is newer than the opening, and kept.
  public struct TargetOpening: Sendable, Equatable {
    public var entity: Entity
    public var after: UUID?

    public init(_ entity: Entity, after: UUID?) {
      self.entity = entity
      self.after = after
    }
  }

  /// What a launch reads before anything is listed or sent.
  public struct Saved: Sendable, Equatable {
    public var log: ChangeLog
    public var filter: SavedFilter?
    public var muted: Set<NotificationType>?
    public var authorization: PushClient.AuthorizationStatus

    public init(
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
  public struct Paging: Sendable, Equatable {
    public var isLoading = false
    public var hasMore = false
    public var next: String?
  }

  /// What the feature is sent.
  ///
  /// The cases whose payload is larger than two strings are `indirect` (boxed): an action is
  /// moved and copied at every step through the store, its effects and its queue, and a case
  /// holding a `NotificationData` or a page made every action 305 bytes (33 now).
  public enum Action: Sendable, Equatable {
    case onAppear
    case onDisappear
    /// What was saved was read.
    indirect case restored(Saved)
    /// The saved log could not be read (the filter and the preferences, read apart, are in
    /// `saved`).
    indirect case restoreFailed(UserFacingError, Saved)
    case refreshRequested
    case loadMoreRequested
    indirect case pageLoaded(NotificationPage, first: Bool)
    /// The first page a cache on the device holds, shown at launch until the server's arrives:
    /// an older first page.
    indirect case cachedPageLoaded(NotificationPage)
    case pageFailed(UserFacingError)
    case updatesConnected
    indirect case liveEvent(NotificationEvent)
    /// The catch-up from a cursor answered with a snapshot at an older cursor: the server's
    /// change log started again (its database was made anew), and the snapshot is its feed.
    indirect case feedStartedAgain(NotificationEvent)
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
    /// The server applied a change at a cursor (`nil`: it does not say). The effect that sent
    /// the change saved the record acknowledged at that cursor before sending this.
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
    indirect case targetUnreadLoaded(
      Entity, [NotificationData], cursor: ChangeCursor?, after: UUID?)
    indirect case targetUnreadFailed(Entity, UserFacingError)
    case notificationTapped(String)
    /// Loads a notification the list has not loaded (for a shell to show it), by id.
    case loadNotification(String)
    /// A notification fetched by id: held, and tapped if the fetch was for a tap.
    indirect case notificationLoaded(NotificationData, thenTap: Bool)
    indirect case notificationLoadFailed(id: String, UserFacingError, thenTap: Bool)
    /// The server's copy of a push it has not listed, asked for by id when the person changed
    /// it (`nil`: the server does not have it yet). Held, it lets the changes waiting for the
    /// push be sent.
    indirect case pushLookedUp(id: String, NotificationData?)
    /// The server said it deleted a notification, at a cursor, answering a look-up of a push it
    /// has not listed or a change to the notification (another device deleted it first). The
    /// deletion holds against older copies, the push is not shown any more, and the changes
    /// waiting for it leave.
    case deletedOnServer(id: String, at: ChangeCursor)
    /// The person tapped a push (a cold start from it, too): it is kept as a push, and opened.
    case notificationResponse(Data)
    case foregroundChanged(Bool)

    case dismissError
    indirect case preferences(NotificationPreferencesFeature.Action)
    indirect case delegate(Delegate)

    /// What the feature tells its parent.
    public enum Delegate: Sendable, Equatable {
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
    case updates, reconnect, responses, loadMore, firstPage
    /// The look-up of the push with this id: one at a time, the newest.
    case lookUp(String)
  }

  /// How many notifications a page holds.
  public static let pageSize = 50

  /// How many times the live stream is retried before the feature goes offline.
  public static let maximumReconnectAttempts = 5

  @Dependency(\.notificationClient) var client
  @Dependency(\.changeLogStore) var changeLogStore
  @Dependency(\.settingsClient) var settings
  @Dependency(\.pushClient) var push
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
  @Dependency(\.randomNumberGenerator) var random

  public init() {}

  // `reduce(into:action:)` rather than a `body` of `Reduce { … }.onChange(of: \.unreadCount)`:
  // the same logic, but a `body` is built at each action, and its closure copied the feature
  // (eight dependencies) three times per `markAsRead`.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // A delegate action is the parent's to handle: it changes nothing here, so nothing is
    // written, and no record's turn to be sent comes with it.
    if case .delegate = action { return .none }
    let unreadCount = state.unreadCount
    // Nothing is written before the launch has read what was saved: the store then holds
    // exactly what it read, and the launch's first write turns that into the log. A write made
    // earlier could be read back by the launch, or not, depending on when the read ran, and a
    // later change to what it wrote could be lost. Afterwards each action writes the rows it
    // changed, marked rather than copied (a copy would make the action's first change to the
    // log copy every record).
    let wasReady = state.launch == .ready
    let checkpoint = state.log.checkpoint()
    let effect = reduceAction(into: &state, action: action)
    let writes: [ChangeLog.Write]
    switch (wasReady, state.launch == .ready, action) {
    case (true, _, _):
      writes = self.writes(from: nil, since: checkpoint, in: state)
    case (false, true, .restored(let saved)), (false, true, .restoreFailed(_, let saved)):
      writes = self.writes(from: saved.log, since: checkpoint, in: state)
    case (false, _, _):
      writes = []
    }
    let saved = Effect.merge(effect, save(writes, thenSend: sendReady(&state)))
    // The parent hears of each change of the count, after the action's own effects.
    let newUnreadCount = state.unreadCount
    guard newUnreadCount != unreadCount else { return saved }
    return .merge(saved, .send(.delegate(.unreadCountChanged(newUnreadCount))))
  }
}

extension CasePath
where
  Root == NotificationFeature.Action,
  Value == NotificationPreferencesFeature.Action
{
  /// The preferences' actions inside the notification center's, for scoping a store to them.
  public static var preferences: Self {
    Self(NotificationFeature.Action.preferences) {
      if case .preferences(let action) = $0 { action } else { nil }
    }
  }
}
