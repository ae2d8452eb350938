import Foundation
import Loom
import Notifications

/// The app shell that hosts the notification center: tabs, a badge from the unread count,
/// routing of the feature's delegate actions to a tab and a selected contact, alert or ping, and
/// what the feature asks to show: a queue of banners (the first is shown until
/// ``Action/bannerDismissed``) and the current error (the newest the feature reported, a push it
/// could not read included, until the feature's `dismissError`). Shells render this state and
/// only send actions.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) { AppFeature() }
/// store.send(.launched)
/// ```
public struct AppFeature: Reducer {
  public enum Tab: String, Sendable, Hashable, CaseIterable {
    case home, contacts, notifications, settings
  }

  public struct State: Equatable, Sendable {
    public var selectedTab: Tab = .home
    public var notifications: NotificationFeature.State
    /// The unread count, for the notifications tab's badge.
    public var unreadCount = 0
    public var selectedContactID: String?
    public var selectedAlertID: String?
    public var selectedPingID: String?
    /// Whether the shell has launched and can route taps.
    public var isReady = false
    /// Taps that arrived before the shell was ready, handled once it is.
    public var bufferedTaps: [Data] = []
    /// Push permission and device-token registration.
    public var pushRegistration = PushRegistrationFeature.State()
    /// Banners the feature announced, oldest first; the first is the one shown.
    public var banners: [Banner] = []
    /// The error shown: the newest one the feature reported, until it is dismissed.
    public var error: ShellError?

    public init(notifications: NotificationFeature.State = .init()) {
      self.notifications = notifications
    }

    /// The banner shown: the oldest one not dismissed yet.
    public var currentBanner: Banner? { banners.first }

    /// The badge text: "" for 0, "1"…"99", "99+".
    public var badgeText: String {
      switch unreadCount {
      case ...0: ""
      case 1...99: "\(unreadCount)"
      default: "99+"
      }
    }
  }

  /// A notification announced in the foreground, and how to announce it.
  public struct Banner: Equatable, Sendable {
    public var notification: NotificationData
    public var options: NotificationFeature.BannerOptions

    public init(notification: NotificationData, options: NotificationFeature.BannerOptions) {
      self.notification = notification
      self.options = options
    }
  }

  /// An error the shell shows: one the feature reported, or a push it could not read.
  public enum ShellError: Equatable, Sendable {
    case feature(UserFacingError)
    case invalidPush(PushParseError)

    /// The sentence to show.
    public var message: String {
      switch self {
      case .feature(let error): error.message
      case .invalidPush(let error): error.description
      }
    }
  }

  public enum Action: Sendable, Equatable {
    case launched
    case tabSelected(Tab)
    /// The person dismissed the banner shown; the next one in the queue shows.
    case bannerDismissed
    case pushTapped(Data)
    case notifications(NotificationFeature.Action)
    case pushRegistration(PushRegistrationFeature.Action)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.notifications, action: .notifications) {
      NotificationFeature()
    }
    Scope(state: \.pushRegistration, action: .pushRegistration) {
      PushRegistrationFeature()
    }
    Reduce { state, action in
      switch action {
      case .launched:
        state.isReady = true
        let taps = state.bufferedTaps
        state.bufferedTaps = []
        return .merge(
          .merge(taps.map { .send(.notifications(.notificationResponse($0))) }),
          .send(.pushRegistration(.start)))

      case .tabSelected(let tab):
        state.selectedTab = tab
        return .none

      case .bannerDismissed:
        if !state.banners.isEmpty { state.banners.removeFirst() }
        return .none

      case .pushTapped(let payload):
        guard state.isReady else {
          state.bufferedTaps.append(payload)
          return .none
        }
        return .send(.notifications(.notificationResponse(payload)))

      case .notifications(.delegate(let delegate)):
        route(delegate, in: &state)
        return .none

      case .notifications(.dismissError):
        state.error = nil
        return .none

      case .notifications, .pushRegistration:
        return .none
      }
    }
  }

  func route(_ delegate: NotificationFeature.Action.Delegate, in state: inout State) {
    switch delegate {
    case .navigateToContact(let contactID):
      state.selectedTab = .contacts
      state.selectedContactID = contactID
    case .navigateToAlert(let alertID):
      state.selectedTab = .home
      state.selectedAlertID = alertID
    case .navigateToPing(let pingID, let contactID):
      state.selectedTab = .contacts
      state.selectedContactID = contactID
      state.selectedPingID = pingID
    case .unreadCountChanged(let count):
      state.unreadCount = count
    case .presentBanner(let notification, let options):
      state.banners.append(Banner(notification: notification, options: options))
    case .errorOccurred(let error):
      state.error = .feature(error)
    case .pushParseFailed(let error):
      state.error = .invalidPush(error)
    }
  }
}

extension CasePath where Root == AppFeature.Action, Value == NotificationFeature.Action {
  /// The notification center's actions inside the app's.
  public static var notifications: Self {
    Self(AppFeature.Action.notifications) {
      if case .notifications(let action) = $0 { action } else { nil }
    }
  }
}

extension CasePath where Root == AppFeature.Action, Value == PushRegistrationFeature.Action {
  /// Push registration's actions inside the app's.
  public static var pushRegistration: Self {
    Self(AppFeature.Action.pushRegistration) {
      if case .pushRegistration(let action) = $0 { action } else { nil }
    }
  }
}
