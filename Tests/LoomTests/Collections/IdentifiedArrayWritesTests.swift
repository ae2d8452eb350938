import Loom
import Testing

/// The writes an identified array remembers, which a store reads to check only the rows an
/// action wrote.
struct IdentifiedArrayWritesTests {
  struct Row: Hashable, Identifiable {
    let id: Int
    var value = 0
  }

  func rows(_ count: Int) -> IdentifiedArrayOf<Row> {
    IdentifiedArray(uniqueElements: (0..<count).map { Row(id: $0) })
  }

  @Test func eachWriteToAnElementNamesItsID() {
    var rows = rows(5)
    let start = rows.writeStamp
    #expect(rows.idsWritten(since: start) == [])
    rows[id: 3]?.value += 1
    rows[1].value += 1
    rows[id: 4] = Row(id: 4, value: 9)
    rows.updateOrAppend(Row(id: 0, value: 2))
    #expect(rows.idsWritten(since: start) == [3, 1, 4, 0])
    let middle = rows.writeStamp
    rows.append(Row(id: 7))
    rows.insert(Row(id: 8), at: 0)
    rows.remove(id: 2)
    rows[id: 1] = nil
    rows.remove(atOffsets: [0])
    #expect(rows.idsWritten(since: middle) == [7, 8, 2, 1, 8])
  }

  @Test func movingElementsWritesThem() {
    var rows = rows(5)
    let start = rows.writeStamp
    rows.move(fromOffsets: [0], toOffset: 5)  // ids 1 2 3 4 0
    rows.move(from: 0, to: 3)  // ids 2 3 4 1 0
    rows.swapAt(0, 1)  // ids 3 2 4 1 0
    #expect(rows.idsWritten(since: start) == [0, 1, 3, 2])
    let sorted = rows.writeStamp
    rows.sort { $0.id < $1.id }
    #expect(rows.idsWritten(since: sorted) == nil)
  }

  @Test func writesThatCannotBeNamedMeanAnyElementMayHaveChanged() {
    var rows = rows(5)
    var start = rows.writeStamp
    rows.removeAll()
    #expect(rows.idsWritten(since: start) == nil)
    rows = self.rows(5)
    start = rows.writeStamp
    _ = rows.withContiguousMutableStorageIfAvailable { $0[2].value = 1 }
    #expect(rows.idsWritten(since: start) == nil)
  }

  @Test func manyWritesForgetTheOldestAndThenAnyElementMayHaveChanged() {
    var rows = rows(40)
    let start = rows.writeStamp
    rows[id: 0]?.value += 1
    let afterOne = rows.writeStamp
    for id in 1..<40 { rows[id: id]?.value += 1 }
    #expect(rows.idsWritten(since: start) == nil)
    #expect(rows.idsWritten(since: afterOne) == nil)
    let recent = rows.writeStamp
    rows[id: 5]?.value += 1
    #expect(rows.idsWritten(since: recent) == [5])
  }

  @Test func copiesWrittenApartShareNoStamp() {
    let original = rows(5)
    var a = original
    var b = original
    a[id: 1]?.value += 1
    b[id: 2]?.value += 1
    #expect(a.writeStamp != b.writeStamp)
    // `b` did not come from `a`: what `a` was is not found in `b`'s writes.
    #expect(b.idsWritten(since: a.writeStamp) == nil)
    #expect(b.idsWritten(since: original.writeStamp) == [2])
    // A new array shares nothing with another.
    #expect(rows(5).idsWritten(since: original.writeStamp) == nil)
  }

  @Test func theWritesAreNotPartOfTheValue() {
    var a = rows(3)
    let b = rows(3)
    a[id: 1]?.value += 1
    a[id: 1]?.value -= 1
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(String(describing: a) == String(describing: b))
  }
}
