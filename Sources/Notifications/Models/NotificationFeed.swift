import Loom

/// The notifications of a feed, unique by id, with the derived values every action reads (the
/// unread count and the positions of each type) kept up to date by every change, so reading
/// them never scans the feed.
///
/// It reads and changes like an `IdentifiedArray`: elements are found by id and changed in
/// place, and the counts follow whatever the change was.
///
/// ```swift
/// var feed: NotificationFeed = [ping, alert]
/// feed[id: ping.id]?.isRead = true           // in place: one fewer unread
/// let badge = feed.unreadCount               // O(1)
/// let alerts = feed.filtered(.type(.alert))  // O(1): a view, in feed order
/// ```
///
/// There is no way to change the elements around the counts: every mutating member goes
/// through the bookkeeping, so two feeds with equal elements have equal counts, and equality
/// compares the elements only.
public struct NotificationFeed: Sendable {
  private var storage: IdentifiedArrayOf<NotificationData>
  /// The number of elements whose `isRead` is `false`.
  private var unread: Int
  /// For each type present, the positions of its elements, ascending. A type with no element
  /// has no entry.
  private var positionsByType: [NotificationType: [Int]]

  /// Creates an empty feed.
  public init() {
    self.init(IdentifiedArray())
  }

  /// Creates a feed of `notifications` in the order given, keeping the first of each id.
  ///
  /// ```swift
  /// let feed = NotificationFeed(uniqueElements: page.items)
  /// ```
  ///
  /// - Complexity: O(*n*).
  public init(uniqueElements notifications: some Sequence<NotificationData>) {
    self.init(IdentifiedArray(uniqueElements: notifications))
  }

  /// Creates a feed of the notifications of an identified array, in its order.
  ///
  /// ```swift
  /// let feed = NotificationFeed(identifiedArray)
  /// ```
  ///
  /// - Complexity: O(*n*).
  public init(_ notifications: IdentifiedArrayOf<NotificationData>) {
    self.storage = notifications
    self.unread = 0
    self.positionsByType = [:]
    recount()
  }

  // MARK: Derived values

  /// The number of unread notifications.
  ///
  /// ```swift
  /// let badge = feed.unreadCount
  /// ```
  ///
  /// - Complexity: O(1).
  public var unreadCount: Int { unread }

  /// The number of notifications of `type`.
  ///
  /// ```swift
  /// let alerts = feed.count(of: .alert)
  /// ```
  ///
  /// - Complexity: O(1).
  public func count(of type: NotificationType) -> Int {
    positionsByType[type]?.count ?? 0
  }

  /// The notifications that pass `filter` (and are unread, when `unreadOnly`), in feed order,
  /// as a view that copies no notification.
  ///
  /// ```swift
  /// let unreadPings = feed.filtered(.type(.ping), unreadOnly: true)
  /// ```
  ///
  /// - Complexity: O(1) unless `unreadOnly`, which reads the `isRead` flag of each notification
  ///   the filter passes: O(*k*) for a type with *k* notifications, O(*n*) for `.all`.
  public func filtered(_ filter: NotificationFilter, unreadOnly: Bool = false)
    -> FilteredNotifications
  {
    let elements = storage.elements
    let candidates: [Int]?
    switch filter {
    case .all: candidates = nil
    case .type(let type): candidates = positionsByType[type] ?? []
    }
    guard unreadOnly else {
      return FilteredNotifications(elements: elements, positions: candidates)
    }
    if unread == 0 { return FilteredNotifications(elements: elements, positions: []) }
    let positions =
      candidates?.filter { !elements[$0].isRead }
      ?? elements.indices.filter { !elements[$0].isRead }
    return FilteredNotifications(elements: elements, positions: positions)
  }

  // MARK: Reading

  /// The notifications as an identified array.
  ///
  /// - Complexity: O(1).
  public var identifiedArray: IdentifiedArrayOf<NotificationData> { storage }

  /// The notifications, in order.
  ///
  /// - Complexity: O(1).
  public var elements: [NotificationData] { storage.elements }

  /// The ids of the notifications, in order.
  ///
  /// - Complexity: O(1).
  public var ids: [String] { storage.ids }

  /// The position of the notification with `id`, or `nil`.
  ///
  /// - Complexity: O(1).
  public func index(id: String) -> Int? { storage.index(id: id) }

