import Foundation
import Loom
import Notifications

/// The app shell that hosts the notification center: tabs, a badge from the unread count, a
/// navigation stack onto which a tapped notification pushes the screen of what it is about
/// (``DetailFeature``), the preferences sheet and clear-all's confirmation (each presentation
/// state), and what the feature asks to show: a queue of banners (the first is shown until
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
    /// The screens pushed over the tabs: one per notification tapped, and a ping's contact.
    public var path = StackState<DetailFeature.State>()
    /// The preferences sheet, while it is shown.
    @Presents public var preferencesSheet: PreferencesSheet.State?
    /// Clear-all's question, while it is asked.
    @Presents public var confirmation: ConfirmationDialogState<Action.Confirmation>?
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
    case preferencesTapped
    /// The person asked to delete every notification: the shell asks first.
    case clearAllTapped
    case notifications(NotificationFeature.Action)
    case pushRegistration(PushRegistrationFeature.Action)
    case path(StackActionOf<DetailFeature>)
    case preferencesSheet(PresentationAction<PreferencesSheet.Action>)
    case confirmation(PresentationAction<Confirmation>)

    /// The buttons of clear-all's confirmation that do something (cancel only dismisses it).
    public enum Confirmation: Sendable, Equatable {
      case clearAll
    }
  }

  /// Clear-all's question.
  public static let clearAllConfirmation = ConfirmationDialogState<Action.Confirmation>(
    titleVisibility: .visible, title: "Delete all notifications?",
    message: "They are deleted on every device.",
    buttons: [
      ButtonState(role: .destructive, action: .clearAll, label: "Delete All"),
      ButtonState(role: .cancel, label: "Cancel"),
    ])

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

      case .preferencesTapped:
        state.preferencesSheet = PreferencesSheet.State()
        return .send(.notifications(.preferences(.onAppear)))

      case .clearAllTapped:
        state.confirmation = Self.clearAllConfirmation
        return .none

      case .confirmation(.presented(.clearAll)):
        return .send(.notifications(.clearAll))

      case .path(.element(id: _, action: .delegate(.openContact(let contactID)))):
        state.path.append(.contact(contactID: contactID))
        return .none

      case .notifications(.delegate(let delegate)):
        route(delegate, in: &state)
        return .none

      case .notifications(.dismissError):
        state.error = nil
        return .none

      case .notifications, .pushRegistration, .path, .preferencesSheet, .confirmation:
        return .none
      }
    }
    .forEach(\.path, action: .path) { DetailFeature() }
    .ifLet(\.$preferencesSheet, action: .preferencesSheet) { PreferencesSheet() }
    .ifLet(\.$confirmation, action: .confirmation)
  }

  func route(_ delegate: NotificationFeature.Action.Delegate, in state: inout State) {
    switch delegate {
    case .navigateToContact(let contactID):
      state.path.append(.contact(contactID: contactID))
    case .navigateToAlert(let alertID):
      state.path.append(.alert(alertID: alertID))
    case .navigateToPing(let pingID, let contactID):
      state.path.append(.ping(pingID: pingID, contactID: contactID))
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

extension CasePath where Root == AppFeature.Action {
  /// The stack's actions inside the app's.
  public static var path: CasePath<Root, StackActionOf<DetailFeature>> {
    .init(Root.path) { if case .path(let action) = $0 { action } else { nil } }
  }

  /// The preferences sheet's actions inside the app's.
  public static var preferencesSheet: CasePath<Root, PresentationAction<PreferencesSheet.Action>> {
    .init(Root.preferencesSheet) {
      if case .preferencesSheet(let action) = $0 { action } else { nil }
    }
  }

  /// Clear-all's confirmation's actions inside the app's.
  public static var confirmation: CasePath<Root, PresentationAction<Root.Confirmation>> {
    .init(Root.confirmation) { if case .confirmation(let action) = $0 { action } else { nil } }
  }
}
