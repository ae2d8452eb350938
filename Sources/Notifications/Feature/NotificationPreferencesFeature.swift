import Foundation
import Loom

/// Per-type notification preferences: which types are announced as banners, beside the
/// operating system's authorization. Changes are saved optimistically and rolled back if saving
/// fails, one write at a time so that the last choice is the one saved. Alerts cannot be turned
/// off. A change made while `onAppear` reads the saved choices is shown at once and applied on
/// top of them when they arrive, then saved: it neither replaces the other saved choices nor
/// is undone by them.
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
    /// Changes not yet saved, by id, each with the muted set to return to if saving fails. While
    /// any is here exactly one write is in flight; changes made meanwhile are written after it.
    public var pendingSaves: [Int: Set<NotificationType>] = [:]
    /// The id of the last change. Once there is one, the muted set here is newer than any saved
    /// one still being loaded, so a late load leaves it alone.
    public var lastSaveID = 0
    /// While `onAppear` reads the saved choices: the changes made meanwhile (on or off, by type),
    /// applied on top of what is read and saved then; `nil` once read (or when not reading).
    public var changedWhileLoading: [NotificationType: Bool]?

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
    /// The saved muted types, read by `NotificationFeature`'s launch.
    case mutedLoaded(Set<NotificationType>?)
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
      if state.changedWhileLoading == nil { state.changedWhileLoading = [:] }
      return .run { [settings, push] send in
        let muted = await Self.loadMuted(from: settings)
        await send(.loaded(muted: muted, authorization: await push.authorizationStatus()))
      }

    case .loaded(let muted, let authorization):
      state.authorization = authorization
      return apply(loaded: muted, to: &state)

    case .mutedLoaded(let muted):
      return apply(loaded: muted, to: &state)

    case .typeToggled(let type, let isOn):
      guard State.canTurnOff(type) || isOn else {
        state.error = .operationFailed(
          message: "\(type.displayName) notifications cannot be turned off.")
        return .none
      }
      guard state.isOn(type) != isOn else { return .none }
      state.error = nil
      let previous = state.muted
      if isOn { state.muted.remove(type) } else { state.muted.insert(type) }
      if state.changedWhileLoading != nil {
        // Saved once the saved choices are read, on top of them (a save now would replace
        // them, and the read could return it).
        state.changedWhileLoading?[type] = isOn
        return .none
      }
      state.lastSaveID += 1
      let isWriting = !state.pendingSaves.isEmpty
      state.pendingSaves[state.lastSaveID] = previous
      // One write at a time, so the last choice is the one saved whatever order writes would
      // finish in: a change made while a write is in flight is written when it finishes.
      return isWriting ? .none : save(state)

    case .saveFinished(let id, let error):
      // The write saved (or failed to save) every change up to `id`.
      let covered = state.pendingSaves.keys.filter { $0 <= id }
      guard let first = covered.min(), let saved = state.pendingSaves[first] else { return .none }
      for key in covered { state.pendingSaves.removeValue(forKey: key) }
      let next = state.pendingSaves.keys.min()
      if let error {
        state.error = error
        guard let next else {
          // Nothing later is waiting: back to what is saved.
          state.muted = saved
          return .none
        }
        // A later change carries on from here, writing the whole set again; if it fails too,
        // it goes back to what is saved.
        state.pendingSaves[next] = saved
      }
      return next == nil ? .none : save(state)

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

  /// Writes the muted set as it is now, for every change up to the last one.
  func save(_ state: State) -> Effect<Action> {
    let id = state.lastSaveID
    let muted = state.muted.map(\.rawValue).sorted().map(NotificationType.init(rawValue:))
    return .run { [settings] send in
      do {
        try await settings.save(muted, forKey: Self.settingsKey)
        await send(.saveFinished(id: id, error: nil))
      } catch {
        await send(.saveFinished(id: id, error: UserFacingError(error)))
      }
    }
  }

  /// Takes the saved muted types. Changes made while they were read go on top of them, and the
  /// result is saved (rolled back to what was read if saving fails). Outside a read, a late one
  /// is left alone once the person has changed something: what is here is newer, and is what is
  /// being saved.
  func apply(loaded muted: Set<NotificationType>?, to state: inout State) -> Effect<Action> {
    guard let changes = state.changedWhileLoading else {
      guard let muted, state.lastSaveID == 0 else { return .none }
      state.muted = muted.filter(State.canTurnOff)
      return .none
    }
    state.changedWhileLoading = nil
    let saved: Set<NotificationType> = muted?.filter(State.canTurnOff) ?? []
    guard !changes.isEmpty else {
      if muted != nil, state.lastSaveID == 0 { state.muted = saved }
      return .none
    }
    state.muted = saved
    for (type, isOn) in changes {
      if isOn { state.muted.remove(type) } else { state.muted.insert(type) }
    }
    state.lastSaveID += 1
    let isWriting = !state.pendingSaves.isEmpty
    state.pendingSaves[state.lastSaveID] = saved
    return isWriting ? .none : save(state)
  }

  /// The saved muted types, or `nil` if there are none or they cannot be read. Runs on the
  /// caller's executor, as the settings client does. Package-visible for the test that pins
  /// that.
  nonisolated(nonsending) package static func loadMuted(from settings: SettingsClient) async
    -> Set<NotificationType>?
  {
    let muted = try? await settings.load([NotificationType].self, forKey: settingsKey)
    return muted.map(Set.init)
  }
}
