import Foundation

/// A Markdown guide whose Swift code blocks are snippets of compiled sources.
///
/// Every ```` ```swift ```` block must follow a marker naming the file and snippet it shows:
///
/// ```markdown
/// <!-- snippet: Tests/DocSnippetTests/GettingStarted.swift#feature -->
/// ```swift
/// …
/// ```
/// ```
///
/// A block of captured output (for example a test failure) follows an `output` marker
/// instead, `<!-- output: NAME -->`; the test that produces the output compares it.
struct Guide {
  /// One fenced code block that a marker ties to its source.
  struct Block: Equatable {
    enum Source: Equatable {
      /// `path#name`: a snippet of a Swift file, the path relative to the package root.
      case snippet(path: String, name: String)
      /// Captured output that a test produces and compares.
      case output(name: String)
    }
    var source: Source
    /// The lines between the fences.
    var lines: [String]
    /// The index of the first line after the opening fence.
    var firstLine: Int
  }

  var path: String
  var lines: [String]
  var blocks: [Block]

  init(path: String, text: String) throws(SnippetError) {
    self.path = path
    lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    blocks = []
    var index = 0
    var pending: (source: Block.Source, line: Int)?
    while index < lines.count {
      let line = lines[index]
      if let source = Self.marker(in: line) {
        pending = (source, index)
        index += 1
        continue
      }
      guard line.hasPrefix("```") else {
        if let marker = pending, !line.allSatisfy(\.isWhitespace) {
          throw SnippetError("\(path):\(marker.line + 1): a marker must come right before its code block")
        }
        index += 1
        continue
      }
      let language = line.dropFirst(3)
      guard let closing = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
        throw SnippetError("\(path):\(index + 1): a code block that never closes")
      }
      if let (source, _) = pending {
        blocks.append(Block(source: source, lines: Array(lines[(index + 1)..<closing]), firstLine: index + 1))
      } else if language == "swift" {
        throw SnippetError(
          "\(path):\(index + 1): a Swift block without a `<!-- snippet: FILE#NAME -->` marker; every Swift block in the docs is a snippet of a compiled file")
      }
      pending = nil
      index = closing + 1
    }
  }

  /// The source a `<!-- snippet: … -->` or `<!-- output: … -->` line names.
  private static func marker(in line: String) -> Block.Source? {
    guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { return nil }
    let body = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
    if body.hasPrefix("snippet:") {
      let reference = body.dropFirst("snippet:".count).trimmingCharacters(in: .whitespaces)
      guard let hash = reference.lastIndex(of: "#") else { return nil }
      return .snippet(
        path: String(reference[..<hash]), name: String(reference[reference.index(after: hash)...]))
    }
    if body.hasPrefix("output:") {
      return .output(name: body.dropFirst("output:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  /// The guide's text with `block` showing `lines` instead.
  func replacing(_ block: Block, with lines: [String]) -> Guide {
    var copy = self
    copy.lines.replaceSubrange(block.firstLine..<(block.firstLine + block.lines.count), with: lines)
    let shift = lines.count - block.lines.count
    copy.blocks = blocks.map { other in
      var other = other
      if other == block {
        other.lines = lines
      } else if other.firstLine > block.firstLine {
        other.firstLine += shift
      }
      return other
    }
    return copy
  }

  /// The guide with each block for which `replacement` returns lines showing those instead.
  func replacing(_ replacement: (Block) throws -> [String]?) rethrows -> Guide {
    var copy = self
    // The copy's blocks, not `blocks`: a replaced block moves every block after it.
    for index in blocks.indices {
      let block = copy.blocks[index]
      if let lines = try replacement(block), lines != block.lines {
        copy = copy.replacing(block, with: lines)
      }
    }
    return copy
  }

  var text: String { lines.joined(separator: "\n") }
}
