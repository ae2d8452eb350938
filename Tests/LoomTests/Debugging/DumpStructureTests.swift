import Loom
import Testing

private struct Hidden {
  var x = 1
}

struct DumpStructureTests {
  @Test func shortStructsStayOnOneLine() {
    #expect(loomDump(Inbox.State()) == "Inbox.State(count: 0, rows: [], mode: .idle, error: nil)")
  }

  @Test func longStructsPutEachFieldOnItsOwnIndentedLine() {
    let state = Inbox.State(
      count: 1, rows: [.one, Inbox.Row(id: 2, title: "Two", isOn: true)], mode: .editing(id: 3))
    #expect(
      loomDump(state) == """
        Inbox.State(
          count: 1,
          rows: [
            [0]: Inbox.Row(id: 1, title: "One", isOn: false),
            [1]: Inbox.Row(id: 2, title: "Two", isOn: true)
          ],
          mode: .editing(id: 3),
          error: nil
        )
        """)
  }

  @Test func nestedStructsOpenOnlyWhereTheyDoNotFit() {
    let settings = Inbox.Settings(
      name: "A rather long inbox name", sound: Inbox.Sound(volume: 7, isMuted: true),
      tags: ["work"])
    #expect(
      loomDump(settings) == """
        Inbox.Settings(
          name: "A rather long inbox name",
          sound: Inbox.Sound(volume: 7, isMuted: true),
          tags: ["work"]
        )
        """)
  }

  @Test func enumCasesPrintTheirNameAndPayload() {
    #expect(loomDump(Inbox.Mode.idle) == ".idle")
    #expect(loomDump(Inbox.Mode.editing(id: 3)) == ".editing(id: 3)")
    #expect(loomDump(Inbox.Mode.loading("x", attempt: 2)) == #".loading("x", attempt: 2)"#)
  }

  @Test func enumCasesPrintTheirNameEvenWithACustomDescription() {
    #expect(loomDump(Inbox.Priority.high) == ".high")
  }

  @Test func optionalsAreUnwrappedOrNil() {
    let some: Int? = 3
    let none: Int? = nil
    let someNone: Int?? = .some(nil)
    #expect(loomDump(some) == "3")
    #expect(loomDump(none) == "nil")
    #expect(loomDump(someNone) == "nil")
    #expect(loomDump(Inbox.State(error: "boom")).hasSuffix(#"error: "boom")"#))
  }

  @Test func tuplesPrintTheirLabelsWhenTheyHaveThem() {
    #expect(loomDump((1, "a")) == #"(1, "a")"#)
    #expect(loomDump((x: 1, y: 2)) == "(x: 1, y: 2)")
  }

  @Test func typeNamesDropTheModuleButKeepNestingAndGenerics() {
    struct Local {
      var x = 1
    }
    // A type declared in a method is named after the type that declares the method.
    #expect(loomDump(Local()) == "DumpStructureTests.Local(x: 1)")
    #expect(loomDump(Hidden()) == "Hidden(x: 1)")
    #expect(loomDump(Inbox.Page(items: [1])) == "Inbox.Page<Int>(items: [1])")
    #expect(loomDump(Inbox.Row.self) == "Inbox.Row.self")
  }

  @Test func structsWithoutFieldsUseTheirDescriptionIfTheyHaveOne() {
    #expect(loomDump(Inbox.Marker()) == "Inbox.Marker()")
    #expect(loomDump(Inbox.Version()) == "v2")
  }

  @Test func maxDepthCutsOffDeeperValues() {
    let state = Inbox.State(count: 1, rows: [.one], mode: .editing(id: 3))
    #expect(loomDump(state, maxDepth: 0) == "Inbox.State(…)")
    #expect(
      loomDump(state, maxDepth: 1)
        == "Inbox.State(count: 1, rows: […], mode: .editing(…), error: nil)")
    #expect(
      loomDump(state, maxDepth: 2)
        == "Inbox.State(count: 1, rows: [Inbox.Row(…)], mode: .editing(id: 3), error: nil)")
  }

  @Test func theSameValueAlwaysDumpsTheSame() {
    let settings = Inbox.Settings(tags: ["b", "a"])
    #expect(loomDump(settings) == loomDump(settings))
  }
}
