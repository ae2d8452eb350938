import Foundation
import Notifications

/// The feature's ``ChangeLog`` as rows of the inbox database ("inbox 4"): one row per record
/// in `change_records`, one per unlisted push or local notice in `unlisted_notifications`, each
/// row under the scope (a server and account) whose log it is.
///
/// A record is its JSON shape (the `Codable` form the feature saved its log in before), with
/// the columns SQL needs beside it: `sequence`, its place in the log, and `id`, its change id,
/// which a write finds it by. Columns for its intent and status would let SQL ask about them,
/// but nothing does: the log is loaded whole at launch and replayed in memory, and the JSON
/// follows the model when a new intent or status is added, with no migration.
///
/// A record saved again keeps its `sequence` (an upsert that updates the row, never one that
/// replaces it), so a record whose status changes stays before the records made after it.
///
/// A notification is its JSON shape too, with its timestamp in a column, as `notifications`
/// keeps it: the JSON's ISO-8601 text has milliseconds, and a local notice made at `Date()`
/// has finer ones, which would move it in the feed's order.
extension InboxDatabase {
  /// The change log of `scope`: its records in the order they were first saved, and its
  /// unlisted notifications, read in one transaction (one snapshot, whatever another process
  /// commits meanwhile).
  ///
  /// - Throws: ``InboxError/corrupt(path:reason:)`` when a row is not a record or a
  ///   notification.
  package func changeLog(scope: String) throws(InboxError) -> ChangeLog {
    try reading { db in
      try db.transaction(.deferred) {
        let records = try db.statement(
          "SELECT json FROM change_records WHERE scope = ? ORDER BY sequence"
        ).rows([.text(scope)]) { row throws(SQLiteError) in
          try Self.decode(ChangeRecord.self, from: row.data(at: 0), what: "change record")
        }
        let unlisted = try db.statement(
          "SELECT json, timestamp, received FROM unlisted_notifications WHERE scope = ?"
        ).rows([.text(scope)]) { row throws(SQLiteError) in
          var notification = try Self.decode(
            NotificationData.self, from: row.data(at: 0), what: "notification")
          notification.timestamp = Date(timeIntervalSinceReferenceDate: row.real(at: 1))
          let received =
            row.isNull(at: 2) ? nil : Date(timeIntervalSinceReferenceDate: row.real(at: 2))
          return (notification, received: received)
        }
        return ChangeLog(records: records, unlisted: unlisted)
      }
    }
  }

  /// Applies several calls' writes, in order, in one transaction, so that they share one
  /// commit (one disk sync): each call's writes in a savepoint of its own, all of them or none,
  /// whatever the others do.
  ///
  /// - Returns: Each call's error, in order; `nil` for a call whose writes were applied.
  /// - Throws: When the transaction itself fails: then no call's writes were applied.
  package func write(
    _ calls: [(writes: [ChangeLog.Write], scope: String)]
  ) throws -> [(any Error)?] {
    try writing { db in
      var errors: [(any Error)?] = []
      errors.reserveCapacity(calls.count)
      for call in calls {
        try db.execute("SAVEPOINT change_log_write")
        do {
          try Self.apply(call.writes, scope: call.scope, in: db)
          try db.execute("RELEASE change_log_write")
          errors.append(nil)
        } catch {
          try db.execute("ROLLBACK TO change_log_write")
          try db.execute("RELEASE change_log_write")
          errors.append(Self.inboxError(error, path: url.path))
        }
      }
      return errors
    }
  }

  private static func apply(
    _ writes: [ChangeLog.Write], scope: String, in db: SQLiteConnection
  ) throws {
    let encoder = JSONEncoder()
    for write in writes {
      switch write {
      case .saveRecord(let record):
        try db.execute(
          """
          INSERT INTO change_records (scope, id, json) VALUES (?, ?, ?)
          ON CONFLICT (scope, id) DO UPDATE SET json = excluded.json
          """,
          [.text(scope), .text(record.id.uuidString), .blob(try encoder.encode(record))])
      case .removeRecord(let id):
        try db.execute(
          "DELETE FROM change_records WHERE scope = ? AND id = ?",
          [.text(scope), .text(id.uuidString)])
      case .replaceRecord(let record):
        try db.execute(
          "UPDATE change_records SET json = ? WHERE scope = ? AND id = ?",
          [.blob(try encoder.encode(record)), .text(scope), .text(record.id.uuidString)])
      case .saveUnlisted(let notification, let received):
        try db.execute(
          """
          INSERT INTO unlisted_notifications (scope, id, json, timestamp, received)
          VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (scope, id) DO UPDATE SET json = excluded.json,
            timestamp = excluded.timestamp, received = excluded.received
          """,
          [
            .text(scope), .text(notification.id), .blob(try encoder.encode(notification)),
            .real(notification.timestamp.timeIntervalSinceReferenceDate),
            .init(received?.timeIntervalSinceReferenceDate),
          ])
      case .removeUnlisted(let id):
        try db.execute(
          "DELETE FROM unlisted_notifications WHERE scope = ? AND id = ?",
          [.text(scope), .text(id)])
      }
    }
  }

  private static func decode<Value: Decodable>(
    _ type: Value.Type, from data: Data, what: String
  ) throws(SQLiteError) -> Value {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw SQLiteError(extendedCode: 11, message: "a saved \(what) is not valid JSON: \(error)")
    }
  }
}
