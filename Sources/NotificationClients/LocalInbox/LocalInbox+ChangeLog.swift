import Foundation
import Loom
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
  /// The database work runs off the caller's executor, in the order of the calls: a write
  /// called before another is applied before it, and a load sees every write called before it
  /// (see ``inCallOrder(_:)``). Writes waiting together share one commit, each call's all or
  /// none; a load may also see writes called after it, applied with the earlier ones. Errors
  /// reach the caller as `UserFacingError.operationFailed` carrying the ``InboxError``'s
  /// description.
  public func changeLogStore(scope: String) -> ChangeLogStore {
    ChangeLogStore(
      load: {
        try await self.inCallOrder {
          // The writes called before it, whichever job of the actor comes first.
          self.applyChangeLogWrites()
          return try self.withChangeLogDatabase { database in
            try database.changeLog(scope: scope)
          }
        }
      },
      write: { writes in
        guard !writes.isEmpty else { return }
        // Taken in the order of the calls, before the hop; applied by the first job of the
        // actor to run, with every write called by then, in one commit.
        let call = self.changeLogWrites.enqueue(writes, scope: scope)
        try await self.inCallOrder {
          self.applyChangeLogWrites()
          try self.changeLogWrites.takeResult(of: call)
        }
      }
    )
  }

  /// Applies the change log writes called and not applied yet, in the order called, in one
  /// transaction: a burst of writes (a mark-all's, a relaunch's queued changes, one per action
  /// while the disk syncs the last) costs one disk sync, not one each. Each call's writes are
  /// applied all or none, whatever the others'; a call learns its own result.
  private func applyChangeLogWrites() {
    let calls = changeLogWrites.takeCalls()
    guard !calls.isEmpty else { return }
    do {
      let errors = try withChangeLogDatabase { database in
        try database.write(calls.map { ($0.writes, $0.scope) })
      }
      for (call, error) in zip(calls, errors) {
        changeLogWrites.setResult(
          error.map { .failure(UserFacingError(changeLogError: $0)) } ?? .success(()), of: call)
      }
    } catch {
      for call in calls { changeLogWrites.setResult(.failure(error), of: call) }
    }
  }

  /// Runs `body` with the database, its errors as the feature shows them.
  private func withChangeLogDatabase<Result>(_ body: (InboxDatabase) throws -> Result) throws
    -> Result
  {
    do {
      return try cacheDatabase(body)
    } catch {
      throw UserFacingError(changeLogError: error)
    }
  }
}

extension UserFacingError {
  /// A change log call's error as the feature shows it.
  init(changeLogError error: any Error) {
    switch error {
    case let error as UserFacingError: self = error
    case let error as InboxError: self.init(error)
    default: self = .operationFailed(message: "\(error)")
    }
  }
}

/// The change log writes called and not yet applied, in the order called, and the results of
/// those applied that their callers have not taken yet.
final class ChangeLogWrites: Sendable {
  struct Call: Sendable {
    let number: Int
    let writes: [ChangeLog.Write]
    let scope: String
  }

  private struct State {
    var waiting: [Call] = []
    var results: [Int: Result<Void, any Error>] = [:]
    var next = 0
  }

  private let state = LockedState(State())

  /// Takes a call's writes.
  ///
  /// - Returns: The call's number, to take its result with.
  func enqueue(_ writes: [ChangeLog.Write], scope: String) -> Int {
    state.withLock { state in
      state.next += 1
      state.waiting.append(Call(number: state.next, writes: writes, scope: scope))
      return state.next
    }
  }

  /// The calls waiting, oldest first, which are no longer waiting.
  func takeCalls() -> [Call] {
    state.withLock { state in
      defer { state.waiting = [] }
      return state.waiting
    }
  }

  func setResult(_ result: Result<Void, any Error>, of call: Call) {
    state.withLock { $0.results[call.number] = result }
  }

  /// The result of the call numbered `number`, once applied: thrown when it failed.
  func takeResult(of number: Int) throws {
    let result = state.withLock { $0.results.removeValue(forKey: number) }
    try result?.get()
  }
}
