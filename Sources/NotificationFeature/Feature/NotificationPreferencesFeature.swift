import Foundation
import Loom

/// Per-type notification preferences: which types are announced as banners, beside the
/// operating system's authorization. Changes are saved optimistically and rolled back if saving
/// fails. Alerts cannot be turned off.
///
/// ```swift
/// store.send(.preferences(.typeToggled(.ping, isOn: false)))
/// ```
public struct NotificationPreferencesFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// Types whose pushes are not announced as banners.
    public var muted: Set<NotificationType> = []
    /// The operating system's answer to the permission prompt.
    public var authorization: PushClient.AuthorizationStatus = .notDetermined
    /// The error to show, until the next change.
    public var error: UserFacingError?
    /// Saves in flight, with the muted set to return to if they fail.
    public var pendingSaves: [Int: Set<NotificationType>] = [:]
    /// The id of the last save started.
    public var lastSaveID = 0

    public init(muted: Set<NotificationType> = []) {
      self.muted = muted
    }

    /// Whether the type's banners are on.
    public func isOn(_ type: NotificationType) -> Bool { !muted.contains(type) }

    /// Types a person can turn off.
    public static func canTurnOff(_ type: NotificationType) -> Bool { type != .alert }
  }

  public enum Action: Sendable, Equatable {
    case onAppear
    case loaded(muted: Set<NotificationType>?, authorization: PushClient.AuthorizationStatus)
    case typeToggled(NotificationType, isOn: Bool)
    case saveFinished(id: Int, error: UserFacingError?)
    case requestAuthorizationTapped
    case authorizationChanged(PushClient.AuthorizationStatus)
  }

  /// The settings key of the muted types.
  public static let settingsKey = "notifications.muted"

  @Dependency(\.settingsClient) var settings
  @Dependency(\.pushClient) var push

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { [settings, push] send in
        let muted = try? await settings.load([NotificationType].self, forKey: Self.settingsKey)
        await send(.loaded(muted: muted.map(Set.init), authorization: await push.authorizationStatus()))
      }

    case .loaded(let muted, let authorization):
      if let muted { state.muted = muted.filter(State.canTurnOff) }
      state.authorization = authorization
      return .none

    case .typeToggled(let type, let isOn):
      guard State.canTurnOff(type) || isOn else {
        state.error = .operationFailed(message: "\(type.displayName) notifications cannot be turned off.")
        return .none
      }
      guard state.isOn(type) != isOn else { return .none }
      state.error = nil
      let previous = state.muted
      if isOn { state.muted.remove(type) } else { state.muted.insert(type) }
      state.lastSaveID += 1
      let id = state.lastSaveID
      state.pendingSaves[id] = previous
      let muted = state.muted.map(\.rawValue).sorted().map(NotificationType.init(rawValue:))
      return .run { [settings] send in
        do {
          try await settings.save(muted, forKey: Self.settingsKey)
          await send(.saveFinished(id: id, error: nil))
        } catch {
          await send(.saveFinished(id: id, error: UserFacingError(error)))
        }
      }

    case .saveFinished(let id, let error):
      guard let previous = state.pendingSaves.removeValue(forKey: id) else { return .none }
      guard let error else { return .none }
      // Roll back only if no later change is still waiting; a later one carries on from here.
      if state.pendingSaves.keys.allSatisfy({ $0 < id }) {
        state.muted = previous
      }
      state.error = error
      return .none

    case .requestAuthorizationTapped:
      return .run { [push] send in
        await send(.authorizationChanged(try await push.requestAuthorization()))
      } catch: { _, send in
        await send(.authorizationChanged(.denied))
      }

    case .authorizationChanged(let status):
      state.authorization = status
      return .none
    }
  }
}
