import Foundation
import Loom

/// Push registration as a state machine: asks for authorization, registers, and uploads each
/// new device token once, removing the token it replaces; failed uploads are retried with
/// backoff. The token uploaded is saved in the settings, so a later launch whose token is the
/// same does not upload it again.
///
/// ```swift
/// Scope(state: \.pushRegistration, action: .pushRegistration) { PushRegistrationFeature() }
/// store.send(.pushRegistration(.start))
/// ```
public struct PushRegistrationFeature: Reducer {
  public struct State: Equatable, Sendable {
    public enum Phase: Sendable, Hashable {
      case idle
      case requestingAuthorization
      case registered
      case denied
    }

    public var phase: Phase = .idle
    public var authorization: PushClient.AuthorizationStatus = .notDetermined
    /// The token the backend knows: the one this launch uploaded, or else the one a previous
    /// launch saved.
    public var uploadedToken: String?
    /// A token being uploaded, and how many times it failed.
    public var uploading: Upload?

    /// A token upload in progress.
    public struct Upload: Equatable, Sendable {
      public var token: String
      public var failures: Int

      public init(token: String, failures: Int = 0) {
        self.token = token
        self.failures = failures
      }
    }

    public init(uploadedToken: String? = nil) {
      self.uploadedToken = uploadedToken
    }
  }

  public enum Action: Sendable, Equatable {
    case start
    /// The token a previous launch uploaded and saved.
    case savedTokenLoaded(String)
    case authorizationResolved(PushClient.AuthorizationStatus)
    case tokenReceived(String)
    case uploadFinished(String, error: UserFacingError?)
    case retryUpload(String)
  }

  enum CancelID { case tokens, upload }

  /// Uploads are retried this many times before waiting for the next token.
  public static let maximumUploadAttempts = 5
  /// The settings key of the token uploaded.
  public static let settingsKey = "push.uploadedToken"

  @Dependency(\.pushClient) var push
  @Dependency(\.settingsClient) var settings
  @Dependency(\.continuousClock) var clock

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.phase = .requestingAuthorization
      return .run { [push, settings] send in
        // Before any token arrives (tokens come only once authorization is resolved), so a token
        // a previous launch uploaded is not uploaded again.
        if let saved = try? await settings.load(String.self, forKey: Self.settingsKey) {
          await send(.savedTokenLoaded(saved))
        }
        var status = await push.authorizationStatus()
        if status == .notDetermined { status = try await push.requestAuthorization() }
        await send(.authorizationResolved(status))
      } catch: { _, send in
        await send(.authorizationResolved(.denied))
      }

    case .savedTokenLoaded(let token):
      // A token this launch uploaded already is newer than the one saved.
      if state.uploadedToken == nil { state.uploadedToken = token }
      return .none

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
      guard token != state.uploadedToken, token != state.uploading?.token else { return .none }
      state.uploading = State.Upload(token: token)
      return upload(token, replacing: state.uploadedToken)

    case .uploadFinished(let token, let error):
      guard state.uploading?.token == token else { return .none }
      guard let error else {
        state.uploadedToken = token
        state.uploading = nil
        return .none
      }
      let failures = (state.uploading?.failures ?? 0) + 1
      guard error.isRetryable, failures < Self.maximumUploadAttempts else {
        state.uploading = nil
        return .none
      }
      state.uploading = State.Upload(token: token, failures: failures)
      let delay = Duration.seconds(min(60, 1 << failures))
      return .run { [clock] send in
        try await clock.sleep(for: delay)
        await send(.retryUpload(token))
      }
      .cancellable(id: CancelID.upload, cancelInFlight: true)

    case .retryUpload(let token):
      guard state.uploading?.token == token else { return .none }
      return upload(token, replacing: state.uploadedToken)
    }
  }

  func upload(_ token: String, replacing previous: String?) -> Effect<Action> {
    .run { [push, settings] send in
      do {
        try await push.uploadToken(token)
        if let previous, previous != token { try? await push.removeToken(previous) }
        // If saving fails, the next launch only uploads the token again.
        try? await settings.save(token, forKey: Self.settingsKey)
        await send(.uploadFinished(token, error: nil))
      } catch {
        await send(.uploadFinished(token, error: UserFacingError(error)))
      }
    }
    .cancellable(id: CancelID.upload, cancelInFlight: true)
  }
}
