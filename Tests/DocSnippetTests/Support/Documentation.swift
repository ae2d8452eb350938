import Foundation

/// The package's guides and the snippets they show, read from the source tree.
enum Documentation {
  /// The package root: three folders above this file (`Tests/DocSnippetTests/Support`).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every Markdown file a reader sees: README, `Docs/` and the DocC catalogs, by path
  /// relative to the package root.
  static func guidePaths() throws -> [String] {
    var paths = ["README.md"]
    for folder in ["Docs", "Sources"] {
      let base = root.appendingPathComponent(folder)
      guard
        let enumerator = FileManager.default.enumerator(
          at: base, includingPropertiesForKeys: nil)
      else { continue }
      for case let url as URL in enumerator where url.pathExtension == "md" {
        paths.append(relativePath(of: url))
      }
    }
    return paths.sorted()
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(path), options: .atomic)
  }

  private static func relativePath(of url: URL) -> String {
    let base = root.standardizedFileURL.path
    let full = url.standardizedFileURL.path
    return full.hasPrefix(base + "/") ? String(full.dropFirst(base.count + 1)) : full
  }

  /// The differences between what each guide shows and the snippets it names, one sentence
  /// each; empty when every guide is up to date. With `update`, rewrites the guides to show
  /// the snippets instead.
  static func problems(update: Bool) throws -> [String] {
    var problems: [String] = []
    var snippetsByFile: [String: [String: Snippet]] = [:]
    func snippets(in path: String) throws -> [String: Snippet] {
      if let cached = snippetsByFile[path] { return cached }
      let parsed = try Snippet.parse(read(path), file: path)
      snippetsByFile[path] = parsed
      return parsed
    }
    for path in try guidePaths() {
      let guide: Guide
      do {
        guide = try Guide(path: path, text: read(path))
      } catch {
        problems.append("\(error)")
        continue
      }
      let updated = guide.replacing { block -> [String]? in
        guard case .snippet(let file, let name) = block.source else { return nil }
        let location = "\(path):\(block.firstLine)"
        let available: [String: Snippet]
        do {
          available = try snippets(in: file)
        } catch let error as SnippetError {
          problems.append(error.description)
          return nil
        } catch {
          problems.append("\(location): cannot read \(file): \(error)")
          return nil
        }
        guard let snippet = available[name] else {
          problems.append("\(location): \(file) has no snippet named `\(name)`")
          return nil
        }
        guard snippet.lines != block.lines else { return nil }
        if update { return snippet.lines }
        problems.append(
          "\(location): the block differs from \(file)#\(name)\n"
            + lineDiff(shown: block.lines, compiled: snippet.lines))
        return nil
      }
      if update, updated.text != guide.text { try write(updated.text, to: path) }
    }
    return problems
  }

  /// The lines that differ, `-` for what the guide shows and `+` for the compiled snippet.
  static func lineDiff(shown: [String], compiled: [String]) -> String {
    let difference = compiled.difference(from: shown)
    var lines: [String] = []
    for change in difference {
      switch change {
      case .remove(_, let line, _): lines.append("- \(line)")
      case .insert(_, let line, _): lines.append("+ \(line)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The lines of the block that an `<!-- output: name -->` marker introduces, in whichever
  /// guide has it.
  static func output(named name: String) throws -> (path: String, lines: [String])? {
    for path in try guidePaths() {
      let guide = try Guide(path: path, text: read(path))
      for block in guide.blocks where block.source == .output(name: name) {
        return (path, block.lines)
      }
    }
    return nil
  }
}
