import Foundation
import Loom

/// Push registration as a state machine: asks for authorization, registers, and keeps the token
/// backend holding exactly the device's current token.
///
/// The state says which token is wanted (``State/deviceToken``), which tokens the backend holds
/// (``State/registeredTokens``) and which it may hold (``State/unconfirmedTokens``). One call to
/// the backend runs at a time; after each call, the next one is chosen from the state alone:
/// upload the wanted token if the backend has not confirmed it, else remove a token it holds or
/// may hold that is not wanted. So a token replaced while its upload is answered is removed once
/// that answer arrives, whatever the order of tokens and answers. A call that fails is retried
/// after an exponential backoff with jitter, never given up, and its error stays in
/// ``State/failure`` until a call succeeds. What the backend holds and may hold is saved in the
/// settings, an upload's token before the call is made, so a later launch whose token is the
/// same does not upload it again, and one whose token changed removes every other token, even
/// one whose upload an earlier launch did not see answered.
///
/// ```swift
/// Scope(state: \.pushRegistration, action: .pushRegistration) { PushRegistrationFeature() }
/// store.send(.pushRegistration(.start))
/// ```
public struct PushRegistrationFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// Where the registration with the operating system is.
    public enum Phase: Sendable, Hashable {
      /// Registration has not started.
      case idle
      /// The person is being asked to allow notifications.
      case requestingAuthorization
      /// Notifications are allowed, and the device's tokens are read.
      case registered
      /// Notifications are not allowed: no token is read.
      case denied
    }

    /// A call to the token backend.
    public enum Call: Equatable, Sendable {
      /// Adds a token to the backend.
      case upload(String)
      /// Removes a token from the backend.
      case remove(String)
    }

    /// The calls that failed in a row, since the last call that succeeded.
    public struct Failure: Equatable, Sendable {
      /// The error of the last call that failed, for the shell to show.
      public var error: UserFacingError
      /// How many calls failed in a row; the next retry waits longer for each.
      public var count: Int

      /// Creates the failure of `count` calls in a row, the last with `error`.
      public init(error: UserFacingError, count: Int = 1) {
        self.error = error
        self.count = count
      }
    }

    /// Where the registration with the operating system is.
    public var phase: Phase = .idle
    /// Whether the person allows notifications.
    public var authorization: PushClient.AuthorizationStatus = .notDetermined
    /// The device's current token: the only one the backend must end with.
    public var deviceToken: String?
    /// The tokens the backend holds, as far as this device knows: the ones whose upload it
    /// answered and that were not removed since, in this launch or an earlier one.
    public var registeredTokens: Set<String>
    /// The tokens the backend may hold without having confirmed them: an upload that failed, or
    /// that an earlier launch made and did not see answered. Each is removed, unless it is the
    /// device's token, which is uploaded again.
    public var unconfirmedTokens: Set<String>
    /// The one call to the token backend in progress, if any.
    public var call: Call?
    /// The calls that failed since the last success, while they are retried; `nil` once a
    /// call succeeds.
    public var failure: Failure?

    /// The call that brings the backend to hold exactly ``deviceToken``, or `nil` when it does
    /// (or no token is known yet): the wanted token is uploaded first, so the device is never
    /// without a registered token, then each other token is removed.
    public var nextCall: Call? {
      guard let deviceToken else { return nil }
      guard registeredTokens.contains(deviceToken) else { return .upload(deviceToken) }
      let stale = registeredTokens.union(unconfirmedTokens).subtracting([deviceToken])
      return stale.min().map(Call.remove)
    }

    /// Records that the backend answered `call` with a success.
    mutating func apply(_ call: Call) {
      switch call {
      case .upload(let token):
        registeredTokens.insert(token)
        unconfirmedTokens.remove(token)
      case .remove(let token):
        registeredTokens.remove(token)
        unconfirmedTokens.remove(token)
      }
    }

    /// What is saved in the settings: what the backend holds, and what it may hold, with the
    /// token of an upload about to be made.
    func saved(uploading token: String? = nil) -> SavedTokens {
      let unconfirmed = token.map { unconfirmedTokens.union([$0]) } ?? unconfirmedTokens
      return SavedTokens(registered: registeredTokens.sorted(), unconfirmed: unconfirmed.sorted())
    }

    /// Creates the state of a registration whose backend holds `registeredTokens` and may hold
    /// `unconfirmedTokens`.
    public init(registeredTokens: Set<String> = [], unconfirmedTokens: Set<String> = []) {
      self.registeredTokens = registeredTokens
      self.unconfirmedTokens = unconfirmedTokens
    }
  }

  /// The tokens the backend holds and may hold, as the settings keep them across launches.
  public struct SavedTokens: Codable, Equatable, Sendable {
    /// The tokens whose upload the backend confirmed.
    public var registered: [String]
    /// The tokens the backend may hold without having confirmed them.
    public var unconfirmed: [String]

    /// Creates the saved tokens of a backend that holds `registered` and may hold
    /// `unconfirmed`.
    public init(registered: [String], unconfirmed: [String] = []) {
      self.registered = registered
      self.unconfirmed = unconfirmed
    }
  }

  public enum Action: Sendable, Equatable {
    /// Loads the saved tokens, asks for authorization, and registers.
    case start
    /// The tokens an earlier launch left on the backend, as it saved them.
    case savedTokensLoaded(SavedTokens)
    /// The person allowed notifications, or not.
    case authorizationResolved(PushClient.AuthorizationStatus)
    /// The operating system gave the device's current token.
    case tokenReceived(String)
    /// A call to the token backend was answered: `error` is `nil` if it succeeded.
    case callFinished(State.Call, error: UserFacingError?)
    /// The backoff after a failed call is over: the next call is made.
    case retry
  }

  enum CancelID { case tokens, retry }

  /// The settings key of the tokens the backend holds.
  public static let settingsKey = "push.uploadedToken"

  @Dependency(\.pushClient) var push
  @Dependency(\.settingsClient) var settings
  @Dependency(\.continuousClock) var clock
  @Dependency(\.randomNumberGenerator) var random

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.phase = .requestingAuthorization
      return .run { [push, settings] send in
        // Before any token arrives (tokens come only once authorization is resolved), so a token
        // an earlier launch uploaded is not uploaded again.
        if let saved = await Self.loadSavedTokens(settings) {
          await send(.savedTokensLoaded(saved))
        }
        var status = await push.authorizationStatus()
        if status == .notDetermined { status = try await push.requestAuthorization() }
        await send(.authorizationResolved(status))
      } catch: { _, send in
        await send(.authorizationResolved(.denied))
      }

    case .savedTokensLoaded(let saved):
      state.registeredTokens.formUnion(saved.registered)
      state.unconfirmedTokens.formUnion(
        saved.unconfirmed.filter { !state.registeredTokens.contains($0) })
      return makeNextCall(&state)

    case .authorizationResolved(let status):
      state.authorization = status
      guard status != .denied, status != .notDetermined else {
        state.phase = .denied
        return .none
      }
      state.phase = .registered
      return .run { [push] send in
        await push.register()
        for await token in push.deviceTokens() { await send(.tokenReceived(token)) }
      }
      .cancellable(id: CancelID.tokens, cancelInFlight: true)

    case .tokenReceived(let token):
      state.deviceToken = token
      return makeNextCall(&state)

    case .callFinished(let call, let error):
      state.call = nil
      if let error, !Self.isDone(call, despite: error) {
        // A failed call may still have reached the backend: whether it holds the token is not
        // known. Unconfirmed, the token is removed unless it is the device's, which is uploaded
        // again (also after a removal: the token may be wanted again meanwhile).
        switch call {
        case .upload(let token):
          state.unconfirmedTokens.insert(token)
        case .remove(let token):
          state.registeredTokens.remove(token)
          state.unconfirmedTokens.insert(token)
        }
        let count = (state.failure?.count ?? 0) + 1
        state.failure = State.Failure(error: error, count: count)
        let delay = NotificationFeature.backoff(attempt: count, random: random)
        return .run { [clock] send in
          try await clock.sleep(for: delay)
          await send(.retry)
        }
        .cancellable(id: CancelID.retry, cancelInFlight: true)
      }
      state.failure = nil
      state.apply(call)
      return makeNextCall(&state)

    case .retry:
      return makeNextCall(&state)
    }
  }

  /// Starts the next call the state asks for, unless a call is in progress: its answer starts
  /// the one after. A retry waiting for its backoff is replaced by the call started now.
  func makeNextCall(_ state: inout State) -> Effect<Action> {
    guard state.call == nil, let call = state.nextCall else { return .none }
    state.call = call
    // Saved before an upload is made: the backend may hold its token even if no answer arrives.
    let before = state.saved(
      uploading: { if case .upload(let token) = call { token } else { nil } }())
    var after = state
    after.apply(call)
    let saved = after.saved()
    return .merge(
      .cancel(id: CancelID.retry),
      .run { [push, settings] send in
        do {
          switch call {
          case .upload(let token):
            try? await settings.save(before, forKey: Self.settingsKey)
            try await push.uploadToken(token)
          case .remove(let token): try await push.removeToken(token)
          }
        } catch {
          await send(.callFinished(call, error: UserFacingError(error)))
          return
        }
        // Saved before the answer, so the next call starts only once it is saved. If saving
        // fails, the next launch only uploads or removes a token again.
        try? await settings.save(saved, forKey: Self.settingsKey)
        await send(.callFinished(call, error: nil))
      }
    )
  }

  /// Whether `call` reached its goal though it failed with `error`: a token to remove that the
  /// backend does not know is removed.
  static func isDone(_ call: State.Call, despite error: UserFacingError) -> Bool {
    if case .remove = call, error == .notFound { return true }
    return false
  }

  /// The tokens saved, or the single token an earlier version saved under the same key. Runs
  /// on the caller's executor, as the settings client does.
  nonisolated(nonsending) static func loadSavedTokens(_ settings: SettingsClient) async -> SavedTokens? {
    if let tokens = try? await settings.load(SavedTokens.self, forKey: settingsKey) {
      return tokens
    }
    let token = (try? await settings.load(String.self, forKey: settingsKey)).flatMap { $0 }
    return token.map { SavedTokens(registered: [$0]) }
  }
}
