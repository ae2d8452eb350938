import Foundation
import Loom
import LoomTesting
import NotificationClients
import Notifications

/// A backend feed of more than a page, for the tests of the unread total: 120 unread
/// notifications, 50 on the first page.
enum PagedFeed {
  /// 130 notifications, newest first: n0…n119 unread, n120…n129 read.
  static let notifications: [NotificationData] = (0..<130).map { index in
    Fixtures.notification("n\(index)", minutesAgo: Double(index + 1), isRead: index >= 120)
  }

  /// The page of `feed` at `range`, as the in-memory backend makes it after `changes` changes
  /// (its change cursor).
  static func page(
    _ range: Range<Int>, of feed: [NotificationData] = notifications, unreadTotal: Int? = 120,
    changes: Int? = 0
  ) -> NotificationPage {
    let hasMore = range.upperBound < feed.count
    return NotificationPage(
      items: Array(feed[range]), nextCursor: hasMore ? cursor(range.upperBound, of: feed) : nil,
      hasMore: hasMore, unreadTotal: unreadTotal, changeCursor: changes.map { ChangeCursor(UInt64($0)) })
  }

  /// The cursor of a page that ends with the first `count` notifications of `feed`: it names
  /// the last of them (`PageKey`).
  static func cursor(_ count: Int, of feed: [NotificationData] = notifications) -> String {
    PageKey(after: feed[count - 1]).cursor
  }

  /// A store over an in-memory backend holding ``notifications``, with its first page loaded.
  @MainActor
  static func loadedStore(
    _ backend: InMemoryNotificationBackend = InMemoryNotificationBackend(seed: notifications)
  ) async -> TestStore<NotificationsFeature.State, NotificationsFeature.Action> {
    let store = makeStore([]) { $0.notificationClient = backend.client }
    await store.send(.refreshRequested) { $0.isLoading = true }
    await store.receive(.pageLoaded(page(0..<50), replacing: true)) {
      $0.isLoading = false
      $0.newestCursor = 0
      $0.hasLoadedOnce = true
      $0.hasMore = true
      $0.nextCursor = cursor(50)
      $0.notifications = NotificationFeed(uniqueElements: notifications.prefix(50))
      $0.unreadNotLoaded = 70
    }
    await store.receive(.delegate(.unreadCountChanged(120)))
    return store
  }
}
