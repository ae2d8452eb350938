import Foundation
import Testing

/// Every Swift block in README, `Docs/` and the DocC catalogs is a snippet of a file in this
/// target, which compiles (and mostly runs) with the tests. After changing a snippet, run
/// `LOOM_UPDATE_SNIPPETS=1 swift test --filter DocSnippetTests` to copy it into the guides.
struct GuideSnippetTests {
  @Test func everyGuideShowsItsSnippetsAsTheyCompile() throws {
    let update = ProcessInfo.processInfo.environment["LOOM_UPDATE_SNIPPETS"] == "1"
    let problems = try Documentation.problems(update: update)
    #expect(
      problems.isEmpty,
      """
      \(problems.joined(separator: "\n\n"))

      Run `LOOM_UPDATE_SNIPPETS=1 swift test --filter DocSnippetTests` to copy the snippets \
      into the guides.
      """)
  }

  @Test func theGuidesAreFound() throws {
    let paths = try Documentation.guidePaths()
    #expect(paths.contains("README.md"))
    #expect(paths.contains("Docs/GettingStarted.md"))
    #expect(paths.contains("Sources/Loom/Loom.docc/Loom.md"))
  }
}

struct SnippetParsingTests {
  @Test func aSnippetIsItsVisibleLinesWithoutTheirCommonIndentation() throws {
    let source = """
      struct Outside {}
      enum Wrapper {
        // snippet: example
        struct Shown {
          // snippet: hide
          var hidden = 0
          // snippet: show
          var shown = 1
        }
        // snippet: end
      }
      """
    let snippets = try Snippet.parse(source, file: "Example.swift")
    #expect(
      snippets["example"]?.lines == [
        "struct Shown {",
        "  var shown = 1",
        "}",
      ])
  }

  @Test func aSnippetMayStartInsideAnotherSnippetsHiddenPart() throws {
    let source = """
      // snippet: outer
      a
      // snippet: hide
      b
      // snippet: inner
      c
      // snippet: end
      // snippet: show
      d
      // snippet: end
      """
    let snippets = try Snippet.parse(source, file: "Example.swift")
    #expect(snippets["outer"]?.lines == ["a", "d"])
    #expect(snippets["inner"]?.lines == ["c"])
  }

  @Test func unbalancedOrRepeatedMarkersAreErrors() {
    #expect(throws: SnippetError("A.swift:1: `snippet: end` without an open snippet")) {
      try Snippet.parse("// snippet: end", file: "A.swift")
    }
    #expect(throws: SnippetError("A.swift: snippet `a` has no `snippet: end`")) {
      try Snippet.parse("// snippet: a\nx", file: "A.swift")
    }
    #expect(throws: SnippetError("A.swift:3: a second snippet named `a`")) {
      try Snippet.parse("// snippet: a\n// snippet: end\n// snippet: a\n// snippet: end", file: "A.swift")
    }
    #expect(throws: SnippetError("A.swift:1: `snippet: hide` outside a snippet")) {
      try Snippet.parse("// snippet: hide", file: "A.swift")
    }
  }
}

struct GuideParsingTests {
  @Test func markedBlocksAreFoundWithTheirSource() throws {
    let guide = try Guide(
      path: "G.md",
      text: """
        Text.

        <!-- snippet: Tests/X.swift#one -->
        ```swift
        let a = 1
        ```

        <!-- output: failure -->
        ```
        it failed
        ```

        ```sh
        swift test
        ```
        """)
    #expect(
      guide.blocks == [
        Guide.Block(source: .snippet(path: "Tests/X.swift", name: "one"), lines: ["let a = 1"], firstLine: 4),
        Guide.Block(source: .output(name: "failure"), lines: ["it failed"], firstLine: 9),
      ])
  }

  @Test func aSwiftBlockWithoutAMarkerIsAnError() {
    #expect(throws: SnippetError.self) {
      try Guide(path: "G.md", text: "```swift\nlet a = 1\n```")
    }
  }

  @Test func aMarkerFollowedByTextIsAnError() {
    #expect(throws: SnippetError.self) {
      try Guide(path: "G.md", text: "<!-- snippet: X.swift#a -->\nText.\n```swift\n```")
    }
  }

  @Test func replacingABlockKeepsTheOthersInPlace() throws {
    let guide = try Guide(
      path: "G.md",
      text: "<!-- snippet: X.swift#a -->\n```swift\nold\n```\n<!-- snippet: X.swift#b -->\n```swift\nb\n```")
    let first = try #require(guide.blocks.first)
    let updated = guide.replacing(first, with: ["new", "lines"])
    #expect(
      updated.text
        == "<!-- snippet: X.swift#a -->\n```swift\nnew\nlines\n```\n<!-- snippet: X.swift#b -->\n```swift\nb\n```")
    #expect(updated.blocks.last?.firstLine == 7)
    #expect(try Guide(path: "G.md", text: updated.text).blocks == updated.blocks)
  }

  /// Blocks after one that grows are found where they now are: the guide is not garbled.
  @Test func replacingEveryBlockKeepsEachInPlace() throws {
    let guide = try Guide(
      path: "G.md",
      text: "<!-- snippet: X.swift#a -->\n```swift\n```\nText.\n<!-- snippet: X.swift#b -->\n```swift\n```")
    let updated = guide.replacing { block in
      guard case .snippet(_, let name) = block.source else { return nil }
      return [name + "1", name + "2"]
    }
    #expect(
      updated.text
        == "<!-- snippet: X.swift#a -->\n```swift\na1\na2\n```\nText.\n<!-- snippet: X.swift#b -->\n```swift\nb1\nb2\n```")
    #expect(try Guide(path: "G.md", text: updated.text).blocks == updated.blocks)
  }

  @Test func aDriftIsReportedAsALineDiff() {
    #expect(
      Documentation.lineDiff(shown: ["a", "b", "c"], compiled: ["a", "B", "c"])
        == "- b\n+ B")
  }
}

struct DocCommentSnippetTests {
  @Test func everyDocCommentSnippetOfTheLibrariesIsCompiled() throws {
    let problems = try DocComments.problems()
    #expect(problems.isEmpty, "\(problems.count) blocks:\n\n\(problems.joined(separator: "\n\n"))")
  }

  @Test func docCommentBlocksAreReadWithoutTheirSlashes() {
    let source = """
      /// Counts.
      ///
      /// ```swift
      /// let store = Store(initialState: Counter.State()) {
      ///   Counter()
      /// }
      ///
      /// ```
      struct Counter {}
      // ```swift is not a doc comment
      """
    #expect(
      DocComments.blocks(in: source, path: "C.swift") == [
        DocComments.Block(
          location: "C.swift:3",
          lines: ["let store = Store(initialState: Counter.State()) {", "  Counter()", "}"])
      ])
  }
}
