import Foundation

/// What the server has said about the feed, newest by cursor: the newest copy of each
/// notification it listed, and the deletions it reported. An answer that arrives late (a page
/// asked for before a change, an event a catch-up replays, a notification fetched before another
/// device deleted it) never undoes what a newer one said.
///
/// It is the truth the ``ChangeLog`` is replayed on: `shown = log.shown(over: feed.notifications)`.
///
/// ```swift
/// feed.replace(with: NotificationPage(items: [readCopy], changeCursor: 9))
/// feed.apply(NotificationEvent(.deleted(id: readCopy.id), cursor: 10))
/// feed.replace(with: NotificationPage(items: [readCopy], changeCursor: 8))   // late: older
/// feed.notifications.isEmpty   // true
/// ```
///
/// Everything the server says is placed by a cursor: a copy by its
/// ``NotificationData/version``, or, when it has none, by the cursor of what carried it (a
/// page's ``NotificationPage/changeCursor``, an event's ``NotificationEvent/cursor``), with
/// which it is stamped. A copy or a deletion that carries no cursor at all (a backend that does
/// not order what it says) is taken as it arrives.
///
/// Rules it keeps (`ServerFeedTests` delivers a server's history late, twice and out of order,
/// and checks them):
///
/// 1. A copy replaces the one held only if it is not older (a copy with no version is older than
///    one with a version).
/// 2. A deletion at a cursor removes a copy not newer than it, and is remembered (at least the
///    newest ``maximumRemembered``) so that a copy not newer than it, arriving later, is not
///    listed.
/// 3. A first page at a cursor is the feed as of that cursor, down to its last notification
///    (its reach): a copy within its reach that it does not list, and that is not newer, was
///    deleted by then (rule 2), and so was one that arrives later. Beyond its reach nothing is
///    known, and what is held stays.
/// 4. ``cursor`` is the newest cursor of a first page or an event applied.
/// 5. ``current`` is a cursor up to which every copy held is as the server has it: a first page
///    sets it to its cursor when no copy held lies beyond its reach (a copy it does not reach is
///    only as new as before), and an event of the live stream, which delivers every change after
///    the cursor it opened from (``current`` then), moves it to the event's cursor, once there
///    is one (a stream opened with none starts from now, and says nothing of what came before).
///    A first page older than the newest (an answer that came late) may add, beyond the
///    newest's reach, copies only as new as its own cursor, behind ``current``: the feature
///    never applies one, as asking for a first page cancels the one in flight.
/// 6. ``followed`` is the cursor up to which the live stream has delivered every change: the
///    first first page's cursor (the stream opens from it), then each event's. A later first
///    page does not move it: while ``current`` is unset, a copy beyond that page's reach is
///    kept only as new as the stream made it, and a stream resumed from the page would miss
///    what changed between the stream's last event and the page.
public struct ServerFeed: Sendable, Hashable {
  /// The newest copy of each notification the server listed and has not deleted, in the feed's
  /// order.
  public private(set) var notifications: NotificationFeed = []
  /// The newest cursor of a first page or an event applied; `nil` before any (or with a backend
  /// that does not say).
  public private(set) var cursor: ChangeCursor?
  /// The cursor up to which every copy held is as the server has it (rule 5): what the
  /// feature has seen of the server, and where the live stream's catch-up starts. Behind
  /// ``cursor`` while a first page left copies beyond its reach that nothing has refreshed.
  public private(set) var current: ChangeCursor?
  /// The first pages applied that no newer one reaches as far as: each page's cursor and how
  /// far down the feed it reaches, newest first. Usually one; two or three when a late answer
  /// reached further than a newer page (a whole feed, say, after a first page of 50).
  public private(set) var listings: [Listing] = []

  /// The newest first page applied.
  public var listing: Listing? { listings.first }

  /// The cursor up to which the live stream has delivered every change (rule 6): where it
  /// resumes while ``current`` is unset. `nil` before the first first page with a cursor.
  public private(set) var followed: ChangeCursor?

