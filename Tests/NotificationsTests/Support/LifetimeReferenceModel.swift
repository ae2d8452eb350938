import Foundation
import Notifications

/// What the person should see over a lifetime of the notification center, kept by the lifetime
/// model-based test beside the feature: plain sets and dictionaries, with no knowledge of the
/// feature's sync bookkeeping. The backend's truth is the in-memory backend itself.
///
/// A claim is what the person did that must not be undone silently. Every claim remembers how
/// many errors the feature had reported when it was made: a change rolled back is allowed only
/// if an error was reported since.
struct LifetimeReferenceModel {
  /// The errors the feature has reported, over every launch.
  var errors = 0
  /// The read state the person last gave each notification.
  var readClaims: [String: (isRead: Bool, errors: Int)] = [:]
  /// The notifications the person deleted (or cleared), with the errors reported then.
  var deletions: [String: Int] = [:]
  /// Notifications the backend deleted that the list has dropped, with the errors reported
  /// then: they must not come back.
  var backendDeletions: [String: Int] = [:]
  /// Notifications the backend deleted that the list may not have dropped yet, each with
  /// whether the list has listed it since (one never listed since is not dropped by not being
  /// listed: a page the backend read before the deletion may still list it).
  var backendDeletionsNotSeen: [String: Bool] = [:]
  /// Whether a notification the backend deleted counts as dropped only once the feature has
  /// seen the deletion (`deletionsSeen`): while a flag forgives pages answered out of order.
  var dropsNeedTheDeletionSeen = false
  /// The deletions the feature has seen (live events and catch-ups).
  var deletionsSeen: Set<String> = []
  /// Pushes shown to the person and not deleted by them: listed until they delete them.
  var pushes: [String: NotificationData] = [:]
  /// Pushes the backend will list later (the test inserts them into the backend in a later
  /// step), oldest first.
  var pushesToList: [NotificationData] = []
  /// Local notices recorded in this launch and not deleted.
  var notices: Set<String> = []
  /// The filter choice the person made last.
  var filter = NotificationFilter.all
  var unreadOnly = false
  /// Whether the filter shown and saved must be ``filter`` and ``unreadOnly``: not while a race
  /// a flag forgives may have replaced the person's choice.
  var filterIsKnown = true
  /// The types the person muted.
  var muted: Set<NotificationType> = []
  /// Whether the muted types shown and saved must be ``muted``, as ``filterIsKnown``.
  var mutedIsKnown = true
  /// The notifications whose claims are not checked until everything converges (`nil`: every
  /// notification's), while a race a flag forgives may show them otherwise.
  var suspended: Set<String>? = []

  mutating func suspendClaims(about ids: Set<String>?) {
    guard let ids else {
      suspended = nil
      return
    }
    suspended?.formUnion(ids)
  }

  mutating func resumeClaims() {
    suspended = []
  }

  /// The notifications whose claims are not checked until a first page newer than a late one
  /// is listed (see `Lifetime.refreshTwiceAnsweredOutOfOrder()`).
  var suspendedUntilARefresh: Set<String> = []

  /// The pushes held unlisted whose notifications only a look-up can show deleted: delivered
  /// again after the person deleted them, or deleted by another device before this launch's
  /// first page (no event will say so). Listed until the server answers a look-up, which the
  /// next first page makes again when the first failed.
  var deletedPushesAwaitingLookUp: Set<String> = []

  func isSuspended(_ id: String) -> Bool {
    (suspended?.contains(id) ?? true) || suspendedUntilARefresh.contains(id)
      || deletedPushesAwaitingLookUp.contains(id)
  }

  /// Records what a person's action did to the list at once (the optimistic change): the read
  /// state it gave, and what it removed.
  mutating func recordPersonChange(from before: NotificationFeed, to after: NotificationFeed) {
    for notification in before {
      guard let now = after[id: notification.id] else {
        if notification.isLocal {
          notices.remove(notification.id)
        } else {
          deletions[notification.id] = errors
          readClaims[notification.id] = nil
          pushes[notification.id] = nil
        }
        continue
      }
      if now.isRead != notification.isRead, !now.isLocal {
        readClaims[notification.id] = (now.isRead, errors)
      }
    }
  }

  /// Forgets what the person claimed about `ids` (`nil`: every notification): a change that was
  /// on its way when the app was killed, or one another device made meanwhile, may or may not
  /// have reached the backend.
  ///
  /// A notification the backend deleted that the list dropped, maybe because the person deleted
  /// it too, may be listed again if that deletion is lost: it is dropped once the list drops it
  /// again.
  mutating func forgetClaims(about ids: Set<String>?) {
    for id in ids ?? Set(backendDeletions.keys) where backendDeletions[id] != nil {
      backendDeletions[id] = nil
      backendDeletionsNotSeen[id] = false
    }
    guard let ids else {
      readClaims = [:]
      deletions = [:]
      return
    }
    for id in ids {
      readClaims[id] = nil
      deletions[id] = nil
    }
  }

  /// The problems with `feed`: an id listed twice, an order that is not newest first, a
  /// deleted notification back without an error, a change undone without an error, a push or
  /// notice gone (once the launch has restored them: `restored`). Claims an error explains are
  /// forgotten.
  mutating func problems(with feed: NotificationFeed, restored: Bool = true) -> [String] {
    var problems: [String] = []
    if Set(feed.ids).count != feed.count { problems.append("an id is listed twice: \(feed.ids)") }
    if feed.elements != feed.elements.sorted(by: NotificationData.isOrderedBefore) {
      problems.append("the list is not newest first: \(feed.ids)")
    }
    for notification in feed where !isSuspended(notification.id) {
      let id = notification.id
      if let errorsThen = deletions[id] {
        if errors > errorsThen {
          deletions[id] = nil
        } else {
          problems.append("\(id), which the person deleted, is listed again with no error")
        }
      }
      if let errorsThen = backendDeletions[id] {
        if errors > errorsThen {
          backendDeletions[id] = nil
        } else {
          problems.append("\(id), which the backend deleted, is listed again with no error")
        }
      }
      if let claim = readClaims[id], claim.isRead != notification.isRead {
        if errors > claim.errors {
          readClaims[id] = nil
        } else {
          problems.append(
            "\(id) is \(notification.isRead ? "read" : "unread") though the person made it "
              + "\(claim.isRead ? "read" : "unread"), with no error")
        }
      }
    }
    // Before the launch has restored what was saved, the list is not yet the feature's: what
    // it lacks then is not dropped.
    for (id, listedSince) in backendDeletionsNotSeen where restored {
      guard !feed.contains(id: id) else {
        backendDeletionsNotSeen[id] = true
        continue
      }
      guard listedSince, !dropsNeedTheDeletionSeen || deletionsSeen.contains(id) else { continue }
      backendDeletionsNotSeen[id] = nil
      backendDeletions[id] = errors
    }
    guard restored else { return problems }
    for id in pushes.keys.sorted() where !feed.contains(id: id) {
      problems.append("the push \(id) shown to the person is no longer listed")
    }
    for id in notices.sorted() where !feed.contains(id: id) {
      problems.append("the local notice \(id) is no longer listed")
    }
    return problems
  }
}
