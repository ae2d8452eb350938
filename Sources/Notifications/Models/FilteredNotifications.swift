/// The notifications a filter passes, in feed order: a view of a ``NotificationFeed`` that
/// copies no notification.
///
/// ```swift
/// let alerts = feed.filtered(.type(.alert))
/// let shown = alerts.count   // O(1)
/// let title = alerts.first?.title
/// ```
///
/// It is a snapshot: changing the feed later does not change a view taken before.
public struct FilteredNotifications: RandomAccessCollection, Sendable {
  /// Every notification of the feed.
  private let elements: [NotificationData]
  /// The positions in `elements` the view shows, ascending; `nil` for all of them.
  private let positions: [Int]?

  init(elements: [NotificationData], positions: [Int]?) {
    self.elements = elements
    self.positions = positions
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { positions?.count ?? elements.count }

  /// The notification at `position` of the view.
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> NotificationData {
    if let positions { elements[positions[position]] } else { elements[position] }
  }
}

extension FilteredNotifications: Equatable {
  /// Two views are equal when they show equal notifications in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementsEqual(rhs)
  }
}

extension FilteredNotifications: CustomReflectable {
  /// A collection mirror of the notifications shown, so dumps show the view like an array.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
  }
}

extension FilteredNotifications: Encodable {
  /// Encodes the notifications shown as a plain array.
  public func encode(to encoder: any Encoder) throws {
    try Array(self).encode(to: encoder)
  }
}
