extension IdentifiedArray: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { _elements.count }

  /// The element at `position`.
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> Element { _elements[position] }
}

extension IdentifiedArray: ExpressibleByArrayLiteral
where Element: Identifiable, Element.ID == ID {
  /// Creates an array from a literal, keeping the first element of each id.
  ///
  /// ```swift
  /// let rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
  /// ```
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._elements == rhs._elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_elements)
  }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array.
  public func encode(to encoder: any Encoder) throws {
    try _elements.encode(to: encoder)
  }
}

extension IdentifiedArray: Decodable
where Element: Decodable & Identifiable, Element.ID == ID {
  /// Decodes a plain array, keeping the first element of each id.
  public init(from decoder: any Decoder) throws {
    self.init(uniqueElements: try [Element](from: decoder))
  }
}

extension IdentifiedArray: CustomReflectable {
  /// A collection mirror of the elements, so dumps and diffs show them like an array (and match
  /// `Identifiable` elements by id).
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: _elements, displayStyle: .collection)
  }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { _elements.description }
}
