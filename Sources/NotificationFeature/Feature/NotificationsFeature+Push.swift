import Foundation
import Loom

extension NotificationsFeature {
  /// Marks a notification read and navigates to its screen, or says in state why it cannot.
  func tap(_ id: String, in state: inout State) -> Effect<Action> {
    guard let notification = state.notifications[id: id] else {
      state.lastTap = .notFound(id: id)
      return .none
    }
    let markRead = setRead(id, true, in: &state)
    guard let navigation = Self.navigation(for: notification.target) else {
      state.lastTap = .nothingToOpen(id: id)
      return markRead
    }
    state.lastTap = .navigated(id: id)
    return .merge(markRead, .send(.delegate(navigation)))
  }

  static func navigation(for target: NotificationTarget) -> Action.Delegate? {
    switch target {
    case .none: nil
    case .contact(let contactID): .navigateToContact(contactID: contactID)
    case .alert(let alertID): .navigateToAlert(alertID: alertID)
    case .ping(let pingID, let contactID): .navigateToPing(pingID: pingID, contactID: contactID)
    }
  }

  /// Parses a push payload; inserts the notification (once, even if the feed has it too) and,
  /// for a tap, opens it; for a push in the foreground, asks the shell to present a banner.
  func receivePush(_ payload: Data, in state: inout State, tapped: Bool) -> Effect<Action> {
    let notification: NotificationData
    do {
      notification = try PushPayloadParser.parse(payload, receivedAt: date.now)
    } catch {
      state.lastPushParseError = error
      return .send(.delegate(.pushParseFailed(error)))
    }
    state.lastPushParseError = nil
    upsert(notification, into: &state)
    if tapped {
      return tap(notification.id, in: &state)
    }
    guard state.isInForeground else { return .none }
    if state.isLoadingPreferences {
      // Whether its type is muted is not known yet: it is announced, or not, once it is.
      state.heldBanners.append(notification)
      return .none
    }
    guard let options = bannerOptions(for: notification, in: state) else { return .none }
    return .send(.delegate(.presentBanner(notification, options)))
  }

  /// Silent notifications are never announced; muted types are not, unless the notification
  /// is high priority and not a system notification.
  func bannerOptions(for notification: NotificationData, in state: State) -> BannerOptions? {
    switch notification.priority {
    case .silent:
      return nil
    case .regular:
      return state.mutedTypes.contains(notification.type) ? nil : [.banner, .sound, .badge]
    case .high:
      if state.mutedTypes.contains(notification.type), notification.type == .system { return nil }
      return [.banner, .sound, .badge]
    }
  }
}
