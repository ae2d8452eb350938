import Loom
import Testing

struct DiffCollectionTests {
  @Test func arraysAreComparedByPositionThenByTheirTails() {
    #expect(
      loomDiff([1, 2, 3], [1, 5]) == """
          [
            … (1 unchanged)
        -   [1]: 2
        +   [1]: 5
        -   [2]: 3
          ]
        """)
    #expect(
      loomDiff(["a"], ["a", "b", "c"]) == """
          [
            … (1 unchanged)
        +   [1]: "b"
        +   [2]: "c"
          ]
        """)
  }

  @Test func eachRunOfUnchangedElementsCollapsesIntoOneLine() {
    var new = Array(0..<10)
    new[5] = 50
    #expect(
      loomDiff(Array(0..<10), new) == """
          [
            … (5 unchanged)
        -   [5]: 5
        +   [5]: 50
            … (4 unchanged)
          ]
        """)
  }

  @Test func identifiableElementsAreMatchedByID() {
    var new: [Inbox.Row] = [.two, .three, .four]
    new[0].isOn = true
    #expect(
      loomDiff([Inbox.Row.one, .two, .three], new) == """
          [
        -   [id: 1]: Inbox.Row(id: 1, title: "One", isOn: false)
            [id: 2]: Inbox.Row(
              … (2 unchanged)
        -     isOn: false
        +     isOn: true
            )
            … (1 unchanged)
        +   [id: 4]: Inbox.Row(id: 4, title: "Four", isOn: false)
          ]
        """)
  }

  @Test func anElementInsertedInTheMiddleLeavesTheOthersUnchanged() {
    #expect(
      loomDiff([Inbox.Row.one, .two, .three], [.one, .four, .two, .three]) == """
          [
            … (1 unchanged)
        +   [id: 4]: Inbox.Row(id: 4, title: "Four", isOn: false)
            … (2 unchanged)
          ]
        """)
  }

  @Test func anElementRemovedFromTheMiddleLeavesTheOthersUnchanged() {
    #expect(
      loomDiff([Inbox.Row.one, .two, .three], [.one, .three]) == """
          [
            … (1 unchanged)
        -   [id: 2]: Inbox.Row(id: 2, title: "Two", isOn: false)
            … (1 unchanged)
          ]
        """)
  }

  @Test func aMovedElementIsRemovedFromItsOldPlaceAndInsertedAtItsNewOne() {
    #expect(
      loomDiff([Inbox.Row.one, .two, .three], [.three, .one, .two]) == """
          [
        +   [id: 3]: Inbox.Row(id: 3, title: "Three", isOn: false)
            … (2 unchanged)
        -   [id: 3]: Inbox.Row(id: 3, title: "Three", isOn: false)
          ]
        """)
  }

  @Test func aCustomCollectionMirrorOfIdentifiableElementsIsMatchedByID() {
    var changed = Inbox.Row.two
    changed.title = "Deux"
    let old = IDArray(elements: [Inbox.Row.one, .two])
    let new = IDArray(elements: [changed])
    #expect(
      loomDiff(old, new) == """
          [
        -   [id: 1]: Inbox.Row(id: 1, title: "One", isOn: false)
            [id: 2]: Inbox.Row(
              … (1 unchanged)
        -     title: "Two"
        +     title: "Deux"
              … (1 unchanged)
            )
          ]
        """)
  }

  @Test func collectionsInsideStructsShowThePathToTheChange() {
    let old = Inbox.State(rows: [.one, .two])
    let new = Inbox.State(rows: [.one])
    #expect(
      loomDiff(old, new) == """
          Inbox.State(
            … (1 unchanged)
            rows: [
              … (1 unchanged)
        -     [id: 2]: Inbox.Row(id: 2, title: "Two", isOn: false)
            ]
            … (2 unchanged)
          )
        """)
  }

  @Test func dictionariesAreComparedByKey() {
    #expect(
      loomDiff(["a": 1, "b": 2, "c": 3], ["a": 1, "b": 20, "d": 4]) == """
          [
            … (1 unchanged)
        -   "b": 2
        +   "b": 20
        -   "c": 3
        +   "d": 4
          ]
        """)
  }

  @Test func setsAreComparedByElement() {
    #expect(
      loomDiff(Set(["apple", "fig", "pear"]), Set(["apple", "kiwi", "pear"])) == """
          [
            … (1 unchanged)
        -   "fig"
        +   "kiwi"
            … (1 unchanged)
          ]
        """)
  }
}
