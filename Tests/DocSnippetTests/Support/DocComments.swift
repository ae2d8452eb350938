import Foundation

/// The code blocks of the `///` comments of the libraries and examples: the API reference.
///
/// A doc comment cannot include a file, so each block must instead equal, line for line, a
/// snippet of a test file (usually in this target, or in the test target of the module it
/// documents when only that one can import it), which compiles and runs with the tests.
enum DocComments {
  /// The folders whose doc comments must show compiled snippets;
  /// `LOOM_DOC_FOLDERS=Sources/Loom,Examples` checks just those.
  static var folders: [String] {
    if let list = ProcessInfo.processInfo.environment["LOOM_DOC_FOLDERS"] {
      return list.split(separator: ",").map(String.init)
    }
    return ["Sources", "Examples", "Benchmarks"]
  }

  struct Block: Equatable {
    /// `path:line` of the opening fence.
    var location: String
    var lines: [String]
  }

  /// The Swift blocks in the doc comments of `source`.
  static func blocks(in source: String, path: String) -> [Block] {
    var blocks: [Block] = []
    var current: (line: Int, lines: [String])?
    for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("///") else {
        current = nil
        continue
      }
      var text = trimmed.dropFirst(3)
      if text.hasPrefix(" ") { text = text.dropFirst() }
      if var open = current {
        if text.hasPrefix("```") {
          var lines = open.lines
          while lines.first?.isEmpty == true { lines.removeFirst() }
          while lines.last?.isEmpty == true { lines.removeLast() }
          blocks.append(Block(location: "\(path):\(open.line + 1)", lines: lines))
          current = nil
        } else {
          open.lines.append(String(text))
          current = open
        }
      } else if text == "```swift" {
        current = (index, [])
      }
    }
    return blocks
  }

  /// Every doc-comment block under ``folders`` that no snippet shows, as a sentence each.
  static func problems() throws -> [String] {
    let snippets = try allSnippets()
    let shown = Set(snippets.map { $0.lines.joined(separator: "\n") })
    var problems: [String] = []
    for path in try swiftFiles(under: folders) {
      for block in blocks(in: try Documentation.read(path), path: path)
      where !shown.contains(block.lines.joined(separator: "\n")) {
        problems.append(
          "\(block.location): no snippet under Tests/ shows this block:\n"
            + block.lines.map { "  \($0)" }.joined(separator: "\n"))
      }
    }
    return problems
  }

  /// The snippets of every test file.
  private static func allSnippets() throws -> [Snippet] {
    var snippets: [Snippet] = []
    for path in try swiftFiles(under: ["Tests"]) {
      snippets += try Snippet.parse(Documentation.read(path), file: path).values
    }
    return snippets
  }

  /// The Swift files under `folders`, relative to the package root, sorted.
  static func swiftFiles(under folders: [String]) throws -> [String] {
    var paths: [String] = []
    for folder in folders {
      let base = Documentation.root.appendingPathComponent(folder)
      guard
        let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
      else { continue }
      for case let url as URL in enumerator where url.pathExtension == "swift" {
        paths.append(folder + "/" + url.path.dropFirst(base.path.count + 1))
      }
    }
    return paths.sorted()
  }
}
