extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { _elements.count }

  /// The element at `position`. Mutating through it changes the element in place, and the
  /// collection algorithms of the standard library that write through positions (`sort()`,
  /// `reverse()`, `shuffle()`, `partition(by:)`, `swapAt(_:_:)`) keep the id index:
  ///
  /// ```swift
  /// var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
  /// rows[0].isOn = true
  /// rows.swapAt(0, 1)          // ids [2, 1]
  /// let isOn = rows[id: 1]?.isOn   // true
  /// ```
  ///
  /// - Important: An element's id must not change. Writing an element whose id is not the one
  ///   at `position` is reported as a runtime issue, as through ``subscript(id:)``: the
  ///   element takes the place under its own id, or, if another element already has that id,
  ///   the write is ignored. So a slice cannot be permuted in place (`rows[1...].reverse()`
  ///   writes one element at a time, and would repeat an id on the way): each such write is
  ///   reported and ignored. Permute the whole array, or build the new order.
  ///
  /// - Complexity: O(1).
  @inlinable
  public subscript(position: Int) -> Element {
    get { _elements[position] }
    _modify {
      var element = _elements[position]
      yield &element
      _write(element, as: _ids[position], at: position)
    }
    set { _write(newValue, as: _ids[position], at: position) }
  }

  /// Exchanges the elements at two positions, and their places in the id index.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    _elements.swapAt(i, j)
    _ids.swapAt(i, j)
    _positions[_ids[i]] = i
    _positions[_ids[j]] = j
    _writes.record(_ids[i])
    _writes.record(_ids[j])
  }

  /// Calls `body` with the elements' storage, then indexes them again: how `sort()`,
  /// `reverse()` and `shuffle()` run in place. Should `body` leave an id on two elements, its
  /// whole edit is undone and reported (see the positional subscript): the count never changes.
  ///
  /// - Complexity: O(*n*) besides `body`.
  public mutating func withContiguousMutableStorageIfAvailable<R>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    let before = (elements: _elements, ids: _ids)
    defer {
      reindexAll(orRestore: before)
      _writes.record(nil)
    }
    return try _elements.withUnsafeMutableBufferPointer { buffer in try body(&buffer) }
  }
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
