import AppShell
import Foundation
import Loom
import Notifications

/// The changes earlier commands saved, which a command's launch sends, and what became of them.
///
/// One the server refuses for good (a notification deleted meanwhile: 404) leaves the change
/// log, and the feature shows its error, as an app does. It is not the command's failure: a
/// command never fails because of an older queued change (issue #24, item 4). Run after the
/// app's reducer, this one notes the refusal for standard error and dismisses the error, so
/// that the command goes on.
struct EarlierChanges: Reducer {
  /// The notes for standard error, oldest first, until the session takes them.
  let notes: LockedState<[String]>
  /// The changes the launch restored, by id: the earlier commands'.
  private let restored = LockedState<[UUID: ChangeIntent]>([:])

  init(notes: LockedState<[String]>) {
    self.notes = notes
  }

  func reduce(into state: inout AppFeature.State, action: AppFeature.Action) -> Effect<
    AppFeature.Action
  > {
    switch action {
    case .notifications(.restored(let saved)):
      let intents = Dictionary(
        saved.log.records.map { ($0.id, $0.intent) }, uniquingKeysWith: { first, _ in first })
      restored.withLock { $0 = intents }
      return .none

    case .notifications(.changeFailed(let id, let error)):
      // Still in the log: it is sent again later, and no error is shown.
      guard state.notifications.log[id] == nil, state.notifications.error == error,
        let intent = restored.withLock({ $0[id] })
      else { return .none }
      let note =
        "note: The server refused a change an earlier command saved (\(Self.describe(intent))): "
        + error.message
      notes.withLock { $0.append(note) }
      return .send(.notifications(.dismissError))

    default:
      return .none
    }
  }

  /// The command that made a change, in words: `read n1`, `clear`.
  static func describe(_ intent: ChangeIntent) -> String {
    switch intent {
    case .markAsRead(let id): "read \(id)"
    case .markAsUnread(let id): "unread \(id)"
    case .markAllAsRead(nil): "read --all"
    case .markAllAsRead(let ids?): "read \(ids.joined(separator: ", "))"
    case .delete(let id): "delete \(id)"
    case .deleteAll: "clear"
    }
  }
}
