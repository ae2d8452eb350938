import Foundation
import Notifications

/// A whole inbox of the earlier JSON format, one document per inbox, as ``InboxFile`` reads it
/// for the import into the SQLite inbox.
///
/// ```json
/// {"schemaVersion": 1, "notifications": [...], "settings": {"notifications.filter": "..."},
///  "cursor": 3, "changes": [...]}
/// ```
public struct InboxDocument: Codable, Sendable, Equatable {
  /// The schema this version writes and reads.
  public static let currentSchemaVersion = 1

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

    public init(cursor: Int, change: NotificationChange) {
      self.cursor = cursor
      self.change = change
    }
  }
}
