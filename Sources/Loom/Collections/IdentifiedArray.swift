import Foundation

/// An ordered collection of elements with unique ids: random access by position, and O(1)
/// lookup, update and removal-from-the-end by id.
///
/// It is the collection ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``
/// runs child reducers over: an element is found by its id and changed in place, without
/// copying the collection.
///
/// ```swift
/// var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
/// rows[id: 2]?.isOn = true       // in place
/// rows[id: 3] = Row(id: 3)       // appends
/// rows[id: 1] = nil              // removes
/// ```
///
/// Ids are unique: where an operation would add an element whose id is already present
/// (creating from a sequence, decoding, `append`), the first element with that id is kept and
/// the later one is dropped. Use ``updateOrAppend(_:)`` to replace an element.
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  /// The ids, in order. Kept in their own array: when elements change but none is inserted or
  /// removed, this buffer is untouched, so comparing two snapshots of `ids` is O(1).
  @usableFromInline var _ids: [ID]
  @usableFromInline var _elements: [Element]
  /// The position of each id.
  @usableFromInline var _positions: [ID: Int]
  @usableFromInline let _idPath: IDPath<Element, ID>
  /// The latest writes to elements, by id: what lets a store find the rows an action changed.
  @usableFromInline var _writes = ElementWrites<ID>()

  /// Creates an array from elements whose ids are known to be unique.
  ///
  /// - Important: Duplicate ids are not checked here; use ``init(_:id:)`` when they may occur.
  @inlinable
  public init(
    uncheckedUniqueElements elements: some Sequence<Element>,
    id: KeyPath<Element, ID>
  ) {
    self.init(uncheckedUniqueElements: elements, idPath: IDPath(keyPath: id))
  }

  @usableFromInline
  init(uncheckedUniqueElements elements: some Sequence<Element>, idPath: IDPath<Element, ID>) {
    self._elements = Array(elements)
    self._ids = _elements.map(idPath.id)
    self._positions = Dictionary(
      _ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    self._idPath = idPath
  }

  /// Creates an array from elements, keeping the first element of each id.
  ///
  /// ```swift
  /// let tags = IdentifiedArray(["a", "b", "a"], id: \.self)  // ["a", "b"]
  /// ```
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public init(_ elements: some Sequence<Element>, id: KeyPath<Element, ID>) {
    self.init(elements, idPath: IDPath(keyPath: id))
  }

  @usableFromInline
  init(_ elements: some Sequence<Element>, idPath: IDPath<Element, ID>) {
    self._elements = []
    self._ids = []
    self._positions = [:]
    self._idPath = idPath
    for element in elements { append(element) }
  }

  /// The ids of the elements, in order.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var ids: [ID] { _ids }

  /// The elements, in order.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var elements: [Element] { _elements }

  /// The position of the element with `id`, or `nil`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func index(id: ID) -> Int? { _positions[id] }

  /// Whether an element with `id` is present.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func contains(id: ID) -> Bool { _positions[id] != nil }

  /// The element with `id`: reading returns it or `nil`; setting a value replaces the element
  /// (or appends it when the id is new); setting `nil` removes it.
  ///
  /// Mutating through the subscript changes the element in place:
  ///
  /// ```swift
  /// rows[id: 2]?.isOn.toggle()
  /// ```
  ///
  /// - Important: An element's id must not change. Writing an element whose id is not `id`
  ///   (`rows[id: 1]?.id = 3`, `rows[id: 1] = Row(id: 9)`) is reported as a runtime issue
  ///   (a test failure under a test store) and the array stays consistent: the element takes
  ///   the place of the one with `id` under its own id, or, if another element already has its
  ///   id, the write is ignored.
  ///
  /// - Complexity: O(1) to read or update; removal is O(*n*) unless the element is last.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let position = _positions[id] else { return nil }
      return _elements[position]
    }
    _modify {
      guard let position = _positions[id] else {
        var missing: Element? = nil
        yield &missing
        if let added = missing { _write(added, as: id, at: nil) }
        return
      }
      var element: Element? = _elements[position]
      yield &element
      if let element {
        _write(element, as: id, at: position)
      } else {
        _ = remove(at: position)
      }
    }
    set {
      if let newValue {
        _write(newValue, as: id, at: _positions[id])
      } else if let position = _positions[id] {
        _ = remove(at: position)
      }
    }
  }

  /// Runs `body` on the element with `id` (`nil` when there is none) and stores what it leaves
  /// as ``subscript(id:)`` stores a write: what the subscript's `_modify` does, as a function.
  /// The reducers that run an element (`forEach`, a stack's) call it once per action, and the
  /// subscript's coroutine allocated its frame at each call.
  @inlinable
  mutating func _update<Result>(id: ID, _ body: (inout Element?) -> Result) -> Result {
    guard let position = _positions[id] else {
      var missing: Element? = nil
      let result = body(&missing)
      if let added = missing { _write(added, as: id, at: nil) }
      return result
    }
    var element: Element? = _elements[position]
    let result = body(&element)
    if let element {
      _write(element, as: id, at: position)
    } else {
      _ = remove(at: position)
    }
    return result
  }

  /// Stores an element written through ``subscript(id:)``: in place, appended, or, when its id
  /// is not `id`, as that subscript's documentation says.
  @inlinable
  mutating func _write(_ element: Element, as id: ID, at position: Int?) {
    guard _idPath.id(element) == id else {
      _writeChangingID(element, as: id, at: position)
      return
    }
    if let position {
      _elements[position] = element
      _writes.record(id)
    } else {
      append(element)
    }
  }

  @usableFromInline
  mutating func _writeChangingID(_ element: Element, as id: ID, at position: Int?) {
    let newID = _idPath.id(element)
    guard _positions[newID] == nil else {
      reportIssue(
        """
        An element with id \(newID) was written to [id: \(id)] of an IdentifiedArray, and \
        another element already has id \(newID). An element's id must not change: the write \
        was ignored.
        """)
      return
    }
    reportIssue(
      """
      An element with id \(newID) was written to [id: \(id)] of an IdentifiedArray. An \
      element's id must not change: the element was stored under its own id, \(newID)\
      \(position == nil ? "" : ", in place of the element with id \(id)").
      """)
    guard let position else {
      append(element)
      return
    }
    _writes.record(nil)
    _positions.removeValue(forKey: id)
    _positions[newID] = position
    _ids[position] = newID
    _elements[position] = element
  }

  /// Appends an element unless one with its id is present.
  ///
  /// - Returns: Whether it was inserted, and the position of the element with its id.
  /// - Complexity: O(1) amortized.
  @discardableResult
  @inlinable
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    let id = _idPath.id(element)
    if let position = _positions[id] { return (false, position) }
    _positions[id] = _elements.count
    _ids.append(id)
    _elements.append(element)
    _writes.record(id)
    return (true, _elements.count - 1)
  }

  /// Appends each element whose id is not present yet.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Inserts an element at `index` unless one with its id is present.
  ///
  /// - Returns: Whether it was inserted, and the position of the element with its id.
  /// - Complexity: O(*n*).
  @discardableResult
  @inlinable
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let id = _idPath.id(element)
    if let position = _positions[id] { return (false, position) }
    let index = Swift.min(Swift.max(index, 0), _elements.count)
    _ids.insert(id, at: index)
    _elements.insert(element, at: index)
    reindex(from: index)
    _writes.record(id)
    return (true, index)
  }

  /// Replaces the element with the same id, or appends the element when its id is new.
  ///
  /// - Returns: The element that was replaced, if any.
  /// - Complexity: O(1) amortized.
  @discardableResult
  @inlinable
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let id = _idPath.id(element)
    if let position = _positions[id] {
      let old = _elements[position]
      _elements[position] = element
      _writes.record(id)
      return old
    }
    append(element)
    return nil
  }

  /// Removes and returns the element with `id`, or returns `nil`.
  ///
  /// - Complexity: O(*n*) for the positions after it; O(1) for the last element.
  @discardableResult
  @inlinable
  public mutating func remove(id: ID) -> Element? {
    guard let position = _positions[id] else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `index`.
  ///
  /// - Complexity: O(*n*) for the positions after it; O(1) for the last element.
  @discardableResult
  @inlinable
  public mutating func remove(at index: Int) -> Element {
    let id = _ids.remove(at: index)
    _positions.removeValue(forKey: id)
    let element = _elements.remove(at: index)
    reindex(from: index)
    _writes.record(id)
    return element
  }

  /// Removes every element that satisfies `shouldBeRemoved`, keeping the others in order.
  ///
  /// The elements are tested first, all of them, so an error thrown leaves the array as it
  /// was. Only the positions of the elements after the first one removed are written again:
  /// removing from the end costs little, and nothing is hashed anew for the elements before.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    remove(marked: try _elements.map(shouldBeRemoved))
  }

  /// Removes the elements at `offsets` (those past the end are ignored), keeping the others in
  /// order: what SwiftUI's `onDelete` hands a list's rows.
  ///
  /// ```swift
  /// var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
  /// rows.remove(atOffsets: [0, 2])   // [Row(id: 2)]
  /// ```
  ///
  /// - Complexity: O(*n*); only the positions after the first one removed are written again.
  @inlinable
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard let first = offsets.first, first < _elements.count else { return }
    var removed = [Bool](repeating: false, count: _elements.count)
    for offset in offsets where offset < removed.count { removed[offset] = true }
    remove(marked: removed)
  }

  /// Removes the elements whose position is marked, compacting the rest in place. Inlinable,
  /// as the calls that use it are: unspecialized, each move looks up generic metadata.
  @inlinable
  mutating func remove(marked removed: [Bool]) {
    guard let first = removed.firstIndex(of: true) else { return }
    var kept = first
    for position in first..<removed.count {
      if removed[position] {
        _positions.removeValue(forKey: _ids[position])
        _writes.record(_ids[position])
        continue
      }
      if kept != position {
        _ids.swapAt(kept, position)
        _elements.swapAt(kept, position)
        _positions[_ids[kept]] = kept
      }
      kept += 1
    }
    _ids.removeSubrange(kept...)
    _elements.removeSubrange(kept...)
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    _ids.removeAll()
    _elements.removeAll()
    _positions.removeAll()
    _writes.record(nil)
  }

  /// Moves the element at `source` to `destination`.
  ///
  /// - Complexity: O(*n*).
  public mutating func move(from source: Int, to destination: Int) {
    guard source != destination, _elements.indices.contains(source) else { return }
    let element = _elements.remove(at: source)
    let id = _ids.remove(at: source)
    let destination = Swift.min(Swift.max(destination, 0), _elements.count)
    _elements.insert(element, at: destination)
    _ids.insert(id, at: destination)
    reindex(from: Swift.min(source, destination))
    _writes.record(id)
  }

  /// Moves the elements at `source` to just before the element at `destination` (the end when
  /// it is `count`), keeping their order: the offsets a list's move gesture reports. Offsets
  /// past the end are ignored.
  ///
  /// ```swift
  /// var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
  /// rows.move(fromOffsets: [0], toOffset: 3)   // ids [2, 3, 1]
  /// ```
  ///
  /// - Complexity: O(*n*).
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    let source = source.filteredIndexSet { $0 < _elements.count }
    guard let first = source.first else { return }
    let destination = Swift.min(Swift.max(destination, 0), _elements.count)
    let insertion = destination - source.count(in: 0..<destination)
    var elements: [Element] = []
    var ids: [ID] = []
    var moved: [Element] = []
    var movedIDs: [ID] = []
    elements.reserveCapacity(_elements.count)
    ids.reserveCapacity(_ids.count)
    for position in _elements.indices {
      if source.contains(position) {
        moved.append(_elements[position])
        movedIDs.append(_ids[position])
      } else {
        elements.append(_elements[position])
        ids.append(_ids[position])
      }
    }
    elements.insert(contentsOf: moved, at: insertion)
    ids.insert(contentsOf: movedIDs, at: insertion)
    _elements = elements
    _ids = ids
    reindex(from: Swift.min(first, insertion))
    for id in movedIDs { _writes.record(id) }
  }

  /// Sorts the elements in place.
  ///
  /// - Complexity: O(*n* log *n*).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let sorted = try _elements.sorted(by: areInIncreasingOrder)
    var writes = _writes
    writes.record(nil)
    self = IdentifiedArray(uncheckedUniqueElements: sorted, idPath: _idPath)
    _writes = writes
  }

  /// The elements that satisfy `isIncluded`, in order.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    IdentifiedArray(uncheckedUniqueElements: try _elements.filter(isIncluded), idPath: _idPath)
  }

  @usableFromInline
  mutating func reindex(from start: Int) {
    for position in start..<_ids.count { _positions[_ids[position]] = position }
  }

  /// Reads every element's id again after a write to the elements' storage and indexes the
  /// ids that moved; where an id now repeats, the elements and ids go back to `before` and the
  /// edit is reported.
  mutating func reindexAll(orRestore before: (elements: [Element], ids: [ID])) {
    var changed = false
    for position in _elements.indices {
      let id = _idPath.id(_elements[position])
      if _ids[position] != id {
        _ids[position] = id
        changed = true
      }
    }
    guard changed else { return }
    var positions: [ID: Int] = [:]
    positions.reserveCapacity(_ids.count)
    for (position, id) in _ids.enumerated() {
      if let first = positions.updateValue(position, forKey: id) {
        reportIssue(
          """
          An element with id \(id) was written at position \(position) of an IdentifiedArray, \
          and the element at position \(first) has id \(id) too. An element's id must not \
          change: the edit was undone.
          """)
        _elements = before.elements
        _ids = before.ids
        return
      }
    }
    _positions = positions
  }

  /// Checks that ids, elements and positions agree. For tests.
  package func checkInvariants() -> Bool {
    guard _ids.count == _elements.count, _positions.count == _ids.count else { return false }
    for (position, id) in _ids.enumerated() {
      guard _positions[id] == position, _idPath.id(_elements[position]) == id else {
        return false
      }
    }
    return true
  }
}

