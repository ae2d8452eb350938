import Foundation
import Loom
import Notifications
import Synchronization
import Testing

/// The feed's unread count and per-type positions always equal a scan of its notifications,
/// whatever changed them.
struct NotificationFeedTests {
  static let types: [NotificationType] = NotificationType.knownCases + [.unknown("poll")]

  func note(_ id: String, _ type: NotificationType = .ping, isRead: Bool = false) -> NotificationData {
    NotificationData(
      id: id, type: type, title: id, message: "", timestamp: Fixtures.now, isRead: isRead)
  }

  /// Checks every derived value against a scan of the elements.
  func expectCountsMatchAScan(
    _ feed: NotificationFeed, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let scannedUnread: Int = feed.elements.filter { !$0.isRead }.count
    #expect(feed.unreadCount == scannedUnread, sourceLocation: sourceLocation)
    #expect(feed.checkInvariants(), sourceLocation: sourceLocation)
    for type in Self.types {
      let ofType: [String] = feed.elements.filter { $0.type == type }.map(\.id)
      let unreadOfType: [String] = feed.elements.filter { $0.type == type && !$0.isRead }.map(\.id)
      #expect(feed.count(of: type) == ofType.count, sourceLocation: sourceLocation)
      #expect(feed.filtered(.type(type)).map(\.id) == ofType, sourceLocation: sourceLocation)
      let unreadShown: [String] = feed.filtered(.type(type), unreadOnly: true).map(\.id)
      #expect(unreadShown == unreadOfType, sourceLocation: sourceLocation)
    }
    let allUnread: [String] = feed.elements.filter { !$0.isRead }.map(\.id)
    #expect(feed.filtered(.all).map(\.id) == feed.ids, sourceLocation: sourceLocation)
    #expect(feed.filtered(.all, unreadOnly: true).map(\.id) == allUnread, sourceLocation: sourceLocation)
  }

  @Test func insertingReadAndUnreadNotificationsCountsTheUnreadOnes() {
    var feed: NotificationFeed = [note("a"), note("b", .alert, isRead: true)]
    #expect(feed.unreadCount == 1)
    feed.append(note("c", .alert))
    feed.insert(note("d", .system), at: 0)
    feed.insert(note("e", isRead: true), at: 2)
    #expect(feed.ids == ["d", "a", "e", "b", "c"])
    #expect(feed.unreadCount == 3)
    #expect(feed.count(of: .alert) == 2)
    #expect(feed.filtered(.type(.alert)).map(\.id) == ["b", "c"])
    expectCountsMatchAScan(feed)
  }

  @Test func togglingThroughTheSubscriptMovesTheCount() {
    var feed: NotificationFeed = [note("a"), note("b"), note("c", isRead: true)]
    feed[id: "a"]?.isRead = true
    #expect(feed.unreadCount == 1)
    feed[id: "c"]?.isRead = false
    feed[id: "c"]?.isRead = false
    #expect(feed.unreadCount == 2)
    feed[id: "b"]?.isRead.toggle()
    #expect(feed.unreadCount == 1)
    expectCountsMatchAScan(feed)
  }

  @Test func replacingAtAPositionMovesTheCountsAsTheSubscriptDoes() {
    var feed: NotificationFeed = [note("a"), note("b"), note("c", .alert, isRead: true)]
    feed.replace(at: 0, with: note("a", isRead: true))
    #expect(feed.unreadCount == 1)
    feed.replace(at: 1, with: note("b", .system))
    #expect(feed.count(of: .ping) == 1)
    #expect(feed.filtered(.type(.system)).map(\.id) == ["b"])
    feed.replace(at: 2, with: note("c", .ping))
    #expect(feed.ids == ["a", "b", "c"])
    #expect(feed.unreadCount == 2)
    #expect(feed.filtered(.type(.ping), unreadOnly: true).map(\.id) == ["c"])
    expectCountsMatchAScan(feed)
  }

  @Test func changingTheTypeMovesTheNotificationBetweenFilters() {
    var feed: NotificationFeed = [note("a"), note("b"), note("c", .alert)]
    feed[id: "b"]?.type = .alert
    #expect(feed.filtered(.type(.alert)).map(\.id) == ["b", "c"])
    #expect(feed.filtered(.type(.ping)).map(\.id) == ["a"])
    feed[id: "a"]?.type = .unknown("poll")
    #expect(feed.count(of: .ping) == 0)
    #expect(feed.count(of: .unknown("poll")) == 1)
    expectCountsMatchAScan(feed)
  }

  @Test func removingByIDPositionOrNilUncountsIt() {
    var feed: NotificationFeed = [note("a"), note("b", .alert), note("c"), note("d", isRead: true)]
    feed.remove(id: "a")
    #expect(feed.unreadCount == 2)
    expectCountsMatchAScan(feed)
    feed.remove(at: 1)
    #expect(feed.ids == ["b", "d"])
    #expect(feed.unreadCount == 1)
    expectCountsMatchAScan(feed)
    feed[id: "b"] = nil
    #expect(feed.unreadCount == 0)
    #expect(feed.remove(id: "missing") == nil)
    feed[id: "missing"] = nil
    expectCountsMatchAScan(feed)
    feed.removeAll()
    #expect(feed.isEmpty && feed.unreadCount == 0 && feed.count(of: .ping) == 0)
  }

