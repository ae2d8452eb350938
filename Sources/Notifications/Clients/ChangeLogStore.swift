import Foundation
import Loom

/// Where the ``ChangeLog`` is saved: as rows, each call to ``write`` one transaction, so every
/// process sharing the store (two CLI commands on one inbox) sees every other's writes and
/// loses none of them.
///
/// ```swift
/// var log = try await store.load().restoredForLaunch
/// let saved = log
/// log.record(.markAsRead("n1"), id: changeID)
/// try await store.write(log.writes(from: saved))
/// ```
///
/// A process writes what changed in its own log (``ChangeLog/writes(from:)``), never the whole
/// log: what another process saved meanwhile stays, and is in the next ``load``.
///
/// The local inbox's store (in NotificationClients: `LocalInbox.changeLogStore(scope:)`) keeps
/// the rows in the inbox's SQLite database; ``inMemory(_:)`` keeps them in memory.
///
/// Its endpoints are `nonisolated(nonsending)`: they run on the caller's executor (see
/// ``NotificationClient``), and the local inbox's store moves its database work off the caller
/// itself.
public struct ChangeLogStore: Sendable {
  /// The saved log: its records in the order they were first saved, and its unlisted pushes
  /// and notices.
  public var load: nonisolated(nonsending) @Sendable () async throws -> ChangeLog
  /// Saves the writes, in order, in one transaction: all of them or, when it throws, none.
  /// Calls are applied in the order they are made, whether or not the caller waits for one
  /// before making the next, and a ``load`` sees every write called before it.
  public var write: nonisolated(nonsending) @Sendable ([ChangeLog.Write]) async throws -> Void

  public init(
    load: nonisolated(nonsending) @escaping @Sendable () async throws -> ChangeLog,
    write: nonisolated(nonsending) @escaping @Sendable ([ChangeLog.Write]) async throws -> Void
  ) {
    self.load = load
    self.write = write
  }

  /// A store in memory, holding `log` to begin with, for previews and tests: nothing survives
  /// the process. Copies of it share its rows, as two processes share a database file.
  ///
  /// ```swift
  /// let store = ChangeLogStore.inMemory()
  /// let other = store   // another "process" on the same rows
  /// try await store.write([.saveRecord(ChangeRecord(id: changeID, intent: .markAsRead("n1")))])
  /// let count = try await other.load().records.count   // 1
  /// ```
  public static func inMemory(_ log: ChangeLog = ChangeLog()) -> ChangeLogStore {
    let rows = LockedState(Rows(log))
    return ChangeLogStore(
      load: { rows.withLock { $0.log } },
      write: { writes in rows.withLock { $0.apply(writes) } }
    )
  }

  /// Reports a call it gets, and throws: the test value.
  public static let unimplemented = ChangeLogStore(
    load: Loom.unimplemented("ChangeLogStore.load"),
    write: Loom.unimplemented("ChangeLogStore.write")
  )

  /// The rows of a store in memory, as a database holds them: the records in the order first
  /// saved, the unlisted notifications by id.
  private struct Rows: Sendable {
    var records: IdentifiedArrayOf<ChangeRecord>
    var unlisted: [String: (notification: NotificationData, received: Date?)] = [:]

    init(_ log: ChangeLog) {
      records = log.records
      for notification in log.unlisted {
        unlisted[notification.id] = (notification, log.received[notification.id])
      }
    }

    var log: ChangeLog {
      ChangeLog(records: records, unlisted: unlisted.values.map { ($0, $1) })
    }

    mutating func apply(_ writes: [ChangeLog.Write]) {
      for write in writes {
        switch write {
        case .saveRecord(let record): records.updateOrAppend(record)
        case .removeRecord(let id): records.remove(id: id)
        case .replaceRecord(let record):
          if let position = records.index(id: record.id) { records[position] = record }
        case .saveUnlisted(let notification, let received):
          unlisted[notification.id] = (notification, received)
        case .removeUnlisted(let id): unlisted[id] = nil
        }
      }
    }
  }
}

private enum ChangeLogStoreKey: DependencyKey {
  /// An app says where its log is saved (the local inbox's database, say): until it does,
  /// loading and writing fail, rather than keep the person's changes nowhere.
  static let liveValue = ChangeLogStore(
    load: { throw UserFacingError.operationFailed(message: "No change log store is configured.") },
    write: { _ in
      throw UserFacingError.operationFailed(message: "No change log store is configured.")
    }
  )
  /// Previews and demos keep nothing, so they never change the app's saved log.
  static var previewValue: ChangeLogStore { .inMemory() }
  static let testValue = ChangeLogStore.unimplemented
}

extension DependencyValues {
  /// Where the feature saves its ``ChangeLog``.
  public var changeLogStore: ChangeLogStore {
    get { self[ChangeLogStoreKey.self] }
    set { self[ChangeLogStoreKey.self] = newValue }
  }
}