  /// Where `notification` goes in a feed kept in the feed's order (newest first, see
  /// ``NotificationData/isOrderedBefore(_:_:)``): the position of the first notification it
  /// sorts before, or the end.
  ///
  /// ```swift
  /// feed.insert(notification, at: feed.insertionIndex(for: notification))
  /// ```
  ///
  /// - Complexity: O(1) when it sorts after every notification (a page appended at the end);
  ///   O(log *n*) otherwise.
  public func insertionIndex(for notification: NotificationData) -> Int {
    let elements = storage.elements
    guard let last = elements.last, !NotificationData.isOrderedBefore(last, notification) else {
      return elements.count
    }
    var low = 0
    var high = elements.count - 1
    while low < high {
      let middle = low + (high - low) / 2
      if NotificationData.isOrderedBefore(notification, elements[middle]) {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return low
  }

  /// Whether a notification with `id` is present.
  ///
  /// - Complexity: O(1).
  public func contains(id: String) -> Bool { storage.contains(id: id) }

  // MARK: Changing

  /// The notification with `id`: reading returns it or `nil`; setting a value replaces it (or
  /// appends it when the id is new); setting `nil` removes it. The counts follow.
  ///
  /// ```swift
  /// feed[id: "n1"]?.isRead = true
  /// feed[id: "n2"] = nil
  /// ```
  ///
  /// - Important: A notification's id must not change; see `IdentifiedArray`'s
  ///   `subscript(id:)`, which reports it. The counts stay right in that case too (they are
  ///   counted again).
  ///
  /// - Complexity: O(1) to read or update in place; removal is O(*n*) unless the
  ///   notification is last.
  public subscript(id id: String) -> NotificationData? {
    get { storage[id: id] }
    _modify {
      let before = Change.Before(of: id, in: storage)
      yield &storage[id: id]
      record(before, id: id)
    }
    set {
      let before = Change.Before(of: id, in: storage)
      storage[id: id] = newValue
      record(before, id: id)
    }
  }

  /// Appends a notification unless one with its id is present.
  ///
  /// - Returns: Whether it was inserted, and the position of the notification with its id.
  /// - Complexity: O(1) amortized.
  @discardableResult
  public mutating func append(_ notification: NotificationData) -> (inserted: Bool, index: Int) {
    insert(notification, at: storage.count)
  }

  /// Inserts a notification at `index` (clamped to the feed) unless one with its id is
  /// present.
  ///
  /// - Returns: Whether it was inserted, and the position of the notification with its id.
  /// - Complexity: O(*n*); O(1) amortized at the end.
  @discardableResult
  public mutating func insert(
    _ notification: NotificationData, at index: Int
  ) -> (inserted: Bool, index: Int) {
    let result = storage.insert(notification, at: index)
    if result.inserted { didInsert(Tally(notification), at: result.index) }
    return result
  }

  /// Removes and returns the notification with `id`, or returns `nil`.
  ///
  /// - Complexity: O(*n*) for the positions after it; O(1) for the last one.
  @discardableResult
  public mutating func remove(id: String) -> NotificationData? {
    guard let position = storage.index(id: id) else { return nil }
    return remove(at: position)
  }

  /// Replaces the notification at `position`, which must be a valid position, with
  /// `notification`, of the same id (another id is reported and handled as through
  /// `subscript(id:)`); the counts follow. The write ``NotificationFeature/State/reshow(_:)``
  /// makes when a notification changes but keeps its place: the id is looked up once, by the
  /// caller, where `subscript(id:)` looks it up three times.
  ///
  /// - Complexity: O(1), or O(*t*) for the *t* notifications of its type when its type changes.
  package mutating func replace(at position: Int, with notification: NotificationData) {
    let old = Tally(storage.elements[position])
    storage[position] = notification
    didReplace(old, with: Tally(storage.elements[position]), at: position)
  }

  /// Removes and returns the notification at `index`, which must be a valid position.
  ///
  /// - Complexity: O(*n*) for the positions after it; O(1) for the last one.
  @discardableResult
  public mutating func remove(at index: Int) -> NotificationData {
    let removed = storage.remove(at: index)
    didRemove(Tally(removed), at: index)
    return removed
  }

  /// Removes every notification that satisfies `shouldBeRemoved`.
  ///
  /// - Complexity: O(*n*).
  public mutating func removeAll(
    where shouldBeRemoved: (NotificationData) throws -> Bool
  ) rethrows {
    try storage.removeAll(where: shouldBeRemoved)
    recount()
  }

  /// Removes every notification.
  public mutating func removeAll() {
    storage.removeAll()
    unread = 0
    positionsByType = [:]
  }

  /// The notifications that satisfy `isIncluded`, in order, as a feed.
  ///
  /// - Complexity: O(*n*).
  public func filter(_ isIncluded: (NotificationData) throws -> Bool) rethrows -> Self {
    Self(try storage.filter(isIncluded))
  }

  // MARK: Bookkeeping

  /// What the counts need to know of one notification.
  private struct Tally: Equatable {
    var type: NotificationType
    var isRead: Bool

    init(_ notification: NotificationData) {
      self.type = notification.type
      self.isRead = notification.isRead
    }
  }

  /// A write through ``subscript(id:)``, seen before and after.
  private enum Change {
    /// The notification with the id before the write: its position, count and tally.
    struct Before {
      var position: Int?
      var count: Int
      var tally: Tally?

      init(of id: String, in storage: IdentifiedArrayOf<NotificationData>) {
        self.position = storage.index(id: id)
        self.count = storage.count
        self.tally = position.map { Tally(storage.elements[$0]) }
      }
    }
  }

  /// Brings the counts up to date after a write through ``subscript(id:)`` to `id`.
  private mutating func record(_ before: Change.Before, id: String) {
    let after = storage.index(id: id)
    switch (before.position, after) {
    case (let old?, let new?) where old == new && storage.count == before.count:
      if let tally = before.tally { didReplace(tally, with: Tally(storage.elements[new]), at: new) }
    case (let old?, nil) where storage.count == before.count - 1:
      if let tally = before.tally { didRemove(tally, at: old) }
    case (nil, let new?) where storage.count == before.count + 1:
      didInsert(Tally(storage.elements[new]), at: new)
    case (nil, nil) where storage.count == before.count:
      break
    default:
      // The write changed the notification's id, which IdentifiedArray reports; count again.
      recount()
    }
  }

  private mutating func didInsert(_ tally: Tally, at position: Int) {
    if !tally.isRead { unread += 1 }
    if position < storage.count - 1 { shiftPositions(from: position, by: 1) }
    positionsByType[tally.type, default: []].insertSorted(position)
  }

  private mutating func didRemove(_ tally: Tally, at position: Int) {
    if !tally.isRead { unread -= 1 }
    removePosition(position, of: tally.type)
    if position < storage.count { shiftPositions(from: position + 1, by: -1) }
  }

  private mutating func didReplace(_ old: Tally, with new: Tally, at position: Int) {
    guard old != new else { return }
    if old.isRead != new.isRead { unread += new.isRead ? -1 : 1 }
    if old.type != new.type {
      removePosition(position, of: old.type)
      positionsByType[new.type, default: []].insertSorted(position)
    }
  }

  private mutating func removePosition(_ position: Int, of type: NotificationType) {
    positionsByType[type]?.removeSorted(position)
    if positionsByType[type]?.isEmpty == true { positionsByType[type] = nil }
  }

  /// Adds `delta` to every position at or after `start`, in every type's list.
  private mutating func shiftPositions(from start: Int, by delta: Int) {
    var index = positionsByType.values.startIndex
    while index != positionsByType.values.endIndex {
      positionsByType.values[index].shift(from: start, by: delta)
      positionsByType.values.formIndex(after: &index)
    }
  }

  /// Counts everything again from the elements.
  private mutating func recount() {
    var unread = 0
    var positionsByType: [NotificationType: [Int]] = [:]
    for (position, notification) in storage.elements.enumerated() {
      if !notification.isRead { unread += 1 }
      positionsByType[notification.type, default: []].append(position)
    }
    self.unread = unread
    self.positionsByType = positionsByType
  }

  /// Whether the counts agree with a scan of the elements, and the elements with their ids.
  /// For tests.
  package func checkInvariants() -> Bool {
    var scanned = self
    scanned.recount()
    return storage.checkInvariants() && scanned.unread == unread
      && scanned.positionsByType == positionsByType
  }
}

extension Array where Element == Int {
  /// The position of the first element not less than `value`, in an ascending array.
  fileprivate func partitionPoint(for value: Int) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = low + (high - low) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  fileprivate mutating func insertSorted(_ value: Int) {
    insert(value, at: partitionPoint(for: value))
  }

  fileprivate mutating func removeSorted(_ value: Int) {
    let index = partitionPoint(for: value)
    if index < count, self[index] == value { remove(at: index) }
  }

  fileprivate mutating func shift(from start: Int, by delta: Int) {
    for index in partitionPoint(for: start)..<count { self[index] += delta }
  }
}
