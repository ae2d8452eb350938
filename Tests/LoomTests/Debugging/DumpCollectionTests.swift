import Loom
import Testing

struct DumpCollectionTests {
  @Test func shortArraysStayOnOneLine() {
    #expect(loomDump([1, 2, 3]) == "[1, 2, 3]")
    #expect(loomDump([Int]()) == "[]")
  }

  @Test func longArraysPutEachElementOnItsOwnLineWithItsIndex() {
    let names = ["a long first element", "a long second element", "a long third one", "the fourth"]
    #expect(
      loomDump(names) == """
        [
          [0]: "a long first element",
          [1]: "a long second element",
          [2]: "a long third one",
          [3]: "the fourth"
        ]
        """)
  }

  @Test func dictionariesAreSortedByTheirDumpedKeys() {
    var forwards: [String: Int] = [:]
    var backwards: [String: Int] = [:]
    for (offset, key) in ["pear", "apple", "fig"].enumerated() {
      forwards[key] = offset
    }
    for (offset, key) in ["pear", "apple", "fig"].enumerated().reversed() {
      backwards[key] = offset
    }
    #expect(loomDump(forwards) == #"["apple": 1, "fig": 2, "pear": 0]"#)
    #expect(loomDump(backwards) == loomDump(forwards))
    #expect(loomDump([10: "x", 9: "y"]) == #"[10: "x", 9: "y"]"#)
    #expect(loomDump([String: Int]()) == "[:]")
  }

  @Test func setsAreSortedByTheirDumpedElements() {
    #expect(loomDump(Set(["pear", "apple", "fig"])) == #"["apple", "fig", "pear"]"#)
    #expect(loomDump(Set<Int>()) == "[]")
  }

  @Test func longSetsAndDictionariesPutEachElementOnItsOwnLine() {
    let tags: Set = [
      "a rather long tag", "another long tag", "yet another rather long tag", "a short one",
    ]
    #expect(
      loomDump(tags) == """
        [
          "a rather long tag",
          "a short one",
          "another long tag",
          "yet another rather long tag"
        ]
        """)
    let rows = ["first": Inbox.Row.one, "second": Inbox.Row.two]
    #expect(
      loomDump(rows) == """
        [
          "first": Inbox.Row(id: 1, title: "One", isOn: false),
          "second": Inbox.Row(id: 2, title: "Two", isOn: false)
        ]
        """)
  }

  @Test func aCustomCollectionMirrorDumpsLikeAnArray() {
    let rows = IDArray(elements: [Inbox.Row.one, .two])
    #expect(loomDump(rows) == loomDump([Inbox.Row.one, .two]))
    #expect(
      loomDump(rows) == """
        [
          [0]: Inbox.Row(id: 1, title: "One", isOn: false),
          [1]: Inbox.Row(id: 2, title: "Two", isOn: false)
        ]
        """)
  }
}