  /// Where the live stream resumes, its catch-up first: ``current``, or, while copies beyond
  /// the newest first page's reach leave that unset, ``followed`` (the first page's cursor
  /// before any event). A stream from it misses no change after what is held; one opened from
  /// now would miss what changed since, and one opened from a later first page what changed,
  /// beyond that page's reach, before it.
  public var resumeCursor: ChangeCursor? { current ?? followed ?? listing?.cursor }
  /// The notifications the server deleted, each with the cursor of its deletion.
  public private(set) var deletions: [String: ChangeCursor] = [:]
  /// How many unread notifications the server has that are not held: its unread total at the
  /// newest first page that gave one, less the unread copies held then, less those held since
  /// (see ``unreadNotHeld``). `nil` when no first page gave a total.
  public private(set) var unreadNotHeld: UnreadNotHeld?

  /// How many deletions are remembered at least: the newest by cursor. A copy older than a deletion
  /// forgotten (one asked for before a thousand newer deletions, answered after them) is listed
  /// until the next first page.
  public static let maximumRemembered = 1_000

  public init() {}

  /// What a first page said: the feed as of `cursor`, from its top down to `through` (every
  /// notification when `nil`).
  public struct Listing: Sendable, Hashable {
    public var cursor: ChangeCursor
    /// The position of the page's last notification; `nil` when the page was the whole feed.
    public var through: FeedPosition?

    public init(cursor: ChangeCursor, through: FeedPosition?) {
      self.cursor = cursor
      self.through = through
    }

    /// Whether `copy` sorts within the page: the page would have listed it, had the server
    /// had it at ``cursor``.
    public func reaches(_ copy: NotificationData) -> Bool {
      reaches(timestamp: copy.timestamp, id: copy.id)
    }

    func reaches(timestamp: Date, id: String) -> Bool {
      guard let through else { return true }
      if timestamp != through.timestamp { return timestamp > through.timestamp }
      return id <= through.id
    }

    /// Whether this page says at least what `other` says: it is not older and reaches as far.
    func covers(_ other: Listing) -> Bool {
      guard cursor >= other.cursor else { return false }
      guard let end = other.through else { return through == nil }
      return reaches(timestamp: end.timestamp, id: end.id)
    }
  }

  /// The unread notifications the server has beyond what is held, as of a cursor: what a
  /// badge adds to the unread copies shown, so that it counts the server's total and not only
  /// what is loaded.
  ///
  /// What it cannot know is right again after the next first page: an unread notification not
  /// held that another device deletes is counted until then.
  public struct UnreadNotHeld: Sendable, Hashable {
    public var count: Int
    /// The cursor it is as of: a first page's, or an answer's that marked everything read.
    public var cursor: ChangeCursor?
  }

  /// Takes a copy of a notification the server sent, carried by something at `cursor` (a page,
  /// an event), unless the copy held or a deletion is newer (rules 1 and 2).
  ///
  /// - Returns: Whether the copy is now the one held.
  @discardableResult
  public mutating func receive(_ copy: NotificationData, at cursor: ChangeCursor? = nil) -> Bool {
    var copy = copy
    if copy.version == nil { copy.version = cursor }
    if let version = copy.version, let deleted = deletions[copy.id], version <= deleted {
      return false
    }
    let held = notifications[id: copy.id]
    // A first page did not list it, though it would have: deleted by then (rule 3).
    if held == nil, let version = copy.version,
      listings.contains(where: { version <= $0.cursor && $0.reaches(copy) })
    {
      return false
    }
    if let held {
      if let version = copy.version, let heldVersion = held.version, version < heldVersion {
        return false
      }
      // A copy that says nothing of its version (fetched by id, with no page or event to
      // carry a cursor) cannot be newer than one that does: it may have been read before it.
      if copy.version == nil, held.version != nil { return false }
      notifications.remove(id: copy.id)
    }
    notifications.insert(copy, at: notifications.insertionIndex(for: copy))
    return true
  }

