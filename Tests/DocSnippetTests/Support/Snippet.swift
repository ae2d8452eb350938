/// A named piece of a Swift source file that a guide shows.
///
/// A snippet is marked in the source with line comments, which never appear in the guide:
///
/// ```swift
/// // snippet: counter
/// struct Counter: Reducer {
///   // snippet: hide
///   (scaffolding the guide leaves out)
///   // snippet: show
/// }
/// // snippet: end
/// ```
///
/// `hide` and `show` apply to the snippets open at that point, so a snippet may start inside
/// another snippet's hidden part. The guide shows the visible lines with their common
/// indentation removed.
struct Snippet: Equatable {
  var name: String
  var lines: [String]

  /// The snippets of a Swift source file, by name.
  static func parse(_ source: String, file: String) throws(SnippetError) -> [String: Snippet] {
    struct Open {
      var name: String
      var lines: [String] = []
      var isHidden = false
    }
    var open: [Open] = []
    var closed: [String: Snippet] = [:]
    for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let location = "\(file):\(index + 1)"
      guard let directive = directive(in: line) else {
        for position in open.indices where !open[position].isHidden {
          open[position].lines.append(String(line))
        }
        continue
      }
      switch directive {
      case "end":
        guard let finished = open.popLast() else {
          throw SnippetError("\(location): `snippet: end` without an open snippet")
        }
        closed[finished.name] = Snippet(name: finished.name, lines: dedented(finished.lines))
      case "hide", "show":
        guard !open.isEmpty else {
          throw SnippetError("\(location): `snippet: \(directive)` outside a snippet")
        }
        for position in open.indices { open[position].isHidden = directive == "hide" }
      default:
        guard closed[directive] == nil, !open.contains(where: { $0.name == directive }) else {
          throw SnippetError("\(location): a second snippet named `\(directive)`")
        }
        open.append(Open(name: directive))
      }
    }
    if let unfinished = open.last {
      throw SnippetError("\(file): snippet `\(unfinished.name)` has no `snippet: end`")
    }
    return closed
  }

  /// The word after `// snippet:` when the line is a directive.
  private static func directive(in line: Substring) -> String? {
    let trimmed = line.drop { $0 == " " }
    let prefix = "// snippet:"
    guard trimmed.hasPrefix(prefix) else { return nil }
    return trimmed.dropFirst(prefix.count).trimmingSpaces()
  }

  /// `lines` without their common leading spaces, and without blank lines at either end.
  private static func dedented(_ lines: [String]) -> [String] {
    var lines = lines
    while lines.first?.allSatisfy({ $0 == " " }) == true { lines.removeFirst() }
    while lines.last?.allSatisfy({ $0 == " " }) == true { lines.removeLast() }
    let indentation =
      lines.filter { !$0.allSatisfy { $0 == " " } }
      .map { $0.prefix { $0 == " " }.count }
      .min() ?? 0
    return lines.map { $0.allSatisfy { $0 == " " } ? "" : String($0.dropFirst(indentation)) }
  }
}

/// A problem with the snippets or with the guides that show them.
struct SnippetError: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
