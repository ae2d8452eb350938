import Foundation
import Notifications

extension LocalInbox {
  /// The store of the feature's ``ChangeLog`` for `scope`, in the inbox's database: the log's
  /// records and unlisted notifications as rows, each ``ChangeLogStore/write`` one transaction.
  /// Every process sharing the inbox (two `notifications` commands) sees every write.
  ///
  /// ```swift
  /// let inbox = LocalInbox(url: LocalInbox.defaultURL())
  /// let store = Store(initialState: NotificationFeature.State()) { NotificationFeature() }
  ///   withDependencies: {
  ///     $0.notificationClient = inbox.notificationClient
  ///     $0.changeLogStore = inbox.changeLogStore(scope: "local")
  ///   }
  /// ```
  ///
  /// - Parameter scope: Whose log it is: one inbox holds the logs of several servers and
  ///   accounts (an offline cache of each, say), and a store reads and writes its scope's
  ///   alone. Any text that names the server and the account, the same at every launch.
  ///
  /// The database work runs off the caller's executor, in the order of the calls: a write or a
  /// load called before another is applied before it (see ``inCallOrder(_:)``). Errors reach the
  /// caller as `UserFacingError.operationFailed` carrying the ``InboxError``'s description.
  public func changeLogStore(scope: String) -> ChangeLogStore {
    ChangeLogStore(
      load: {
        try await self.inCallOrder {
          try self.withChangeLogDatabase { database in try database.changeLog(scope: scope) }
        }
      },
      write: { writes in
        try await self.inCallOrder {
          try self.withChangeLogDatabase { database in try database.write(writes, scope: scope) }
        }
      }
    )
  }

  /// Runs `body` with the database, its errors as the feature shows them.
  private func withChangeLogDatabase<Result>(_ body: (InboxDatabase) throws -> Result) throws
    -> Result
  {
    do {
      return try cacheDatabase(body)
    } catch let error as UserFacingError {
      throw error
    } catch let error as InboxError {
      throw UserFacingError(error)
    } catch {
      throw UserFacingError.operationFailed(message: "\(error)")
    }
  }
}
