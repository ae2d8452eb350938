import Foundation
import Loom
import Notifications
import Testing

/// The rules of ``ServerFeed``, one test each, then a server's history delivered late, twice and
/// out of order.
struct ServerFeedTests {
  static func notification(
    _ id: String, isRead: Bool = false, version: ChangeCursor? = nil, minutesAgo: Double = 0
  ) -> NotificationData {
    ChangeLogTests.notification(id, isRead: isRead, version: version, minutesAgo: minutesAgo)
  }

  // MARK: Rule 1

  @Test func aCopyReplacesTheOneHeldOnlyIfItIsNotOlder() {
    var feed = ServerFeed()
    let taken = feed.receive(Self.notification("n1", isRead: true, version: 5))
    #expect(taken)
    let taken2 = feed.receive(Self.notification("n1", isRead: false, version: 4))
    #expect(!taken2)
    #expect(feed.notifications.elements == [Self.notification("n1", isRead: true, version: 5)])
    let taken3 = feed.receive(Self.notification("n1", isRead: false, version: 6))
    #expect(taken3)
    #expect(feed.notifications.elements == [Self.notification("n1", isRead: false, version: 6)])
  }

  @Test func aCopyWithoutAVersionIsStampedWithTheCursorThatCarriedIt() {
    var feed = ServerFeed()
    feed.apply(NotificationEvent(.inserted(Self.notification("n1")), cursor: 7))
    #expect(feed.notifications.elements == [Self.notification("n1", version: 7)])
    // Carried by nothing that says: taken as it arrives, over it and under it.
    let taken = feed.receive(Self.notification("n2", isRead: true))
    #expect(taken)
    let taken2 = feed.receive(Self.notification("n2", isRead: false))
    #expect(taken2)
    #expect(feed.notifications[id: "n2"] == Self.notification("n2", isRead: false))
  }

  // MARK: Rule 2

  @Test func aDeletionRemovesAnOlderCopyAndKeepsOneArrivingLaterOut() {
    var feed = ServerFeed()
    feed.receive(Self.notification("n1", version: 3))
    let applied = feed.apply(NotificationEvent(.deleted(id: "n1"), cursor: 8))
    #expect(applied)
    #expect(feed.notifications.isEmpty)
    // Fetched before the deletion, answered after it.
    let taken = feed.receive(Self.notification("n1", version: 3))
    #expect(!taken)
    #expect(feed.notifications.isEmpty)
    // Made again after it.
    let taken2 = feed.receive(Self.notification("n1", version: 9))
    #expect(taken2)
    #expect(feed.notifications.ids == ["n1"])
  }

  @Test func aDeletionOlderThanTheCopyHeldLeavesIt() {
    var feed = ServerFeed()
    feed.receive(Self.notification("n1", version: 9))
    let removed = feed.remove("n1", at: 8)
    #expect(!removed)
    #expect(feed.notifications.ids == ["n1"])
  }

  @Test func theNewestDeletionsAreRemembered() {
    var feed = ServerFeed()
    let count = 2 * ServerFeed.maximumRemembered + 1
    for index in 1...count { feed.remove("n\(index)", at: ChangeCursor(UInt64(index))) }
    #expect(feed.deletions.count == ServerFeed.maximumRemembered)
    #expect(feed.deletions["n\(count)"] == ChangeCursor(UInt64(count)))
    #expect(feed.deletions["n\(count - ServerFeed.maximumRemembered + 1)"] != nil)
    #expect(feed.deletions["n\(count - ServerFeed.maximumRemembered)"] == nil)
  }

  // MARK: Rule 3

