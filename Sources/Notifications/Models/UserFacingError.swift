/// An error shown to a person: a sentence they can read, and whether retrying can help.
///
/// ```swift
/// UserFacingError.server(status: 503).isRetryable   // true
/// UserFacingError.unauthorized.message             // "Your session has expired. Sign in again."
/// ```
///
/// It is `Codable` (Swift's synthesized shape, such as `{"server":{"status":503}}` or
/// `{"network":{}}`) because the feature persists it; the shape is pinned by tests.
public enum UserFacingError: Error, Sendable, Hashable, Codable {
  /// The device is offline or the server could not be reached.
  case network
  /// The session expired or was revoked.
  case unauthorized
  /// The thing acted on no longer exists.
  case notFound
  /// The server answered with an unexpected HTTP status.
  case server(status: Int)
  /// The server sent something the app cannot read; `reason` says what.
  case invalidData(reason: String)
  /// Anything else, with the sentence to show.
  case operationFailed(message: String)

  /// A sentence for the person using the app.
  ///
  /// ```swift
  /// Text(error.message)
  /// ```
  public var message: String {
    switch self {
    case .network: "You appear to be offline. Changes will be sent when you reconnect."
    case .unauthorized: "Your session has expired. Sign in again."
    case .notFound: "That notification no longer exists."
    case .server(429): "The server had a problem (429): too many requests. Try again shortly."
    case .server(let status) where (500...599).contains(status):
      "The server had a problem (\(status)). Try again later."
    case .server(let status): "The server refused the request (\(status))."
    case .invalidData(let reason):
      // The reason is a clause of the sentence, without a final period of its own.
      "The server sent something unexpected: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)."
    case .operationFailed(let message): message
    }
  }

  /// Whether trying again later can succeed: network failures, rate limits (429) and server
  /// errors (5xx). Everything else fails the same way again.
  ///
  /// ```swift
  /// if error.isRetryable { outbox.append(change) } else { rollBack(change) }
  /// ```
  public var isRetryable: Bool {
    switch self {
    case .network: true
    case .server(let status): status == 429 || (500...599).contains(status)
    case .unauthorized, .notFound, .invalidData, .operationFailed: false
    }
  }
}

extension UserFacingError {
  /// Maps any error to a user-facing one: user-facing errors as they are, cancellation and
  /// everything else as a failed operation.
  public init(_ error: any Error) {
    if let error = error as? UserFacingError {
      self = error
    } else if error is DeletedNotificationError {
      self = .notFound
    } else {
      self = .operationFailed(message: "Something went wrong: \(error)")
    }
  }

  /// A change that kept failing and was given up: it has been undone.
  public static let outboxGaveUp = UserFacingError.operationFailed(
    message: "A change could not be sent after several tries and was undone.")
}
