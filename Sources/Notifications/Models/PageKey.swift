import Foundation

/// Where a page of the feed ends: the last notification it listed, by its place in the feed's
/// order (newest first: timestamp, then id). The next page starts right after it, so a
/// notification inserted or deleted meanwhile moves no other one between pages (an offset
/// skipped the 51st notification of 60 when the first was deleted before "load more").
///
/// Backends hand it out as the page's opaque `nextCursor` and read it back from a
/// `PageRequest`; clients never look inside. Package access: the feature and apps see a string.
///
/// ```swift
/// let next = PageKey(after: page.items[page.items.count - 1]).cursor
/// let key = PageKey(cursor: next)   // the same key; nil for a string no backend gave
/// ```
package struct PageKey: Hashable, Sendable {
  /// The timestamp of the last notification listed, exactly (its `Double`'s bits travel in
  /// the cursor, so a key read back compares equal to the stored timestamp).
  package var timestamp: Date
  /// The id of the last notification listed.
  package var id: String

  /// The key of a page whose last notification is `notification`.
  package init(after notification: NotificationData) {
    self.timestamp = notification.timestamp
    self.id = notification.id
  }

  package init(timestamp: Date, id: String) {
    self.timestamp = timestamp
    self.id = id
  }

  /// The key as a cursor: `k1.`, the timestamp's bits in hexadecimal, `.`, the id.
  package var cursor: String {
    let bits = String(timestamp.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
    return "k1." + String(repeating: "0", count: 16 - bits.count) + bits + "." + id
  }

  /// Reads a cursor ``cursor`` made; `nil` for any other string.
  package init?(cursor: String) {
    let utf8 = Array(cursor.utf8)
    guard utf8.count > 20, cursor.hasPrefix("k1."), utf8[19] == UInt8(ascii: ".") else {
      return nil
    }
    guard let bits = UInt64(String(decoding: utf8[3..<19], as: UTF8.self), radix: 16) else {
      return nil
    }
    let seconds = Double(bitPattern: bits)
    guard seconds.isFinite else { return nil }
    self.timestamp = Date(timeIntervalSinceReferenceDate: seconds)
    self.id = String(decoding: utf8[20...], as: UTF8.self)
  }

  /// Whether `notification` comes after this key in the feed's order: older, or as old with a
  /// later id. The next page lists the first such notifications.
  ///
  /// - Complexity: O(1).
  package func precedes(_ notification: NotificationData) -> Bool {
    notification.timestamp < timestamp
      || (notification.timestamp == timestamp && notification.id > id)
  }
}
