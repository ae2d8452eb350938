import Foundation
import NotificationFeature

/// The whole local inbox: one JSON document per inbox.
///
/// ```json
/// {"schemaVersion": 1, "notifications": [...], "settings": {"notifications.filter": "..."},
///  "cursor": 3, "changes": [...]}
/// ```
public struct InboxDocument: Codable, Sendable, Equatable {
  /// The schema this version writes and reads.
  public static let currentSchemaVersion = 1
  /// How many recent changes are kept for catching up.
  static let changeLogLimit = 500

  public var schemaVersion = InboxDocument.currentSchemaVersion
  /// Newest first.
  public var notifications: [NotificationData] = []
  /// Settings by key, each a JSON document.
  public var settings: [String: Data] = [:]
  /// The cursor of the last change.
  public var cursor = 0
  /// Recent changes, oldest first, for `changesSince`.
  public var changes: [LoggedChange] = []

  public init(notifications: [NotificationData] = []) {
    self.notifications = notifications.sorted(by: NotificationData.isOrderedBefore)
  }

  /// A change with its cursor.
  public struct LoggedChange: Codable, Sendable, Equatable {
    public var cursor: Int
    public var change: NotificationChange
  }

  /// Records a change, trimming the log.
  mutating func record(_ change: NotificationChange) {
    cursor += 1
    changes.append(LoggedChange(cursor: cursor, change: change))
    if changes.count > Self.changeLogLimit { changes.removeFirst(changes.count - Self.changeLogLimit) }
  }
}
