import Foundation

/// One change the person made, as the ``ChangeLog`` keeps it from the moment they make it until
/// what the server says reflects it.
///
/// Its ``id`` is the change id the server takes (``ChangeRequest/id``): the same for every
/// attempt, in every launch, so a retry after a lost answer is applied once.
///
/// ```swift
/// log.record(.markAsRead("n1"), id: changeID)
/// log[changeID]?.status   // .pending(failures: 0)
/// ```
public struct ChangeRecord: Identifiable, Sendable, Hashable, Codable {
  /// Where a change is on its way to the server.
  public enum Status: Sendable, Hashable, Codable {
    /// Not applied by the server yet, and not in flight: sent when its turn comes (see
    /// ``ChangeLog/recordsReadyToSend``). `failures` counts the attempts that reached the
    /// server and failed for now (a server error, a rate limit); being offline counts nothing.
    case pending(failures: Int)
    /// Sent; its answer has not come. A launch that restores the log sends it again, with the
    /// same id.
    case sending(failures: Int)
    /// Its last attempt failed for now: it waits for its backoff, then is pending again
    /// (``ChangeLog/retry(_:)``). It holds back newer changes to its notifications as a pending
    /// one does; a launch makes it pending at once.
    case waiting(failures: Int)
    /// It changes a push the server has not listed yet: it is sent once the server lists it
    /// (``ChangeLog/serverListed(_:)``), as the server does not know the notification before.
    case awaitingListing
    /// The server applied it at this cursor. It leaves the log once what the feature has seen
    /// of the server reaches that cursor (``ChangeLog/forget(upTo:)``); until then it is
    /// replayed on copies older than its cursor.
    case acknowledged(ChangeCursor)
  }

  /// The change id, sent with every attempt.
  public let id: UUID
  /// What the person asked for.
  public let intent: ChangeIntent
  public var status: Status
  /// When an attempt that reached the server first failed for now, if one did: a change is
  /// given up only after failing for a long time (see ``ChangeLog/RetryPolicy``).
  public var firstFailure: Date?

  public init(id: UUID, intent: ChangeIntent, status: Status = .pending(failures: 0)) {
    self.id = id
    self.intent = intent
    self.status = status
  }

  /// Whether the server has applied it (or it is waiting for a push to be listed, then sent):
  /// the records that are not hold back newer ones on the same notifications.
  public var isAcknowledged: Bool {
    if case .acknowledged = status { true } else { false }
  }

  /// The request that sends it.
  public var request: ChangeRequest { ChangeRequest(id: id, intent) }

  /// Whether it changes every notification (a mark-all or clear-all without ids), so it is
  /// ordered after every older change and before every newer one.
  var touchesEverything: Bool {
    switch intent {
    case .markAllAsRead(nil), .deleteAll: true
    case .markAsRead, .markAsUnread, .markAllAsRead, .delete: false
    }
  }

  /// Whether it changes the notification with this id (a clear-all changes every one).
  func touches(_ id: String) -> Bool {
    touchesEverything || intent.namedIDs.contains(id)
  }
}
