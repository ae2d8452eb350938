import Foundation
import Loom
import Notifications
import Testing

/// `NotificationFeed.insertionIndex(for:)` finds by binary search the place a linear scan of
/// the feed's order finds, so listing page after page costs O(log n) per notification, not
/// O(n) (the CLI's `list --all` took 17 s at 100,000).
struct NotificationFeedInsertionTests {
  /// The position of the first notification `notification` sorts before: the scan the binary
  /// search replaces.
  func scannedIndex(for notification: NotificationData, in feed: NotificationFeed) -> Int {
    feed.elements.firstIndex { NotificationData.isOrderedBefore(notification, $0) }
      ?? feed.elements.count
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theInsertionIndexIsWhereAScanOfTheFeedsOrderPutsIt(seed: UInt64) {
    var random = SeededRandomNumberGenerator(seed: seed)
    // Few distinct timestamps, so ties broken by id are common.
    func notification(_ id: Int) -> NotificationData {
      NotificationData(
        id: "n\(id)", type: .ping, title: "", message: "",
        timestamp: Date(timeIntervalSince1970: Double(Int.random(in: 0...20, using: &random))))
    }
    var feed = NotificationFeed()
    for id in 0..<300 {
      let incoming = notification(id)
      let index = feed.insertionIndex(for: incoming)
      #expect(index == scannedIndex(for: incoming, in: feed), "seed \(seed), id \(id)")
      feed.insert(incoming, at: index)
    }
    #expect(feed.elements == feed.elements.sorted(by: NotificationData.isOrderedBefore))
  }

  @Test func theEmptyFeedAndEachEndAreFound() {
    let older = NotificationData(
      id: "a", type: .ping, title: "", message: "", timestamp: Date(timeIntervalSince1970: 1))
    let newer = NotificationData(
      id: "b", type: .ping, title: "", message: "", timestamp: Date(timeIntervalSince1970: 2))
    let newest = NotificationData(
      id: "c", type: .ping, title: "", message: "", timestamp: Date(timeIntervalSince1970: 3))
    #expect(NotificationFeed().insertionIndex(for: older) == 0)
    let feed: NotificationFeed = [newer]
    #expect(feed.insertionIndex(for: older) == 1)
    #expect(feed.insertionIndex(for: newest) == 0)
  }
}
