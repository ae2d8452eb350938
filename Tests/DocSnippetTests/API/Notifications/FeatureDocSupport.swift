// Shared scaffolding for the snippets of the doc comments of Notifications and
// NotificationClients: a builder that keeps the value of each expression a snippet shows, small
// stand-ins for the platform types the snippets name, and sample notifications.

import Foundation
import Notifications

/// Collects the value of every expression statement in its closure, so a snippet can show a
/// bare expression with the value it gives in a comment, as the reference does
/// (`NotificationType.alert.colorRole   // .critical`), and the test can check that value.
@resultBuilder
enum FeatureDocValues {
  static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
  static func buildBlock(_ parts: [Any]...) -> [Any] { parts.flatMap { $0 } }
}

/// The values of the expression statements of `body`, in order.
func featureDocValues(@FeatureDocValues _ body: () throws -> [Any]) rethrows -> [Any] {
  try body()
}

/// Stand-ins, with the shape the snippets use, for the SwiftUI, UserNotifications and logging
/// types the doc comments name. They are nested so they never clash with the stand-ins of the
/// guides; a suite brings them in with a `typealias`.
enum FeatureDocStandIns {
  struct Text: Equatable {
    var content: String
    init(_ content: String) { self.content = content }
  }

  struct Image: Equatable {
    var systemName: String
    init(systemName: String) { self.systemName = systemName }
  }

  enum Color: Equatable {
    case red, accentColor, secondary
  }

  /// A logger that keeps what it is told.
  final class Logger {
    private(set) var warnings: [String] = []
    func warning(_ message: String) { warnings.append(message) }
  }

  /// The path to a tapped notification's `userInfo` in UserNotifications.
  struct NotificationResponse {
    struct Content { var userInfo: [AnyHashable: Any] }
    struct Request { var content: Content }
    struct Delivered { var request: Request }
    var notification: Delivered

    init(userInfo: [AnyHashable: Any]) {
      notification = Delivered(request: Request(content: Content(userInfo: userInfo)))
    }
  }
}

/// Sample notifications for the snippets.
enum FeatureDocSamples {
  static let ping = NotificationData(
    id: "n1", type: .ping, title: "Ping", message: "Ada pinged you",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000),
    target: .ping(pingID: "p1", contactID: "c1"), threadID: "ada")
  static let alert = NotificationData(
    id: "n2", type: .alert, title: "Battery low", message: "Sensor 4 is at 5%.",
    timestamp: Date(timeIntervalSince1970: 1_699_999_000), target: .alert(alertID: "a1"),
    details: .alert(.init(severity: "high", location: "Gate 4")), priority: .high)
  static let added = NotificationData(
    id: "n3", type: .added, title: "Grace was added", message: "",
    timestamp: Date(timeIntervalSince1970: 1_699_998_000), isRead: true,
    target: .contact(contactID: "c2"),
    details: .contact(.init(name: "Grace", role: "Admin", action: "added")), threadID: "ada")
  static let saved = NotificationData(
    id: "local-1", type: .system, title: "Saved", message: "",
    timestamp: Date(timeIntervalSince1970: 1_699_997_000), priority: .silent, isLocal: true)

  /// Newest first.
  static let notifications = [ping, alert, added, saved]
}

extension Array where Element == String {
  /// A stream of the strings that then finishes, as a push client's device tokens.
  var featureDocStream: AsyncStream<String> {
    AsyncStream { continuation in
      for token in self { continuation.yield(token) }
      continuation.finish()
    }
  }
}

/// A fresh, empty folder for one test, and a way to remove it.
struct FeatureDocFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("FeatureDocSnippets-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
