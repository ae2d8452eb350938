import Foundation
import Loom

/// The operating system's push notifications: permission, device tokens, taps.
///
/// ```swift
/// let status = await pushClient.authorizationStatus()
/// for await token in pushClient.deviceTokens() { try await pushClient.uploadToken(token) }
/// ```
///
/// Its asynchronous endpoints are `nonisolated(nonsending)`: they run on the caller's executor
/// (see ``NotificationClient``).
public struct PushClient: Sendable {
  /// The user's answer to the permission prompt.
  public enum AuthorizationStatus: String, Sendable, Hashable, Codable {
    case notDetermined, denied, authorized, provisional, ephemeral
  }

  /// A tapped push notification: its raw payload.
  public struct Response: Sendable, Hashable {
    public var payload: Data

    public init(payload: Data) {
      self.payload = payload
    }
  }

  public var authorizationStatus: nonisolated(nonsending) @Sendable () async -> AuthorizationStatus
  public var requestAuthorization: nonisolated(nonsending) @Sendable () async throws -> AuthorizationStatus
  public var register: nonisolated(nonsending) @Sendable () async -> Void
  public var deviceTokens: @Sendable () -> AsyncStream<String>
  public var responses: @Sendable () -> AsyncStream<Response>
  public var uploadToken: nonisolated(nonsending) @Sendable (String) async throws -> Void
  public var removeToken: nonisolated(nonsending) @Sendable (String) async throws -> Void

  public init(
    authorizationStatus: nonisolated(nonsending) @escaping @Sendable () async -> AuthorizationStatus,
    requestAuthorization: nonisolated(nonsending) @escaping @Sendable () async throws -> AuthorizationStatus,
    register: nonisolated(nonsending) @escaping @Sendable () async -> Void,
    deviceTokens: @escaping @Sendable () -> AsyncStream<String>,
    responses: @escaping @Sendable () -> AsyncStream<Response>,
    uploadToken: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Void,
    removeToken: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Void
  ) {
    self.authorizationStatus = authorizationStatus
    self.requestAuthorization = requestAuthorization
    self.register = register
    self.deviceTokens = deviceTokens
    self.responses = responses
    self.uploadToken = uploadToken
    self.removeToken = removeToken
  }

  public static let unimplemented = PushClient(
    authorizationStatus: Loom.unimplemented(
      "PushClient.authorizationStatus", placeholder: .notDetermined),
    requestAuthorization: Loom.unimplemented("PushClient.requestAuthorization"),
    register: Loom.unimplemented("PushClient.register", placeholder: ()),
    deviceTokens: Loom.unimplemented(
      "PushClient.deviceTokens", placeholder: AsyncStream { $0.finish() }),
    responses: Loom.unimplemented(
      "PushClient.responses", placeholder: AsyncStream { $0.finish() }),
    uploadToken: Loom.unimplemented("PushClient.uploadToken"),
    removeToken: Loom.unimplemented("PushClient.removeToken")
  )

  /// A client with no push support: denied, no tokens, no taps.
  public static let unavailable = PushClient(
    authorizationStatus: { .denied },
    requestAuthorization: { .denied },
    register: {},
    deviceTokens: { AsyncStream { $0.finish() } },
    responses: { AsyncStream { $0.finish() } },
    uploadToken: { _ in },
    removeToken: { _ in }
  )
}

private enum PushClientKey: DependencyKey {
  static let liveValue = PushClient.unavailable
  static let testValue = PushClient.unimplemented
}

extension DependencyValues {
  /// The operating system's push notifications.
  public var pushClient: PushClient {
    get { self[PushClientKey.self] }
    set { self[PushClientKey.self] = newValue }
  }
}
