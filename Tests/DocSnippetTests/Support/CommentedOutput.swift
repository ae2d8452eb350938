/// The output a snippet shows in its trailing `// ` comment lines, so a test can check that
/// the code prints exactly that.
///
/// The lines are the snippet's lines that start with `// `, without that prefix, from the
/// first such line to the end.
func commentedOutput(ofSnippet name: String, file: String = #filePath) throws -> String {
  let relative = file.hasPrefix(Documentation.root.path + "/")
    ? String(file.dropFirst(Documentation.root.path.count + 1)) : file
  let snippets = try Snippet.parse(Documentation.read(relative), file: relative)
  guard let snippet = snippets[name] else {
    throw SnippetError("\(relative) has no snippet named `\(name)`")
  }
  let output = snippet.lines.drop { !$0.hasPrefix("//") }
  return output.map { $0.hasPrefix("// ") ? String($0.dropFirst(3)) : String($0.dropFirst(2)) }
    .joined(separator: "\n")
}