  /// Takes the server's deletion of a notification at `cursor` (rule 2): the copy held goes
  /// unless it is newer.
  ///
  /// - Returns: Whether a copy was removed.
  @discardableResult
  public mutating func remove(_ id: String, at cursor: ChangeCursor?) -> Bool {
    if let cursor, deletions[id].map({ $0 < cursor }) ?? true {
      deletions[id] = cursor
      forgetOldestDeletions()
    }
    guard let held = notifications[id: id] else { return false }
    if let cursor, let version = held.version, version > cursor { return false }
    notifications.remove(id: id)
    return true
  }

  /// Applies a first page (rule 3).
  ///
  /// - Returns: Whether it is the newest first page applied (not an answer to an earlier
  ///   refresh that came after a later one's): the one a next page follows.
  @discardableResult
  public mutating func replace(with page: NotificationPage) -> Bool {
    let isNewest = replace(with: page.items, at: page.changeCursor, whole: !page.hasMore)
    guard isNewest else { return false }
    if !page.hasMore {
      // The whole feed: everything it has is held.
      unreadNotHeld = UnreadNotHeld(count: 0, cursor: page.changeCursor)
    } else if let total = page.unreadTotal {
      unreadNotHeld = UnreadNotHeld(
        count: max(0, total - notifications.unreadCount), cursor: page.changeCursor)
    } else {
      // A page with no total says nothing of what is not held: the count is of what is held,
      // not an earlier page's total.
      unreadNotHeld = nil
    }
    return true
  }

  /// Shows a first page an earlier launch kept (a cache) until the server's first page comes:
  /// its copies and its total, as a page of a server that does not order what it says. It is
  /// not a ``listing``: it is older than anything the server says now, so a copy it would have
  /// listed is not held back by it, and the server's first page is this launch's first
  /// listing (the one the live stream opens from).
  public mutating func replace(withCached page: NotificationPage) {
    var page = page
    page.changeCursor = nil
    replace(with: page)
  }

  /// Adds a later page: each copy as ``receive(_:at:)`` takes it. Nothing held is dropped; an
  /// unread copy not held before is no longer among the unread notifications not held.
  public mutating func append(_ page: NotificationPage) {
    for copy in page.items { fetched(copy, at: page.changeCursor) }
    // The last page: everything the server has is held.
    if !page.hasMore, unreadNotHeld != nil { unreadNotHeld?.count = 0 }
  }

  /// Takes a copy fetched out of the live stream (a later page, one notification by id, the
  /// unread notifications about something) as ``receive(_:at:)`` does; an unread one that was
  /// not held is no longer counted among the unread notifications not held.
  ///
  /// - Returns: Whether the copy is now the one held.
  @discardableResult
  public mutating func fetched(_ copy: NotificationData, at cursor: ChangeCursor? = nil) -> Bool {
    let held = notifications[id: copy.id]
    let isHeld = receive(copy, at: cursor)
    guard isHeld else { return false }
    // Unread now and not before (not held, or held read): no longer among those not held. Held
    // unread before and read now: the first page counted it held, but the server's total did
    // not count it; it is one more of those not held than that count said.
    let wasUnread = held.map { !$0.isRead } ?? false
    if !copy.isRead, !wasUnread { countLoaded() }
    if copy.isRead, wasUnread, let count = unreadNotHeld?.count { unreadNotHeld?.count = count + 1 }
    return true
  }

  /// The server applied `intent` and did not say at which cursor (a backend that does not order
  /// what it says): the copies held are changed as it changes them, their versions kept.
  public mutating func assume(_ intent: ChangeIntent) {
    let copies =
      intent.ids.isEmpty ? Array(notifications) : intent.ids.compactMap { notifications[id: $0] }
    for copy in copies {
      if let changed = intent.applied(to: copy) {
        if changed != copy { receive(changed) }
      } else {
        remove(copy.id, at: nil)
      }
    }
  }