  @Test func aFirstPageReplacesWhatItReflectsAndKeepsWhatIsNewer() {
    var feed = ServerFeed()
    feed.receive(Self.notification("old", version: 2, minutesAgo: 3))
    feed.receive(Self.notification("listed", isRead: true, version: 4, minutesAgo: 2))
    feed.receive(Self.notification("newer", version: 12, minutesAgo: 1))
    let page = NotificationPage(
      items: [Self.notification("listed", version: 6, minutesAgo: 2)], changeCursor: 10)
    let replaced = feed.replace(with: page)
    #expect(replaced)
    #expect(
      feed.notifications.elements == [
        Self.notification("newer", version: 12, minutesAgo: 1),
        Self.notification("listed", version: 6, minutesAgo: 2),
      ])
    #expect(feed.cursor == 10)
    #expect(feed.listing == ServerFeed.Listing(cursor: 10, through: nil))
  }

  @Test func aFirstPageAnsweredAfterANewerOneUndoesNothingNewer() {
    var feed = ServerFeed()
    feed.replace(
      with: NotificationPage(items: [Self.notification("n1", version: 9)], changeCursor: 9))
    // Another device deleted n2 at 8; the refresh asked before it answers last.
    let replaced = feed.replace(
      with: NotificationPage(items: [Self.notification("n2", version: 1)], changeCursor: 7))
    #expect(!replaced)
    #expect(feed.notifications.ids == ["n1"])
    #expect(feed.listing?.cursor == 9)
  }

  @Test func aCopyTheFirstPageWouldHaveListedButDidNotIsNotListed() {
    var feed = ServerFeed()
    let page = NotificationPage(
      items: [
        Self.notification("top", version: 3, minutesAgo: 1),
        Self.notification("last", version: 2, minutesAgo: 5),
      ],
      hasMore: true, changeCursor: 10)
    feed.replace(with: page)
    // Deleted before the page (within its reach): a fetch asked before answers after.
    let taken = feed.receive(Self.notification("gone", version: 4, minutesAgo: 3))
    #expect(!taken)
    // Beyond the page's reach: a later page would list it.
    let taken2 = feed.receive(Self.notification("beyond", version: 4, minutesAgo: 9))
    #expect(taken2)
    // Changed after the page.
    let taken3 = feed.receive(Self.notification("changed", version: 11, minutesAgo: 3))
    #expect(taken3)
    #expect(feed.notifications.ids == ["top", "changed", "last", "beyond"])
  }

  @Test func aLateFirstPageThatReachesFurtherStillHoldsBackWhatItDidNotList() {
    var feed = ServerFeed()
    // The whole feed at 8, without n2; then the first 50 at 9; then a copy of n2 fetched at 7.
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 1, minutesAgo: 1)], changeCursor: 8))
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 1, minutesAgo: 1)], hasMore: true, changeCursor: 9)
    )
    #expect(feed.listings.map(\.cursor) == [9, 8])
    let taken = feed.receive(Self.notification("n2", version: 5, minutesAgo: 4))
    #expect(!taken)
    #expect(feed.notifications.ids == ["n1"])
  }

  @Test func whatIsHeldBeyondAFirstPagesReachStays() {
    var feed = ServerFeed()
    feed.receive(Self.notification("beyond", version: 2, minutesAgo: 9))
    feed.receive(Self.notification("within", version: 2, minutesAgo: 3))
    let page = NotificationPage(
      items: [
        Self.notification("top", version: 3, minutesAgo: 1),
        Self.notification("last", version: 2, minutesAgo: 5),
      ],
      hasMore: true, changeCursor: 10)
    feed.replace(with: page)
    #expect(feed.notifications.ids == ["top", "last", "beyond"])
    #expect(feed.deletions == ["within": 10])
  }

  /// Rule 5: a first page that leaves a copy beyond its reach says nothing of that copy since
  /// it was held, so what is seen (``ServerFeed/current``) stays where it was; a first page that
  /// reaches everything held, and an event of the stream, move it.
  @Test func whatIsSeenIsTheCursorEveryCopyHeldReflects() {
    var feed = ServerFeed()
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], hasMore: true, changeCursor: 5)
    )
    #expect(feed.current == 5)
    feed.append(NotificationPage(items: [Self.notification("n9", version: 2, minutesAgo: 9)]))
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], hasMore: true, changeCursor: 8)
    )
    #expect(feed.cursor == 8)
    #expect(feed.current == 5)
    feed.apply(NotificationEvent(.deleted(id: "n7"), cursor: 9))
    #expect(feed.current == 9)
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], changeCursor: 12))
    #expect(feed.current == 12)
    // A stream opened from now, before any first page: its events say nothing of the copies
    // held before them.
    var fresh = ServerFeed()
    fresh.receive(Self.notification("n9", isRead: true, minutesAgo: 9))
    fresh.apply(NotificationEvent(.deleted(id: "n7"), cursor: 13))
    #expect(fresh.current == nil)
  }

  /// The live stream resumes from what is seen, or, while a copy held beyond the newest first
  /// page's reach leaves that unset, from the page's cursor: a stream opened from now missed
  /// what changed after the page (lifetime seed 8339972125705800260: a notification another
  /// device inserted while the stream was down was never listed).
  @Test func theStreamResumesFromTheNewestFirstPageWhenNotEverythingIsSeen() {
    var feed = ServerFeed()
    #expect(feed.resumeCursor == nil)
    // Fetched by id before the first page (the push of an older notification, say).
    feed.fetched(Self.notification("n9", version: 2, minutesAgo: 90))
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], hasMore: true, changeCursor: 5)
    )
    #expect(feed.current == nil)
    #expect(feed.resumeCursor == 5)
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], changeCursor: 7))
    #expect(feed.current == 7)
    #expect(feed.resumeCursor == 7)
  }

  /// While a copy beyond the newest first page's reach leaves ``current`` unset, the stream
  /// resumes from where it got to, not from a later first page: lifetime seed
  /// 7919694721165589672, where another device deleted n57 (loaded by a later page) while the
  /// stream was down, a refresh's page (which does not reach n57) came after, and the stream,
  /// resumed from that page, never said n57 was deleted.
  @Test func theStreamResumesFromWhereItGotToNotFromALaterFirstPage() {
    var feed = ServerFeed()
    feed.fetched(Self.notification("n9", version: 2, minutesAgo: 90))
    let n1 = Self.notification("n1", version: 3, minutesAgo: 1)
    feed.replace(with: NotificationPage(items: [n1], hasMore: true, changeCursor: 5))
    #expect(feed.followed == 5)
    feed.apply(
      NotificationEvent(.updated(Self.notification("n1", isRead: true, minutesAgo: 1)), cursor: 6))
    #expect(feed.followed == 6)
    // The stream drops; n9 is deleted at 7; a refresh's page at 8 does not reach n9.
    feed.replace(with: NotificationPage(items: [n1], hasMore: true, changeCursor: 8))
    #expect(feed.current == nil)
    #expect(feed.resumeCursor == 6)
    // The catch-up from 6 says so.
    feed.apply(NotificationEvent(.deleted(id: "n9"), cursor: 7))
    #expect(feed.notifications.ids == ["n1"])
    #expect(feed.followed == 7)
  }

  /// A copy fetched by id carries no cursor: it never replaces a copy with a version (a
  /// lookup answered after an event of the stream showed the notification as it was before).
  @Test func aCopyWithNoVersionDoesNotReplaceOneWithAVersion() {
    var feed = ServerFeed()
    feed.apply(
      NotificationEvent(.updated(Self.notification("n1", version: 9, minutesAgo: 1)), cursor: 9))
    let replaced = feed.receive(Self.notification("n1", isRead: true, minutesAgo: 1))
    #expect(!replaced)
    #expect(feed.notifications[id: "n1"]?.version == 9)
    let held = feed.receive(Self.notification("n2", isRead: true, minutesAgo: 2))
    #expect(held)
  }

  @Test func aLaterPageAddsAndDropsNothing() {
    var feed = ServerFeed()
    feed.replace(
      with: NotificationPage(
        items: [Self.notification("n1", version: 3, minutesAgo: 1)], hasMore: true, changeCursor: 10
      ))
    feed.append(NotificationPage(items: [Self.notification("n2", minutesAgo: 5)], changeCursor: 11))
    #expect(
      feed.notifications.elements == [
        Self.notification("n1", version: 3, minutesAgo: 1),
        Self.notification("n2", version: 11, minutesAgo: 5),
      ])
    #expect(feed.listing?.cursor == 10)
  }

  @Test func aSnapshotIsTheWholeFeed() {
    var feed = ServerFeed()
    feed.receive(Self.notification("n1", version: 3))
    feed.apply(NotificationEvent(.snapshot([Self.notification("n2", version: 4)]), cursor: 5))
    #expect(feed.notifications.ids == ["n2"])
    #expect(feed.listing == ServerFeed.Listing(cursor: 5, through: nil))
    let taken = feed.receive(Self.notification("n1", version: 3))
    #expect(!taken)
  }

  // MARK: Rule 4

  @Test func theCursorIsTheNewestOfAFirstPageOrAnEvent() {
    var feed = ServerFeed()
    feed.apply(NotificationEvent(.inserted(Self.notification("n1")), cursor: 12))
    feed.apply(NotificationEvent(.deleted(id: "n0"), cursor: 11))
    #expect(feed.cursor == 12)
    feed.replace(with: NotificationPage(items: [], changeCursor: 13))
    #expect(feed.cursor == 13)
    feed.append(NotificationPage(items: [], changeCursor: 20))
    #expect(feed.cursor == 13)
  }

  // MARK: A history delivered late

  static var seeds: [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["LOOM_SERVER_FEED_TRACE"].flatMap(UInt64.init) { return [seed] }
    if let count = environment["LOOM_SERVER_FEED_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...100)
  }

  /// A server changes a few notifications; everything it said (events, first pages, later
  /// pages, fetched copies) is delivered late, twice and out of order. After each delivery,
  /// every notification is held as the server had it at the newest cursor delivered about it
  /// (an older answer never undoes a newer one); after the server's newest first page, the feed
  /// is the server's.
  ///
  /// More seeds: `LOOM_SERVER_FEED_SEEDS=5000 swift test --filter ServerFeedTests`; one seed's
  /// trace: `LOOM_SERVER_FEED_TRACE=<seed>`.
  @Test(arguments: seeds)
  func aHistoryDeliveredLateTwiceAndOutOfOrderNeverGoesBack(seed: UInt64) {
    var random = SeededRandomNumberGenerator(seed: seed)
    let history = ServerHistory.random(using: &random)
    var feed = ServerFeed()
    // What the newest message about each id says it is (ties: the last delivered).
    var newest: [String: ServerHistory.Fact] = [:]
    var trace: [String] = []
    let traced = ProcessInfo.processInfo.environment["LOOM_SERVER_FEED_TRACE"] == "\(seed)"
    for _ in 0..<60 {
      let message = history.message(using: &random)
      trace.append("\(message)")
      history.deliver(message, to: &feed)
      for (id, fact) in history.facts(of: message) where fact.cursor >= newest[id]?.cursor ?? 0 {
        newest[id] = fact
      }
      for (id, fact) in newest.sorted(by: { $0.key < $1.key }) {
        let held = feed.notifications[id: id]
        if held != fact.expected {
          let lines = trace.suffix(traced ? 1_000 : 12).joined(separator: "\n")
          Issue.record(
            """
            seed \(seed): \(id) is \(held.map { "\($0)" } ?? "absent"), expected \
            \(fact.expected.map { "\($0)" } ?? "absent") (what was said at \(fact.cursor))
            \(lines)
            """)
          return
        }
      }
    }
    history.deliver(.firstPage(at: history.end, whole: true), to: &feed)
    #expect(feed.notifications.elements == history.feed(at: history.end), "seed \(seed)")
  }
}

