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

  /// The ids, oldest first.
  public private(set) var keys: [UUID] = []
  private var changes: [UUID: Change] = [:]

  /// No changes.
  public init() {}

  public init(dictionaryLiteral elements: (UUID, Change)...) {
    for (id, change) in elements { self[id] = change }
  }

  /// The change with `id`. Setting a new id adds it as the newest; setting an existing id
  /// replaces its change in place; setting `nil` removes it.
  ///
  /// - Complexity: O(1) to read or add, O(*n*) to remove.
  public subscript(id: UUID) -> Change? {
    get { changes[id] }
    set {
      if let newValue {
        if changes.updateValue(newValue, forKey: id) == nil { keys.append(id) }
      } else {
        removeValue(forKey: id)
      }
    }
  }

  /// Removes the change with `id` and returns it.
  @discardableResult
  public mutating func removeValue(forKey id: UUID) -> Change? {
    guard let change = changes.removeValue(forKey: id) else { return nil }
    keys.removeAll { $0 == id }
    return change
  }

  /// The changes, oldest first.
  public var values: [Change] { keys.compactMap { changes[$0] } }

  public var isEmpty: Bool { keys.isEmpty }
  public var count: Int { keys.count }
}

extension PendingChanges: CustomDebugStringConvertible {
  public var debugDescription: String {
    "[" + keys.map { "\($0): \(changes[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ") + "]"
  }
}
