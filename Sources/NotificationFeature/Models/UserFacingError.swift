/// An error shown to a person, with a sentence they can read and whether retrying can help.
///
/// ```swift
/// UserFacingError.server(status: 503).isRetryable   // true
/// ```
public enum UserFacingError: Error, Sendable, Hashable, Codable {
  case network
  case unauthorized
  case notFound
  case server(status: Int)
  case invalidData(reason: String)
  case operationFailed(message: String)

  /// A sentence for the person using the app.
  public var message: String {
    switch self {
    case .network: "You appear to be offline. Changes will be sent when you reconnect."
    case .unauthorized: "Your session has expired. Sign in again."
    case .notFound: "That notification no longer exists."
    case .server(let status): "The server had a problem (\(status)). Try again later."
    case .invalidData(let reason): "The server sent something unexpected: \(reason)."
    case .operationFailed(let message): message
    }
  }

  /// Whether trying again later can succeed: network failures, rate limits and server errors.
  public var isRetryable: Bool {
    switch self {
    case .network: true
    case .server(let status): status == 429 || (500...599).contains(status)
    case .unauthorized, .notFound, .invalidData, .operationFailed: false
    }
  }
}