/// A server's history: every change to a few notifications, each at the next cursor.
struct ServerHistory {
  /// The state of each notification after each cursor: `nil` when it is deleted (or not made
  /// yet).
  private var states: [[String: NotificationData]] = [[:]]
  let ids = ["a", "b", "c", "d", "e", "f"]

  var end: UInt64 { UInt64(states.count - 1) }

  static func random(using random: inout SeededRandomNumberGenerator) -> ServerHistory {
    var history = ServerHistory()
    for cursor in 1...40 {
      var state = history.states[cursor - 1]
      let id = history.ids.randomElement(using: &random)!
      let minutesAgo = Double(history.ids.firstIndex(of: id)!) * 2
      switch (state[id], Int.random(in: 0..<3, using: &random)) {
      case (nil, _):
        state[id] = ServerFeedTests.notification(
          id, version: ChangeCursor(UInt64(cursor)), minutesAgo: minutesAgo)
      case (_?, 0):
        state[id] = nil
      case (var copy?, _):
        copy.isRead.toggle()
        copy.version = ChangeCursor(UInt64(cursor))
        state[id] = copy
      }
      history.states.append(state)
    }
    return history
  }

  func state(of id: String, at cursor: UInt64) -> NotificationData? { states[Int(cursor)][id] }

  func feed(at cursor: UInt64) -> [NotificationData] {
    states[Int(cursor)].values.sorted(by: NotificationData.isOrderedBefore)
  }