extension IdentifiedArray: Sendable where Element: Sendable {}

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  /// Creates an array of identifiable elements, keeping the first element of each id.
  ///
  /// ```swift
  /// let rows = IdentifiedArray(uniqueElements: [Row(id: 1), Row(id: 2)])
  /// ```
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init(elements, idPath: .identifiable)
  }

  /// Creates an empty array.
  public init() {
    self.init(uncheckedUniqueElements: [], idPath: .identifiable)
  }
}

/// An identified array of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable

/// How to read an element's id.
///
/// A function rather than a key path because every write through `subscript(id:)` reads the id
/// to check that it did not change: through `Identifiable` it costs a call, where applying a
/// generic key path costs ~50 ns (measured with `loom-bench` W3).
///
/// `@unchecked Sendable` because the function may capture a key path: key paths are immutable
/// once created, and the standard library infers `Sendable` for key path literals that capture
/// nothing (SE-0418); only the generic `KeyPath` class lacks the conformance. The function only
/// reads the element through it (or through `Identifiable.id`), so sharing it across tasks
/// cannot race.
@usableFromInline
struct IDPath<Element, ID>: @unchecked Sendable {
  @usableFromInline let id: (Element) -> ID

  /// Inlinable, so that the function is made where the types are known: a stored `id` (the
  /// common case) is then read at its offset, where applying the key path would call the run
  /// time's projection at every read (~400 instructions).
  @inlinable
  init(keyPath: KeyPath<Element, ID>) {
    let reader = StoredPathReader(keyPath)
    self.id = { reader.read($0) }
  }

  @usableFromInline
  init(id: @escaping (Element) -> ID) {
    self.id = id
  }
}

extension IDPath where Element: Identifiable, Element.ID == ID {
  /// Reads `Identifiable.id`.
  static var identifiable: Self { IDPath(id: { $0.id }) }
}
