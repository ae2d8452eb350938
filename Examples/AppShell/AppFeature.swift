import Foundation
import Loom
import NotificationFeature

/// The app shell that hosts the notification center: tabs, a badge from the unread count, and
/// routing of the feature's delegate actions to a tab and a selected contact, alert or ping.
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
    public var notifications: NotificationsFeature.State
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

    public init(notifications: NotificationsFeature.State = .init()) {
      self.notifications = notifications
    }

    /// The badge text: "" for 0, "1"…"99", "99+".
    public var badgeText: String {
      switch unreadCount {
      case ...0: ""
      case 1...99: "\(unreadCount)"
      default: "99+"
      }
    }
  }

  public enum Action: Sendable, Equatable {
    case launched
    case tabSelected(Tab)
    case pushTapped(Data)
    case notifications(NotificationsFeature.Action)
    case pushRegistration(PushRegistrationFeature.Action)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.notifications, action: .notifications) {
      NotificationsFeature()
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

      case .pushTapped(let payload):
        guard state.isReady else {
          state.bufferedTaps.append(payload)
          return .none
        }
        return .send(.notifications(.notificationResponse(payload)))

      case .notifications(.delegate(let delegate)):
        route(delegate, in: &state)
        return .none

      case .notifications, .pushRegistration:
        return .none
      }
    }
  }

  func route(_ delegate: NotificationsFeature.Action.Delegate, in state: inout State) {
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
    case .presentBanner, .errorOccurred, .pushParseFailed:
      break
    }
  }
}

extension CasePath where Root == AppFeature.Action, Value == NotificationsFeature.Action {
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