  /// Something the server said, at some cursor of its history.
  enum Message: CustomStringConvertible {
    /// The change at a cursor.
    case event(at: UInt64)
    /// A first page: the whole feed, or its top three.
    case firstPage(at: UInt64, whole: Bool)
    /// The page after the top three, to the end.
    case laterPage(at: UInt64)
    case fetched(String, at: UInt64)

    var description: String {
      switch self {
      case .event(let cursor): "event at \(cursor)"
      case .firstPage(let cursor, let whole): "first page at \(cursor)\(whole ? "" : ", top 3")"
      case .laterPage(let cursor): "later page at \(cursor)"
      case .fetched(let id, let cursor): "fetched \(id) at \(cursor)"
      }
    }
  }

  /// What a message says a notification is, as of a cursor: `nil` for deleted.
  struct Fact {
    var cursor: UInt64
    var expected: NotificationData?
  }

  /// A message about any cursor of the history, most often a recent one.
  func message(using random: inout SeededRandomNumberGenerator) -> Message {
    let cursor = UInt64.random(in: 1...end, using: &random)
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<4: return .event(at: cursor)
    case 4..<6: return .firstPage(at: cursor, whole: Bool.random(using: &random))
    case 6..<8: return .laterPage(at: cursor)
    default: return .fetched(ids.randomElement(using: &random)!, at: cursor)
    }
  }

  /// The id the change at `cursor` changed.
  func changed(at cursor: UInt64) -> String {
    ids.first { states[Int(cursor)][$0] != states[Int(cursor) - 1][$0] }!
  }

  func deliver(_ message: Message, to feed: inout ServerFeed) {
    switch message {
    case .event(let cursor):
      let id = changed(at: cursor)
      let change: NotificationChange =
        switch (state(of: id, at: cursor - 1), state(of: id, at: cursor)) {
        case (_, nil): .deleted(id: id)
        case (nil, let copy?): .inserted(copy)
        case (_, let copy?): .updated(copy)
        }
      feed.apply(NotificationEvent(change, cursor: ChangeCursor(cursor)))
    case .firstPage(let cursor, let whole):
      let all = self.feed(at: cursor)
      let items = whole ? all : Array(all.prefix(3))
      feed.replace(
        with: NotificationPage(
          items: items, hasMore: items.count < all.count, changeCursor: ChangeCursor(cursor)))
    case .laterPage(let cursor):
      feed.append(
        NotificationPage(
          items: Array(self.feed(at: cursor).dropFirst(3)), changeCursor: ChangeCursor(cursor)))
    case .fetched(let id, let cursor):
      if let copy = state(of: id, at: cursor) { feed.receive(copy) }
    }
  }

  func facts(of message: Message) -> [(String, Fact)] {
    switch message {
    case .event(let cursor):
      let id = changed(at: cursor)
      return [(id, Fact(cursor: cursor, expected: state(of: id, at: cursor)))]
    case .firstPage(let cursor, let whole):
      let all = feed(at: cursor)
      // Ids sort by their place in `ids`: a partial page reaches down to its third, and says
      // nothing of what is beyond.
      let reach = whole || all.count <= 3 ? ids.count : ids.firstIndex(of: all[2].id)! + 1
      return ids.prefix(reach).map { id in
        (id, Fact(cursor: cursor, expected: state(of: id, at: cursor)))
      }
    case .laterPage(let cursor):
      return feed(at: cursor).dropFirst(3).map { ($0.id, Fact(cursor: cursor, expected: $0)) }
    case .fetched(let id, let cursor):
      // A fetch of a deleted notification fails: it says nothing.
      guard let copy = state(of: id, at: cursor) else { return [] }
      return [(id, Fact(cursor: cursor, expected: copy))]
    }
  }
}
