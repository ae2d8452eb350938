extension NotificationFeed: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { elements.count }

  /// The notification at `position`.
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> NotificationData { elements[position] }
}

extension NotificationFeed: ExpressibleByArrayLiteral {
  /// Creates a feed from a literal, keeping the first notification of each id.
  ///
  /// ```swift
  /// let feed: NotificationFeed = [ping, alert]
  /// ```
  public init(arrayLiteral notifications: NotificationData...) {
    self.init(uniqueElements: notifications)
  }
}

extension NotificationFeed: Equatable {
  /// Two feeds are equal when they hold equal notifications in the same order (their counts
  /// then agree too).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elements == rhs.elements
  }
}

extension NotificationFeed: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elements)
  }
}

extension NotificationFeed: CustomReflectable {
  /// A collection mirror of the notifications, so dumps and test failure diffs show the feed
  /// like an array and leave the counts out.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension NotificationFeed: CustomStringConvertible {
  public var description: String { elements.description }
}
