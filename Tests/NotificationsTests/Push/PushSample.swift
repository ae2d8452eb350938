import Foundation
import Notifications

/// Shared helpers of the push parser tests: a fixed receive time and one-line parse calls.
enum PushSample {
  /// When every test push "arrives": 2023-11-14T22:13:20Z.
  static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

  /// Parses a JSON payload received at ``receivedAt``.
  static func parse(_ json: String) throws(PushParseError) -> NotificationData {
    try PushPayloadParser.parse(Data(json.utf8), receivedAt: receivedAt)
  }

  /// Parses a `userInfo` dictionary received at ``receivedAt``.
  static func parse(userInfo: [AnyHashable: Any]) throws(PushParseError) -> NotificationData {
    try PushPayloadParser.parse(userInfo: userInfo, receivedAt: receivedAt)
  }

  /// The error a JSON payload is rejected with, or `nil` if it parses.
  static func error(_ json: String) -> PushParseError? {
    error(Data(json.utf8))
  }

  /// The error payload bytes are rejected with, or `nil` if they parse.
  static func error(_ data: Data) -> PushParseError? {
    do {
      _ = try PushPayloadParser.parse(data, receivedAt: receivedAt)
      return nil
    } catch {
      return error
    }
  }

  /// The error a `userInfo` dictionary is rejected with, or `nil` if it parses.
  static func error(userInfo: [AnyHashable: Any]) -> PushParseError? {
    do {
      _ = try PushPayloadParser.parse(userInfo: userInfo, receivedAt: receivedAt)
      return nil
    } catch {
      return error
    }
  }
}
