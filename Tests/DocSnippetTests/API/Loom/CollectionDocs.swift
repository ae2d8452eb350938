// The doc-comment snippets of Sources/Loom/Collections.

import Foundation
import Loom
import Testing

enum IdentifiedArrayDocs {
  struct Row: Identifiable, Equatable {
    let id: Int
    var isOn = false
  }

  @Test static func subscriptingByIDUpdatesAppendsAndRemoves() {
    // snippet: IdentifiedArray
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    rows[id: 2]?.isOn = true       // in place
    rows[id: 3] = Row(id: 3)       // appends
    rows[id: 1] = nil              // removes
    // snippet: end
    #expect(rows.elements == [Row(id: 2, isOn: true), Row(id: 3)])
    // snippet: IdentifiedArray.subscript
    rows[id: 2]?.isOn.toggle()
    // snippet: end
    #expect(rows[id: 2]?.isOn == false)
  }

  @Test static func anArrayLiteralAndUniqueElementsKeepTheOrder() {
    // snippet: IdentifiedArray.arrayLiteral
    let rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    // snippet: end
    #expect(rows.ids == [1, 2])
    do {
      // snippet: IdentifiedArray.uniqueElements
      let rows = IdentifiedArray(uniqueElements: [Row(id: 1), Row(id: 2)])
      // snippet: end
      #expect(rows.ids == [1, 2])
    }
  }

  @Test static func duplicatesAreDroppedByID() {
    // snippet: IdentifiedArray.init-id
    let tags = IdentifiedArray(["a", "b", "a"], id: \.self)  // ["a", "b"]
    // snippet: end
    #expect(tags.elements == ["a", "b"])
  }

  @Test static func removingAtOffsetsKeepsTheRest() {
    // snippet: IdentifiedArray.remove-atOffsets
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
    rows.remove(atOffsets: [0, 2])   // [Row(id: 2)]
    // snippet: end
    #expect(rows.elements == [Row(id: 2)])
  }

  @Test static func editingThroughPositionsKeepsTheIndex() {
    // snippet: IdentifiedArray.subscript-position
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    rows[0].isOn = true
    rows.swapAt(0, 1)          // ids [2, 1]
    let isOn = rows[id: 1]?.isOn   // true
    // snippet: end
    #expect(rows.ids == [2, 1])
    #expect(isOn == true)
  }

  @Test static func movingFromOffsetsPutsThemBeforeTheDestination() {
    // snippet: IdentifiedArray.move-fromOffsets
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
    rows.move(fromOffsets: [0], toOffset: 3)   // ids [2, 3, 1]
    // snippet: end
    #expect(rows.ids == [2, 3, 1])
  }
}
