extension DiffWriter {
  /// Compares children position by position (fields of a record, elements of an array), then
  /// writes the elements one side has past the end of the other.
  mutating func diffByPosition(_ old: [Element], _ new: [Element], indent: Int) {
    var unchangedRun = 0
    for index in 0..<max(old.count, new.count) {
      let before = index < old.count ? old[index] : nil
      let after = index < new.count ? new[index] : nil
      if let before, let after, before.node == after.node {
        unchangedRun += 1
        continue
      }
      unchanged(unchangedRun, indent: indent)
      unchangedRun = 0
      switch (before, after) {
      case (let before?, let after?):
        diff(before.node, after.node, prefix: after.prefix, indent: indent)
      case (let before?, nil):
        removed(before, indent: indent)
      case (nil, let after?):
        inserted(after, indent: indent)
      case (nil, nil):
        break
      }
    }
    unchanged(unchangedRun, indent: indent)
  }

  /// Matches children by key (an element's id, a dictionary key, a set element) and writes
  /// removed, inserted and changed ones in order, like a line diff.
  ///
  /// The elements both sides keep in the same order are the longest common subsequence of
  /// the keys; an element outside it was removed, inserted, or moved (shown as removed from
  /// its old place and inserted at its new one). Keys that repeat on either side make
  /// matching meaningless, so the children are then compared by position.
  ///
  /// - Complexity: O(*n* log *n*) for *n* elements.
  mutating func diffByKey(_ old: [Element], _ new: [Element], indent: Int) {
    var newIndexByKey: [String: Int] = [:]
    for (index, element) in new.enumerated() {
      guard newIndexByKey.updateValue(index, forKey: element.key) == nil else {
        return diffByPosition(old, new, indent: indent)
      }
    }
    guard Set(old.map(\.key)).count == old.count else {
      return diffByPosition(old, new, indent: indent)
    }
    // Old elements still present, as (old index, new index), in old order.
    let common = old.indices.compactMap { index in
      newIndexByKey[old[index].key].map { (old: index, new: $0) }
    }
    let keptPairs = longestIncreasingRun(common.map(\.new)).map { common[$0] }
    let keptOld = Set(keptPairs.map(\.old))
    let keptNew = Set(keptPairs.map(\.new))

    var unchangedRun = 0
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < old.count || newIndex < new.count {
      if oldIndex < old.count, !keptOld.contains(oldIndex) {
        unchanged(unchangedRun, indent: indent)
        unchangedRun = 0
        removed(old[oldIndex], indent: indent)
        oldIndex += 1
      } else if newIndex < new.count, !keptNew.contains(newIndex) {
        unchanged(unchangedRun, indent: indent)
        unchangedRun = 0
        inserted(new[newIndex], indent: indent)
        newIndex += 1
      } else if oldIndex < old.count, newIndex < new.count {
        // Both point at the same kept element: kept pairs ascend on both sides.
        let before = old[oldIndex]
        let after = new[newIndex]
        if before.node == after.node {
          unchangedRun += 1
        } else {
          unchanged(unchangedRun, indent: indent)
          unchangedRun = 0
          diff(before.node, after.node, prefix: after.prefix, indent: indent)
        }
        oldIndex += 1
        newIndex += 1
      } else {
        break
      }
    }
    unchanged(unchangedRun, indent: indent)
  }
}

/// The positions of a longest strictly increasing subsequence of `values`, ascending.
///
/// Patience sorting: `tails[k]` is the position of the smallest value that ends an increasing
/// run of length `k + 1`, and `previous` links each position to the one before it in its run.
///
/// - Complexity: O(*n* log *n*).
func longestIncreasingRun(_ values: [Int]) -> [Int] {
  var tails: [Int] = []
  var previous = [Int?](repeating: nil, count: values.count)
  for (position, value) in values.enumerated() {
    var low = 0
    var high = tails.count
    while low < high {
      let middle = (low + high) / 2
      if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
    }
    previous[position] = low > 0 ? tails[low - 1] : nil
    if low == tails.count { tails.append(position) } else { tails[low] = position }
  }
  var run: [Int] = []
  var cursor = tails.last
  while let position = cursor {
    run.append(position)
    cursor = previous[position]
  }
  return run.reversed()
}
