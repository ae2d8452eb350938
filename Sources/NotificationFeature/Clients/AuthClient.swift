import Loom

/// Who is signed in.
///
/// ```swift
/// let userID = await authClient.currentUserID()
/// ```
public struct AuthClient: Sendable {
  public var currentUserID: @Sendable () async -> String?

  public init(currentUserID: @escaping @Sendable () async -> String?) {
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
