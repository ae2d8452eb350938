import Loom
import Testing

struct DiffTests {
  @Test func valuesWithEqualDumpsHaveNoDiff() {
    #expect(loomDiff(Inbox.State(), Inbox.State()) == nil)
    #expect(loomDiff(["a": 1, "b": 2], ["b": 2, "a": 1]) == nil)
  }

  @Test func aChangedFieldIsShownAndItsUnchangedSiblingsCollapse() {
    #expect(
      loomDiff(Inbox.State(count: 1), Inbox.State(count: 2)) == """
          Inbox.State(
        -   count: 1
        +   count: 2
            … (3 unchanged)
          )
        """)
  }

  @Test func nestedStructsAreDiffedFieldByField() {
    var new = Inbox.Settings()
    new.sound.volume = 5
    #expect(
      loomDiff(Inbox.Settings(), new) == """
          Inbox.Settings(
            … (1 unchanged)
            sound: Inbox.Sound(
        -     volume: 3
        +     volume: 5
              … (1 unchanged)
            )
            … (1 unchanged)
          )
        """)
  }

  @Test func theSameEnumCaseIsDiffedInsideItsPayload() {
    #expect(
      loomDiff(Inbox.Mode.loading("x", attempt: 1), .loading("x", attempt: 2)) == """
          .loading(
            … (1 unchanged)
        -   attempt: 1
        +   attempt: 2
          )
        """)
  }

  @Test func aDifferentEnumCaseShowsTheOldAndNewValuesWhole() {
    #expect(
      loomDiff(Inbox.State(), Inbox.State(mode: .editing(id: 4))) == """
          Inbox.State(
            … (2 unchanged)
        -   mode: .idle
        +   mode: .editing(id: 4)
            … (1 unchanged)
          )
        """)
  }

  @Test func wholeValuesThatDoNotFitSpanSeveralMarkedLines() {
    let long = String(repeating: "x", count: 70)
    #expect(
      loomDiff(Inbox.Mode.idle, .loading(long, attempt: 1)) == """
        - .idle
        + .loading(
        +   "\(long)",
        +   attempt: 1
        + )
        """)
  }

  @Test func anOptionalThatGainsAValueShowsBothSides() {
    #expect(
      loomDiff(Inbox.State(), Inbox.State(error: "boom")) == """
          Inbox.State(
            … (3 unchanged)
        -   error: nil
        +   error: "boom"
          )
        """)
  }

  @Test func changedLeavesAtTheRootAreShownWhole() {
    #expect(loomDiff(1, 2) == "- 1\n+ 2")
  }

  @Test func theFormatSetsTheMarksAndPadsThemToOneWidth() {
    let format = DiffFormat(first: "−expected", second: "+actual")
    #expect(
      loomDiff(Inbox.State(count: 1), Inbox.State(count: 2), format: format) == """
                  Inbox.State(
        −expected   count: 1
        +actual     count: 2
                    … (3 unchanged)
                  )
        """)
    #expect(
      loomDiff(1, 2, format: .testStore) == """
        − 1
        + 2
        """)
  }
}
