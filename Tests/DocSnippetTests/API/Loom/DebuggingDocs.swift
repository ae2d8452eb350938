// The doc-comment snippets of Sources/Loom/Debugging.

import Loom
import Testing

/// A feature state with a bit of everything, for the dump and diff examples.
enum Editor {
  struct State: Equatable {
    var count = 1
    var rows: [Line] = [Line(id: 1, isOn: true), Line(id: 2, isOn: false)]
    var mode: Mode = .editing(id: 3)
    var error: String?
  }
  struct Line: Equatable, Identifiable {
    let id: Int
    var isOn: Bool
  }
  enum Mode: Equatable {
    case viewing
    case editing(id: Int)
  }
}

struct DebuggingDocTests {
  @Test func aDumpReadsAsTheDocsShow() throws {
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let state = Editor.State()
    // snippet: loomDump
    print(loomDump(state))
    // Editor.State(
    //   count: 1,
    //   rows: [Editor.Line(id: 1, isOn: true), Editor.Line(id: 2, isOn: false)],
    //   mode: .editing(id: 3),
    //   error: nil
    // )
    // snippet: end
    let shown = try commentedOutput(ofSnippet: "loomDump")
    #expect(printed == [shown], "\(printed)")
  }

  @Test func aDiffReadsAsTheDocsShow() throws {
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let oldState = Editor.State()
    var newState = oldState
    newState.count = 2
    // snippet: loomDiff
    if let diff = loomDiff(oldState, newState) { print(diff) }
    //   Editor.State(
    // -   count: 1
    // +   count: 2
    //     … (3 unchanged)
    //   )
    // snippet: end
    #expect(printed == [try commentedOutput(ofSnippet: "loomDiff")])
  }

  @Test func aFormatChoosesTheMarks() throws {
    let expected = Editor.State()
    let actual = Editor.State(count: 2)
    let before = expected
    let after = actual
    // snippet: DiffFormat
    let diff = loomDiff(expected, actual, format: DiffFormat(first: "−", second: "+"))
    // snippet: end
    let minus = diff
    #expect(minus?.contains("−   count: 1") == true)
    // snippet: DiffFormat.init
    let format = DiffFormat(first: "old", second: "new")
    // snippet: end
    #expect(loomDiff(expected, actual, format: format)?.contains("old   count: 1") == true)
    do {
      // snippet: DiffFormat.default
      let diff = loomDiff(before, after, format: .default)
      // snippet: end
      #expect(diff == loomDiff(before, after))
    }
    do {
      // snippet: DiffFormat.testStore
      let diff = loomDiff(expected, actual, format: .testStore)
      // snippet: end
      #expect(diff == minus)
    }
  }
}
