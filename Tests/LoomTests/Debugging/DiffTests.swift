import Loom
import Testing

struct DiffTests {
  @Test func equalValuesHaveNoDiff() {
    #expect(loomDiff(Screen(), Screen()) == nil)
  }

  @Test func changedFieldsAreShownWithUnchangedOnesCollapsed() {
    var new = Screen()
    new.count = 2
    #expect(
      loomDiff(Screen(), new) == """
          Screen(
        -   count: 0
        +   count: 2
            … (5 unchanged)
          )
        """)
  }

  @Test func identifiableElementsAreMatchedByID() {
    let old = Screen(rows: [Row(id: 1, title: "one"), Row(id: 2, title: "two")])
    var new = old
    new.rows[1].isOn = true
    new.rows.append(Row(id: 3, title: "three"))
    new.rows.remove(at: 0)
    #expect(
      loomDiff(old, new) == """
          Screen(
            … (3 unchanged)
            rows: [
        -     [id: 1]: Row(id: 1, title: "one", isOn: false)
              [id: 2]: Row(
                … (2 unchanged)
        -       isOn: false
        +       isOn: true
              )
        +     [id: 3]: Row(id: 3, title: "three", isOn: false)
            ]
            … (2 unchanged)
          )
        """)
  }

  @Test func aDifferentEnumCaseShowsBothValuesWhole() {
    var new = Screen()
    new.mode = .editing(id: 4)
    #expect(
      loomDiff(Screen(), new, format: .testStore) == """
          Screen(
            … (2 unchanged)
        −   mode: .idle
        +   mode: .editing(id: 4)
            … (3 unchanged)
          )
        """)
  }

  @Test func theSameEnumCaseIsDiffedInsideItsPayload() {
    #expect(
      loomDiff(Mode.loading("x", attempt: 1), Mode.loading("x", attempt: 2)) == """
          .loading(
            … (1 unchanged)
        -   attempt: 1
        +   attempt: 2
          )
        """)
  }

  @Test func plainArraysAreComparedByPosition() {
    #expect(
      loomDiff([1, 2, 3], [1, 5]) == """
          [
            … (1 unchanged)
        -   [1]: 2
        +   [1]: 5
        -   [2]: 3
          ]
        """)
  }
}
