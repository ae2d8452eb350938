import Loom

/// Who is signed in.
///
/// ```swift
/// let userID = await authClient.currentUserID()
/// ```
///
/// `currentUserID` is `nonisolated(nonsending)`: it runs on the caller's executor (see
/// ``NotificationClient``).
public struct AuthClient: Sendable {
  public var currentUserID: nonisolated(nonsending) @Sendable () async -> String?

  public init(currentUserID: nonisolated(nonsending) @escaping @Sendable () async -> String?) {
    self.currentUserID = currentUserID
  }

  public static let unimplemented = AuthClient(
    currentUserID: Loom.unimplemented("AuthClient.currentUserID", placeholder: nil))
}

private enum AuthClientKey: DependencyKey {
  static let liveValue = AuthClient { nil }
  static let testValue = AuthClient.unimplemented
}

extension DependencyValues {
  /// The signed-in user.
  public var authClient: AuthClient {
    get { self[AuthClientKey.self] }
    set { self[AuthClientKey.self] = newValue }
  }
}
