import Foundation
import Loom
import Testing

struct DumpTests {
  @Test func shortStructsStayOnOneLine() {
    #expect(
      loomDump(Screen())
        == "Screen(count: 0, name: nil, mode: .idle, rows: [], tags: [], scores: [:])")
  }

  @Test func longStructsBreakIntoIndentedLinesWithSortedSetsAndDictionaries() {
    let screen = Screen(
      count: 1, name: "A \"q\"\nline", mode: .loading("x", attempt: 2),
      rows: [Row(id: 1, title: "one"), Row(id: 2, title: "two")],
      tags: ["b", "a"], scores: ["z": 1, "a": 2])
    #expect(
      loomDump(screen) == """
        Screen(
          count: 1,
          name: "A \\"q\\"\\nline",
          mode: .loading("x", attempt: 2),
          rows: [Row(id: 1, title: "one", isOn: false), Row(id: 2, title: "two", isOn: false)],
          tags: ["a", "b"],
          scores: ["a": 2, "z": 1]
        )
        """)
  }

  @Test func enumsPrintTheirCaseAndPayload() {
    #expect(loomDump(Mode.idle) == ".idle")
    #expect(loomDump(Mode.editing(id: 3)) == ".editing(id: 3)")
  }

  @Test func optionalsAreUnwrappedOrNil() {
    let some: Int? = 3
    let none: Int? = nil
    #expect(loomDump(some) == "3")
    #expect(loomDump(none) == "nil")
  }

  @Test func classCyclesAreCut() {
    let node = Node(name: "a")
    node.next = node
    #expect(loomDump(node) == #"Node(name: "a", next: Node(↩︎))"#)
    node.next = nil
  }

  @Test func foundationValuesPrintTheirStandardForm() {
    let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")
    #expect(loomDump(id) == "00000000-0000-0000-0000-000000000001")
    #expect(loomDump(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
  }
}