  /// The server marked every notification read, or deleted every one older than what is held,
  /// at `cursor` (the answer to the person's mark-all or clear-all): as of then, none it has
  /// beyond what is held is unread.
  public mutating func noneUnreadNotHeld(at cursor: ChangeCursor) {
    guard let held = unreadNotHeld, held.cursor.map({ $0 < cursor }) ?? true else { return }
    unreadNotHeld = UnreadNotHeld(count: 0, cursor: cursor)
  }

  private mutating func countLoaded() {
    guard let held = unreadNotHeld, held.count > 0 else { return }
    unreadNotHeld?.count = held.count - 1
  }

  /// Applies an event of the live stream or a catch-up: a copy inserted or updated, a deletion,
  /// or a snapshot of the whole feed (a first page of everything). An event older than what is
  /// held changes nothing (rules 1 to 3), so a catch-up may replay events the stream sent.
  ///
  /// - Returns: Whether it changed the feed; for a snapshot, whether it is the newest first
  ///   page applied.
  @discardableResult
  public mutating func apply(_ event: NotificationEvent) -> Bool {
    if let position = event.cursor {
      cursor = max(cursor ?? position, position)
      // The stream opened from `current`, so it delivers every change after it: contiguous.
      // Opened with none (from now), it says nothing of what came before.
      if let current { self.current = max(current, position) }
      if let followed { self.followed = max(followed, position) }
    }
    switch event.change {
    case .inserted(let copy): return receive(copy, at: event.cursor)
    case .updated(let copy):
      // An update changes the read state: one not held that is read now was unread.
      let wasHeld = notifications.contains(id: copy.id)
      let isHeld = receive(copy, at: event.cursor)
      if isHeld, !wasHeld, copy.isRead { countLoaded() }
      return isHeld
    case .deleted(let id): return remove(id, at: event.cursor)
    case .snapshot(let copies):
      guard replace(with: copies, at: event.cursor, whole: true) else { return false }
      unreadNotHeld = UnreadNotHeld(count: 0, cursor: event.cursor)
      return true
    }
  }

  private mutating func replace(
    with copies: [NotificationData], at position: ChangeCursor?, whole: Bool
  ) -> Bool {
    guard let position else {
      // A backend that does not order what it says: the list is the page.
      notifications.removeAll()
      listings = []
      for copy in copies { receive(copy) }
      return true
    }
    // A page that lists nothing but says there is more reaches nothing.
    let last = copies.min { NotificationData.isOrderedBefore($1, $0) }
    let page = Listing(
      cursor: position,
      through: whole
        ? nil : FeedPosition(timestamp: last?.timestamp ?? .distantFuture, id: last?.id ?? ""))
    let listed = Set(copies.lazy.map(\.id))
    // Within the page's reach, a copy it does not list and does not reflect was deleted by then.
    let gone = notifications.filter { copy in
      !listed.contains(copy.id) && page.reaches(copy) && copy.version.map { $0 <= position } ?? true
    }
    for copy in gone { remove(copy.id, at: position) }
    let isNewest = listing.map { $0.cursor <= position } ?? true
    // Its own copies are not held back by what it says (a newer page still holds back the
    // copies it did not list).
    let others = listings.filter { !page.covers($0) }
    listings = others
    for copy in copies { receive(copy, at: position) }
    cursor = max(cursor ?? position, position)
    if isNewest, !notifications.contains(where: { !page.reaches($0) }) {
      current = max(current ?? position, position)
    }
    // The live stream opens from the first first page: it follows the server from there.
    if followed == nil { followed = position }
    if !others.contains(where: { $0.covers(page) }) {
      listings = (others + [page]).sorted { $0.cursor > $1.cursor }
    }
    return isNewest
  }

  /// Keeps the newest ``maximumRemembered`` deletions once twice as many are remembered: each
  /// deletion costs O(log *k*) amortized.
  private mutating func forgetOldestDeletions() {
    guard deletions.count > 2 * Self.maximumRemembered else { return }
    let oldest = deletions.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
    for (id, _) in oldest.prefix(deletions.count - Self.maximumRemembered) {
      deletions[id] = nil
    }
  }
}
