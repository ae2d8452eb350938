import Foundation
import Loom
import Testing

/// `IdentifiedArray` edited as a collection: through positions, by the standard library's
/// in-place algorithms, and by a list's move offsets, the id index always agreeing.
struct IdentifiedArrayEditingTests {
  static func rows(_ count: Int) -> IdentifiedArrayOf<Item> {
    IdentifiedArray(uniqueElements: (1...count).map { Item(id: $0, name: "\($0)") })
  }

  @Test func anElementChangesInPlaceThroughItsPosition() {
    var rows = Self.rows(3)
    rows[1].name = "two"
    #expect(
      rows.elements == [Item(id: 1, name: "1"), Item(id: 2, name: "two"), Item(id: 3, name: "3")])
    #expect(rows[id: 2]?.name == "two")
    rows[2] = Item(id: 3, name: "three")
    #expect(rows[id: 3]?.name == "three")
    #expect(rows.checkInvariants())
  }

  @Test func swappingExchangesTheElementsAndTheirPlacesInTheIndex() {
    var rows = Self.rows(4)
    rows.swapAt(0, 3)
    rows.swapAt(1, 1)
    #expect(rows.ids == [4, 2, 3, 1])
    #expect(rows.index(id: 4) == 0)
    #expect(rows.index(id: 1) == 3)
    #expect(rows.checkInvariants())
  }

  /// The standard library's algorithms, called generically, so its own implementations run.
  static func reverse<C: MutableCollection & BidirectionalCollection>(_ c: inout C) {
    c.reverse()
  }
  static func sort<C: MutableCollection & RandomAccessCollection>(
    _ c: inout C, by order: (C.Element, C.Element) -> Bool
  ) { c.sort(by: order) }
  static func shuffle<C: MutableCollection & RandomAccessCollection>(
    _ c: inout C, seed: UInt64
  ) {
    var random = SeededRandomNumberGenerator(seed: seed)
    c.shuffle(using: &random)
  }
  static func partition<C: MutableCollection>(
    _ c: inout C, by belongsInSecond: (C.Element) -> Bool
  ) -> C.Index { c.partition(by: belongsInSecond) }

  @Test func theStandardLibrarysInPlaceAlgorithmsKeepTheIndex() {
    var rows = Self.rows(8)
    Self.reverse(&rows)
    #expect(rows.ids == [8, 7, 6, 5, 4, 3, 2, 1])
    #expect(rows.checkInvariants())
    Self.sort(&rows) { $0.id < $1.id }
    #expect(rows.ids == Array(1...8))
    #expect(rows.checkInvariants())
    Self.shuffle(&rows, seed: 3)
    #expect(Set(rows.ids) == Set(1...8))
    #expect(rows.checkInvariants())
    let pivot = Self.partition(&rows) { $0.id.isMultiple(of: 2) }
    #expect(rows[..<pivot].allSatisfy { !$0.id.isMultiple(of: 2) })
    #expect(rows[pivot...].allSatisfy { $0.id.isMultiple(of: 2) })
    #expect(rows.checkInvariants())
    for row in rows { #expect(rows[id: row.id] == row) }
  }

  @Test(
    arguments: [
      ([0], 3, [2, 3, 1]),
      ([2], 0, [3, 1, 2]),
      ([0, 2], 2, [2, 1, 3]),
      ([1], 1, [1, 2, 3]),
      ([1], 2, [1, 2, 3]),
      ([0, 1], 3, [3, 1, 2]),
      ([1, 2], 0, [2, 3, 1]),
      ([0, 7], 9, [2, 3, 1]),
    ] as [([Int], Int, [Int])])
  func movingFromOffsetsPutsTheElementsBeforeTheDestination(
    source: [Int], destination: Int, ids: [Int]
  ) {
    var rows = Self.rows(3)
    rows.move(fromOffsets: IndexSet(source), toOffset: destination)
    #expect(rows.ids == ids)
    #expect(rows.checkInvariants())
  }

  @Test func movingSeveralFromOffsetsKeepsTheirOrder() {
    var rows = Self.rows(5)
    rows.move(fromOffsets: [1, 3], toOffset: 0)
    #expect(rows.ids == [2, 4, 1, 3, 5])
    rows.move(fromOffsets: [0, 1], toOffset: 5)
    #expect(rows.ids == [1, 3, 5, 2, 4])
    #expect(rows.checkInvariants())
  }
}
