import Foundation
import Loom

/// The notification center: a live feed with filters, optimistic changes that roll back on
/// failure, push payload handling and tap-to-navigate.
///
/// ```swift
/// let store = Store(initialState: NotificationsFeature.State()) {
///   NotificationsFeature()
/// } withDependencies: {
///   $0.notificationClient = InMemoryNotificationBackend(seed: notifications).client
/// }
/// store.send(.onAppear)
/// ```
///
/// The backends, such as `InMemoryNotificationBackend`, are in the NotificationClients module.
///
/// A shell embeds it with `Scope` and handles its ``Action/delegate(_:)`` actions: navigation,
/// the unread count for a badge, banners to present and errors.
///
/// How its changes reach the backend (pending changes, the outbox, supersession, rollback) is
/// the job of ``NotificationSyncEngine``, a child it scopes to at ``State/sync``.
public struct NotificationsFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// Every notification, newest first, unique by id, with the unread count and the
    /// positions of each type kept up to date as it changes.
    public var notifications: NotificationFeed = []
    public var isLoading = false
    public var hasLoadedOnce = false
    public var hasMore = false
    public var nextCursor: String?
    /// The cursor of the newest change seen, to catch up from after a reconnect.
    public var newestCursor: ChangeCursor?
    public var filter: NotificationFilter = .all
    public var unreadOnly = false
    /// The filter choice being written to the settings, if a write is in flight: one at a time,
    /// and a choice made meanwhile is written after it.
    public var filterBeingSaved: SavedFilter?
    public var connection: ConnectionState = .offline
    /// The error to show, until dismissed.
    public var error: UserFacingError?
    /// The last push payload that could not be parsed.
    public var lastPushParseError: PushParseError?
    /// What the last tap did, for a shell to show when it opened nothing.
    public var lastTap: TapOutcome?
    /// Whether the app is in the foreground (banners are only for foreground pushes).
    public var isInForeground = true
    /// The preferences: muted types and the OS authorization.
    public var preferences = NotificationPreferencesFeature.State()
    /// Whether the saved muted types are still loading after `onAppear`: foreground pushes wait
    /// in `heldBanners` until they are known.
    public var isLoadingPreferences = false
    /// Foreground pushes received while the muted types were loading, announced (or not) once
    /// they are known.
    public var heldBanners: [NotificationData] = []
    /// Whether the preferences sheet is shown.
    public var isPreferencesPresented = false

    /// Types whose pushes are not announced as banners.
    public var mutedTypes: Set<NotificationType> {
      get { preferences.muted }
      set { preferences.muted = newValue }
    }
    /// The sync engine's state: the changes not confirmed yet, the outbox, what each queued
    /// change replaced and how to undo it. See ``NotificationSyncEngine``.
    public var sync = NotificationSyncEngine.State()
    /// The ids of listed pushes that the backend's feed has not listed yet. A refresh keeps
    /// them, so a push the person saw stays until they delete it; once the feed lists an id,
    /// its copy replaces the push's and the id leaves this set.
    ///
    /// These pushes are saved, so a relaunch keeps them too (the newest
    /// ``NotificationsFeature/maximumSavedPushes``); see
    /// `NotificationsFeature+SavedPushes.swift`.
    public var unlistedPushIDs: Set<String> = []
    /// The ids of the local notices recorded or restored (``NotificationData/isLocal``), listed
    /// or not: the listed ones are saved with the pushes, so a relaunch keeps them (the newest
    /// ``NotificationsFeature/maximumSavedNotices``). Deleting a notice takes its id out.
    public var localNoticeIDs: Set<String> = []
    /// The pushes the person deleted before the backend's feed listed them, oldest first, at
    /// most ``NotificationsFeature/maximumSavedDeletedPushes``, saved: neither a duplicate
    /// delivery nor the feed lists one again, and the backend deletes it once its feed lists
    /// it (the id then leaves this list).
    public var deletedPushIDs: [String] = []
    /// The saved pushes being written to the settings, if a write is in flight: one at a time,
    /// and a change made meanwhile is written after it.
    public var pushesBeingSaved: SavedPushes?
    /// The ids of the notifications deleted in this run, by the person or by the backend. A
    /// push for one of them (a late duplicate delivery) is ignored, never listed again.
    public var deletedIDs: Set<String> = []
    /// How many unread notifications the backend has that the list has not loaded (those on
    /// pages not loaded yet), so that ``unreadCount`` is the backend's total and not only what
    /// is loaded. Set from the `unreadTotal` of each first page (less the unread notifications
    /// that page lists), then kept by later pages, live changes and clear-all; see
    /// `NotificationsFeature+UnreadTotal.swift`. `nil` when the latest first page carried no
    /// total: the count is then of the notifications loaded.
    public var unreadNotLoaded: Int?
    /// How many fetches of an opened entity's unread notifications (`markTargetRead`) are in
    /// flight.
    public var targetFetchesInFlight = 0
    /// How many entities opened in this run have fetched their unread notifications: each
    /// fetch's answer carries its number.
    public var targetFetchesStarted = 0
    /// The notifications the person marked unread while a fetch was in flight, each with
    /// ``targetFetchesStarted`` at the time: a fetch started before leaves it unread, as the
    /// person made it last. Emptied when no fetch is in flight.
    public var markedUnreadWhileOpening: [String: Int] = [:]

    public init(notifications: [NotificationData] = []) {
      self.notifications = NotificationFeed(
        uniqueElements: notifications.sorted(by: NotificationData.isOrderedBefore))
    }

    /// The number of unread notifications: the backend's total, adjusted by the changes made
    /// here that it has not confirmed yet. It is the unread notifications in the list (where
    /// every pending change, unlisted push and local notice shows) plus ``unreadNotLoaded``;
    /// with a backend that sends no total, the unread notifications in the list.
    ///
    /// - Complexity: O(1): the feed keeps its count as it changes.
    public var unreadCount: Int { notifications.unreadCount + (unreadNotLoaded ?? 0) }

    /// The badge text a shell shows: "" for none, "1"…"99", then "99+".
    public var badgeText: String {
      let count = unreadCount
      return count <= 0 ? "" : count > 99 ? "99+" : "\(count)"
    }

    /// The entities (contacts, alerts, pings) that have unread notifications, for a shell to
    /// highlight their rows.
    public var highlightedEntities: Set<Entity> { notifications.highlightedEntities }

    /// The notifications the list shows, newest first: a view of the feed that copies none.
    ///
    /// - Complexity: O(1) unless `unreadOnly`; see ``NotificationFeed/filtered(_:unreadOnly:)``.
    public var filteredNotifications: FilteredNotifications {
      notifications.filtered(filter, unreadOnly: unreadOnly)
    }

    /// The shown notifications grouped into Today, Yesterday and Earlier relative to `now`.
    public func daySections(now: Date, calendar: Calendar = .current) -> [DaySection] {
      filteredNotifications.daySections(now: now, calendar: calendar)
    }

    /// The shown notifications grouped by thread, in the order of each thread's newest one.
    /// Notifications without a thread are groups of one.
    public var threadGroups: [[NotificationData]] { filteredNotifications.threadGroups }
  }

  public enum Action: Sendable, Equatable {
    case onAppear
    case onDisappear
    case refreshRequested
    case loadMoreRequested
    case pageLoaded(NotificationPage, replacing: Bool)
    case pageFailed(UserFacingError)
    /// The first page a cache on the device holds, shown at launch until the backend's arrives.
    case cachedPageLoaded(NotificationPage)
    case savedFilterLoaded(SavedFilter?)

    case updatesConnected
    case liveEvent(NotificationEvent)
    case updatesFailed(UserFacingError, attempt: Int)
    case reconnect(attempt: Int)
    case caughtUp([NotificationEvent])

    case filterChanged(NotificationFilter)
    case unreadOnlyChanged(Bool)
    /// The write of `filterBeingSaved` finished (saved or not).
    case filterSaved

    case markAsRead(String)
    case markAsUnread(String)
    case markAllAsRead
    case delete(String)
    case clearAll
    /// The sync engine's actions: changes confirmed or failed, the outbox restored, saved and
    /// sent again.
    case sync(NotificationSyncEngine.Action)
    /// The pushes a previous launch saved, loaded by `onAppear` before its first page.
    case savedPushesRestored(SavedPushes)
    /// The write of `pushesBeingSaved` finished (saved or not).
    case pushesSaved

    case recordLocalNotice(title: String, message: String)
    /// The entity's screen opened: marks read every unread notification about it, those on
    /// pages not loaded too (fetched with `fetchUnread`).
    case markTargetRead(Entity)
    /// The unread notifications about an entity, fetched because the list had not loaded every
    /// page by the fetch numbered `fetch` (see ``State/targetFetchesStarted``): those not listed
    /// are listed, and all are marked read, except those the person marked unread since the
    /// entity was opened.
    case targetUnreadLoaded(Entity, [NotificationData], fetch: Int)
    /// The unread notifications about an entity could not be fetched: those loaded were marked
    /// read, the others stay unread.
    case targetUnreadFailed(Entity, UserFacingError)
    case notificationTapped(String)
    /// Loads a notification the list has not loaded (for a shell to show it), by id.
    case loadNotification(String)
    /// A notification fetched by id: listed, and tapped if the fetch was for a tap.
    case notificationLoaded(NotificationData, thenTap: Bool)
    /// A notification could not be fetched by id.
    case notificationLoadFailed(id: String, UserFacingError, thenTap: Bool)
    case notificationResponse(Data)
    case pushReceived(Data)
    case foregroundChanged(Bool)

    case dismissError
    case setPreferencesPresented(Bool)
    case preferences(NotificationPreferencesFeature.Action)
    case delegate(Delegate)

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
    case updates, responses, reconnect, loadMore
  }

  /// How many notifications a page holds.
  public static let pageSize = 50
  /// How many times the live stream is retried before the feature gives up and goes offline.
  public static let maximumReconnectAttempts = 5

  @Dependency(\.notificationClient) var client
  @Dependency(\.settingsClient) var settings
  @Dependency(\.pushClient) var push
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
  @Dependency(\.randomNumberGenerator) var random

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.preferences, action: .preferences) {
      NotificationPreferencesFeature()
    }
    Reduce { state, action in
      // Before the engine forgets the confirmed change.
      recordAnswer(to: action, in: &state)
    }
    Scope(state: \.sync, action: .sync) {
      NotificationSyncEngine()
    }
    Reduce { state, action in
      reduceCore(into: &state, action: action)
    }
    .onChange(of: { Self.savedPushes($0) }) { _, saved in
      Reduce { state, action in
        // What was just restored is saved already.
        if case .savedPushesRestored(saved) = action { return .none }
        return savePushes(&state)
      }
    }
    .onChange(of: \.unreadCount) { _, count in
      Reduce { _, _ in .send(.delegate(.unreadCountChanged(count))) }
    }
  }
}

extension CasePath
where
  Root == NotificationsFeature.Action,
  Value == NotificationPreferencesFeature.Action
{
  /// The preferences' actions inside the notification center's, for scoping a store to them.
  ///
  /// ```swift
  /// let preferencesStore = store.scope(state: \.preferences, action: .preferences)
  /// ```
  public static var preferences: Self {
    Self(NotificationsFeature.Action.preferences) {
      if case .preferences(let action) = $0 { action } else { nil }
    }
  }
}

extension CasePath
where Root == NotificationsFeature.Action, Value == NotificationSyncEngine.Action {
  /// The sync engine's actions inside the notification center's.
  ///
  /// ```swift
  /// Scope(state: \.sync, action: .sync) { NotificationSyncEngine() }
  /// ```
  public static var sync: Self {
    Self(NotificationsFeature.Action.sync) {
      if case .sync(let action) = $0 { action } else { nil }
    }
  }
}
