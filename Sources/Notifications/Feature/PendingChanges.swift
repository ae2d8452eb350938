import Foundation

/// The changes applied optimistically and not yet confirmed, by change id, in the order they
/// were made: a dictionary that remembers its insertion order, so that when several changes
/// to one notification are pending, the newest applies last.
///
/// ```swift
/// var pending: PendingChanges = [:]
/// pending[UUID(0)] = .markAll(ids: ["n1", "n2"])
/// pending[UUID(1)] = .setRead(id: "n1", isRead: false, previous: true)
/// // pending.values: the mark-all, then the mark-unread
/// ```
///
/// Two values are equal when they hold the same changes in the same order.
public struct PendingChanges: Equatable, Sendable, ExpressibleByDictionaryLiteral {
  public typealias Change = NotificationsFeature.PendingChange

  /// The ids in the order they were added, with the removed ones still in place until there are
  /// enough of them to compact: removing is O(1), as it is from a dictionary.
  private var order: [UUID] = []
  /// The ids removed but still in `order`.
  private var removed: Set<UUID> = []
  private var changes: [UUID: Change] = [:]
  /// How many of the changes touch each notification id: whether a change must wait for an
  /// older one is answered without going through every pending change.
  private var touchCounts: [String: Int] = [:]

  /// No changes.
  public init() {}

  public init(dictionaryLiteral elements: (UUID, Change)...) {
    self.init(elements)
  }

  /// The changes in the order given.
  public init(_ elements: some Sequence<(UUID, Change)>) {
    for (id, change) in elements { self[id] = change }
  }

  /// The change with `id`. Setting a new id adds it as the newest; setting an existing id
  /// replaces its change in place; setting `nil` removes it.
  ///
  /// - Complexity: O(1) amortized.
  public subscript(id: UUID) -> Change? {
    get { changes[id] }
    set {
      guard let newValue else {
        removeValue(forKey: id)
        return
      }
      let previous = changes.updateValue(newValue, forKey: id)
      if let previous { countTouches(of: previous, by: -1) }
      countTouches(of: newValue, by: 1)
      if previous == nil {
        // An id removed and added again goes to the end, once.
        if removed.contains(id) { compact() }
        order.append(id)
      }
    }
  }

  /// Removes the change with `id` and returns it.
  ///
  /// - Complexity: O(1) amortized.
  @discardableResult
  public mutating func removeValue(forKey id: UUID) -> Change? {
    guard let change = changes.removeValue(forKey: id) else { return nil }
    countTouches(of: change, by: -1)
    removed.insert(id)
    if removed.count > 16, removed.count * 2 > order.count { compact() }
    return change
  }

  private mutating func countTouches(of change: Change, by delta: Int) {
    for notificationID in change.ids {
      let count = touchCounts[notificationID, default: 0] + delta
      touchCounts[notificationID] = count > 0 ? count : nil
    }
  }

  /// Whether a change touches one of the notifications `ids`.
  ///
  /// - Complexity: O(*k*) for *k* ids.
  public func touchAny(of ids: some Sequence<String>) -> Bool {
    ids.contains { touchCounts[$0] != nil }
  }

  private mutating func compact() {
    order.removeAll { removed.contains($0) }
    removed = []
  }

  /// The ids, oldest first.
  ///
  /// - Complexity: O(*n*).
  public var keys: [UUID] { removed.isEmpty ? order : order.filter { !removed.contains($0) } }

  /// The changes, oldest first.
  ///
  /// - Complexity: O(*n*).
  public var values: [Change] { keys.compactMap { changes[$0] } }

  public var isEmpty: Bool { changes.isEmpty }
  public var count: Int { changes.count }

  /// Equal when they hold the same changes in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.changes == rhs.changes && lhs.keys == rhs.keys
  }
}

extension PendingChanges: CustomDebugStringConvertible {
  public var debugDescription: String {
    "[" + keys.map { "\($0): \(changes[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
      + "]"
  }
}
