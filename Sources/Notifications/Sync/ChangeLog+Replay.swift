import Foundation

extension ChangeLog {
  /// `copy`, the newest the server sent of a notification (or an unlisted push or notice), with
  /// the records that are not reflected in it replayed in order (rule 3), or `nil` when one of
  /// them deletes it: how the notification is shown.
  ///
  /// ```swift
  /// log.record(.markAsRead("n1"), id: changeID)
  /// log.replaying(on: unreadCopy)?.isRead   // true
  /// ```
  ///
  /// - Complexity: O(*n* + *e*) for the *n* records that name it and the *e* records that touch
  ///   every notification.
  public func replaying(on copy: NotificationData) -> NotificationData? {
    var shown: NotificationData? = copy
    // A mark-all or clear-all of everything changes the pushes (and notices) it covered when it
    // was made through records of their own (rule 5): one received after it is left alone.
    let isUnlisted = unlisted.contains(id: copy.id)
    indexed.forEachRecord(touching: copy.id) { record in
      if isUnlisted, record.touchesEverything { return true }
      if case .acknowledged(let cursor) = record.status, let version = copy.version,
        version >= cursor
      {
        return true
      }
      shown = shown.flatMap(record.intent.applied(to:))
      return shown != nil
    }
    return shown
  }

  /// What the notification center shows: `truth` (the server's newest copies) and the
  /// unlisted pushes and local notices, each with the log replayed on it, in the feed's order.
  /// A push the server lists is shown as the server has it.
  ///
  /// - Complexity: O((*n* + *u*) × (*k* + *e*) + (*n* + *u*) log(*n* + *u*)) for *n*
  ///   notifications in `truth`, *u* unlisted, at most *k* records naming one of them and *e*
  ///   records touching every one.
  public func shown(over truth: some Sequence<NotificationData>) -> NotificationFeed {
    var all: [NotificationData] = []
    var seen: Set<String> = []
    for copy in truth where seen.insert(copy.id).inserted {
      if let shown = replaying(on: copy) { all.append(shown) }
    }
    for copy in unlisted where seen.insert(copy.id).inserted {
      if let shown = replaying(on: copy) { all.append(shown) }
    }
    all.sort(by: NotificationData.isOrderedBefore)
    return NotificationFeed(uniqueElements: all)
  }
}
