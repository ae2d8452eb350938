import Foundation

/// A place in the feed's order (newest first: by timestamp, then by id, as
/// ``NotificationData/isOrderedBefore(_:_:)`` sorts): the bound of a clear-all.
///
/// A clear-all deletes what the person cleared: the notifications listed then and the ones not
/// loaded, which are older than the newest listed. So it is bounded by the newest notification
/// listed, and covers that one and every one after it in the feed's order; a notification that
/// arrives later with a newer timestamp is spared, on the device and on the backend, however
/// late the clear-all is sent.
///
/// ```swift
/// let bound = FeedPosition(newest)  // the newest notification listed
/// let cleared = bound.covers(older)  // true: deleted with the clear-all
/// let spared = !bound.covers(arrivedAfterTheClear)  // true: kept
/// try await client.deleteAllUpTo(bound)
/// ```
///
/// A notification the backend gets later with an older timestamp than the bound (created
/// offline on another device, say) is covered: it sorts among what was cleared, as the
/// notifications not loaded do.
///
/// Timestamps compare to the millisecond, the precision the HTTP API and the inbox's change log
/// carry: a bound taken from a notification that came through either covers the notification
/// the backend stores, whatever finer precision it has. Within one millisecond the id orders.
public struct FeedPosition: Sendable, Hashable, Codable {
  public var timestamp: Date
  public var id: String

  public init(timestamp: Date, id: String) {
    self.timestamp = timestamp
    self.id = id
  }

  /// The position of `notification`.
  public init(_ notification: NotificationData) {
    self.init(timestamp: notification.timestamp, id: notification.id)
  }

  /// Whether `notification` is at this position or after it (older) in the feed's order: a
  /// clear-all bounded here deletes it.
  ///
  /// - Complexity: O(1).
  public func covers(_ notification: NotificationData) -> Bool {
    covers(timestamp: notification.timestamp, id: notification.id)
  }

  /// Whether a notification with `timestamp` and `id` is at this position or after it.
  public func covers(timestamp: Date, id: String) -> Bool {
    let bound = Self.milliseconds(self.timestamp)
    let other = Self.milliseconds(timestamp)
    return other < bound || (other == bound && id >= self.id)
  }

  /// The milliseconds since 1970, rounded to the nearest as the API's timestamps are.
  static func milliseconds(_ date: Date) -> Double {
    (date.timeIntervalSince1970 * 1_000).rounded()
  }
}
