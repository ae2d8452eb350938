import Foundation
import Notifications
import Testing

/// `namedIDs` is `ids` without an array for the one id most intents name: the same ids, in the
/// same order, for every kind of intent.
struct ChangeIntentIDsTests {
  @Test(arguments: [
    ChangeIntent.markAsRead("n1"), .markAsUnread("n2"), .delete("n3"), .markAllAsRead(nil),
    .markAllAsRead([]), .markAllAsRead(["n4", "n5", "n6"]), .deleteAll(upTo: nil),
    .deleteAll(upTo: FeedPosition(timestamp: Date(timeIntervalSince1970: 0), id: "n7")),
  ])
  func theNamedIDsAreTheIDs(intent: ChangeIntent) {
    let named = intent.namedIDs
    #expect(Array(named) == intent.ids)
    #expect(named.count == intent.ids.count)
    #expect(named.isEmpty == intent.ids.isEmpty)
    for id in ["n1", "n4", "n6", "n9"] {
      #expect(named.contains(id) == intent.ids.contains(id), "\(id)")
    }
  }
}
