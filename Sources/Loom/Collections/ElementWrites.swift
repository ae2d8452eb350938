import Synchronization

/// The latest writes to an identified array's elements, by id: what lets a store tell which
/// rows an action may have changed without comparing every row.
///
/// Each write takes a stamp unique in the process, so two arrays, or two copies of one array
/// written apart, never share a stamp: a reader that remembers the stamp of the array it last
/// read finds it among the current array's entries only if the current array was written from
/// that one, and then the entries after it are every write since. Otherwise (a stamp not found,
/// or a write since that could have changed any element) any element may have changed. Moving
/// elements counts as writing them, so the stamp tells a reader of the whole array that its
/// order changed.
///
/// Not part of the array's value: equality, hashing, coding and dumps ignore it.
@usableFromInline
struct ElementWrites<ID: Hashable & Sendable>: Sendable {
  /// The most writes kept; the oldest half goes when it is reached.
  @usableFromInline static var capacity: Int { 16 }

  /// The stamp of the latest write, or of the array's creation.
  @usableFromInline var stamp: UInt64
  /// The stamp before the first write kept: the array's creation, the last write that could
  /// have changed any element (which forgets the writes before it), or the last write dropped.
  @usableFromInline var base: UInt64
  /// The stamps of the writes kept, oldest first (kept apart from the ids, so that finding a
  /// stamp is not generic code).
  @usableFromInline var stamps: [UInt64] = []
  /// The id each of those writes wrote.
  @usableFromInline var ids: [ID] = []

  @usableFromInline
  init() {
    stamp = nextWriteStamp()
    base = stamp
  }

  /// Records a write to the element with `id`, or, for `nil`, to any element.
  @inlinable
  mutating func record(_ id: ID?) {
    stamp = nextWriteStamp()
    guard let id else {
      base = stamp
      stamps.removeAll(keepingCapacity: true)
      ids.removeAll(keepingCapacity: true)
      return
    }
    if stamps.count >= Self.capacity {
      let dropped = Self.capacity / 2
      base = stamps[dropped - 1]
      stamps.removeFirst(dropped)
      ids.removeFirst(dropped)
    }
    stamps.append(stamp)
    ids.append(id)
  }

  /// The position in `ids` of the first write after the array that had stamp `seen` (`ids`
  /// from there on are every write since; `ids.count` when there is none), or `nil` when this
  /// array was not written from that one, or since then any element may have changed.
  @inlinable
  func firstWrite(after seen: UInt64) -> Int? {
    Loom.firstWrite(after: seen, stamp: stamp, base: base, stamps: stamps)
  }
}

/// The position among `stamps` (a write log's, oldest first, after `base`, the last being
/// `stamp`) of the first write after the one stamped `seen`: `stamps.count` when there is none,
/// `nil` when `seen` is not in the log. Not generic, so a store's check of its rows does not
/// look up metadata for it.
@usableFromInline
func firstWrite(after seen: UInt64, stamp: UInt64, base: UInt64, stamps: [UInt64]) -> Int? {
  if seen == stamp { return stamps.count }
  if seen == base { return 0 }
  var position = stamps.count
  while position > 0 {
    position -= 1
    if stamps[position] == seen { return position + 1 }
  }
  return nil
}

/// The next stamp of a write to an identified array.
@usableFromInline
func nextWriteStamp() -> UInt64 {
  writeStamps.add(1, ordering: .relaxed).newValue
}

private let writeStamps = Atomic<UInt64>(0)

extension IdentifiedArray {
  /// The stamp of the latest write. For tests of the writes a store reads.
  package var writeStamp: UInt64 { _writes.stamp }

  /// The ids written since the array had `stamp`, oldest first (`[]` for none), or `nil` when
  /// any element may have changed. For tests of the writes a store reads.
  package func idsWritten(since stamp: UInt64) -> [ID]? {
    _writes.firstWrite(after: stamp).map { Array(_writes.ids[$0...]) }
  }
}
