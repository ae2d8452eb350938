import Loom
import Notifications

/// A screen the shell pushes onto its stack when a notification is tapped: the contact, the
/// alert or the ping the notification is about. A ping's screen opens its contact's on top of
/// it (``Action/contactTapped``, which the shell pushes), and every screen can close itself.
///
/// ```swift
/// store.send(.path(.element(id: 0, action: .closeTapped)))
/// ```
public struct DetailFeature: Reducer, Sendable {
  public enum State: Equatable, Sendable {
    case contact(contactID: String)
    case alert(alertID: String)
    case ping(pingID: String, contactID: String)

    /// The screen for what a notification is about (`nil` when it is about nothing).
    public init?(_ target: NotificationTarget) {
      switch target {
      case .none: return nil
      case .contact(let contactID): self = .contact(contactID: contactID)
      case .alert(let alertID): self = .alert(alertID: alertID)
      case .ping(let pingID, let contactID): self = .ping(pingID: pingID, contactID: contactID)
      }
    }
  }

  public enum Action: Sendable, Equatable {
    /// On a ping's screen: the person opened the contact who sent it.
    case contactTapped
    case closeTapped
    case delegate(Delegate)

    /// What the screen asks of the shell.
    public enum Delegate: Sendable, Equatable {
      case openContact(contactID: String)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .contactTapped:
      guard case .ping(_, let contactID) = state else { return .none }
      return .send(.delegate(.openContact(contactID: contactID)))
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .delegate:
      return .none
    }
  }
}

/// The preferences sheet's presentation. What it shows and edits are the notification center's
/// `preferences` (the muted types decide which pushes are announced, sheet or no sheet), so the
/// sheet holds no copy of them: its view reads them through the app store's `notifications`
/// and sends `.notifications(.preferences(…))`. Presenting it reads the OS authorization again.
public struct PreferencesSheet: Reducer, Sendable {
  public struct State: Equatable, Sendable {
    public init() {}
  }

  public enum Action: Sendable, Equatable {
    case doneTapped
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .doneTapped:
      .run { _ in await dismiss() }
    }
  }
}