  @Test func assigningThroughTheSubscriptReplacesOrAppends() {
    var feed: NotificationFeed = [note("a"), note("b", .alert)]
    feed[id: "a"] = note("a", .system, isRead: true)
    feed[id: "z"] = note("z", .alert)
    #expect(feed.ids == ["a", "b", "z"])
    #expect(feed.unreadCount == 2)
    #expect(feed.filtered(.type(.alert)).map(\.id) == ["b", "z"])
    expectCountsMatchAScan(feed)
  }

  @Test func replacingTheWholePageOrFilteringCountsAgain() {
    var feed: NotificationFeed = [note("a"), note("b", .alert)]
    feed = NotificationFeed(uniqueElements: [note("x", isRead: true), note("y", .system)])
    #expect(feed.unreadCount == 1)
    expectCountsMatchAScan(feed)
    feed.removeAll { $0.type == .system }
    #expect(feed.unreadCount == 0)
    expectCountsMatchAScan(feed)
    let unread = NotificationFeed(uniqueElements: [note("p"), note("q", isRead: true)])
      .filter { !$0.isRead }
    #expect(unread.ids == ["p"] && unread.unreadCount == 1)
    expectCountsMatchAScan(unread)
  }

  @Test func duplicateIDsAreDroppedAndNotCounted() {
    var feed: NotificationFeed = [note("a"), note("a", .alert), note("b", isRead: true)]
    #expect(feed.ids == ["a", "b"])
    #expect(feed.unreadCount == 1)
    #expect(feed.append(note("a")).inserted == false)
    let again: (inserted: Bool, index: Int) = feed.insert(note("b"), at: 0)
    #expect(again.inserted == false && again.index == 1)
    #expect(feed.unreadCount == 1)
    #expect(feed.count(of: .alert) == 0)
    expectCountsMatchAScan(feed)
  }

  @Test func feedsWithTheSameNotificationsAreEqualWhateverTheirHistory() {
    var changed: NotificationFeed = [note("a"), note("b", .alert)]
    changed[id: "a"]?.isRead = true
    changed.insert(note("c"), at: 0)
    changed.remove(id: "c")
    let built: NotificationFeed = [note("a", isRead: true), note("b", .alert)]
    #expect(changed == built)
    #expect(changed.hashValue == built.hashValue)
  }

  @Test func changingAnIDThroughTheSubscriptIsReportedAndTheCountsStayRight() {
    let reported = LockedMessages()
    var feed: NotificationFeed = [note("a"), note("b", .alert)]
    withDependencies { $0.issueReporter = reported.reporter } operation: {
      feed[id: "a"]?.id = "z"
      feed[id: "b"] = note("y", isRead: true)
      feed[id: "q"] = note("x", .system)
    }
    #expect(reported.count == 3)
    #expect(feed.ids == ["z", "y", "x"])
    #expect(feed.unreadCount == 2)
    expectCountsMatchAScan(feed)
  }

  /// Thousands of random changes, with a fixed seed: after each, the counts equal a scan.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomChangesKeepTheCountsEqualToAScan(seed: UInt64) {
    var random = SeededRandomNumberGenerator(seed: seed)
    var feed: NotificationFeed = []
    for step in 0..<1_500 {
      let id = "n\(Int.random(in: 0..<40, using: &random))"
      let type = Self.types[Int.random(in: 0..<Self.types.count, using: &random)]
      let isRead = Bool.random(using: &random)
      switch Int.random(in: 0..<9, using: &random) {
      case 0: feed.append(note(id, type, isRead: isRead))
      case 1: feed.insert(note(id, type, isRead: isRead), at: Int.random(in: -1...feed.count + 1, using: &random))
      case 2: feed[id: id]?.isRead.toggle()
      case 3: feed[id: id]?.type = type
      case 4: feed[id: id] = note(id, type, isRead: isRead)
      case 5: feed[id: id] = nil
      case 6: feed.remove(id: id)
      case 7 where !feed.isEmpty: feed.remove(at: Int.random(in: 0..<feed.count, using: &random))
      case 8 where step % 50 == 0: feed.removeAll { $0.type == type }
      default: break
      }
      let scanned: Int = feed.elements.filter { !$0.isRead }.count
      guard feed.unreadCount == scanned, feed.checkInvariants() else {
        Issue.record("seed \(seed), step \(step): \(feed.unreadCount) unread, a scan counts \(scanned)")
        return
      }
    }
    expectCountsMatchAScan(feed)
  }
}

/// Collects reported issues.
final class LockedMessages: Sendable {
  private let messages = Mutex<[String]>([])

  var count: Int { messages.withLock { $0.count } }

  var reporter: IssueReporter {
    IssueReporter { message, _ in self.messages.withLock { $0.append(message) } }
  }
}
