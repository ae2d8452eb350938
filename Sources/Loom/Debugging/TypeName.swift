/// The name of a type as a dump shows it: without module prefixes, nested types as
/// `Outer.Inner`, generic arguments kept (`Page<Row>`).
///
/// `String(reflecting:)` spells every component out (`App.Feature.State`,
/// `Loom.Page<App.Row>`) and marks private and local types with the runtime's bookkeeping
/// (`App.(unknown context at $10a4c).Row`, `App.(Row in _9F2C…)`). Both are dropped.
func typeName(_ type: Any.Type) -> String {
  var name = String(reflecting: type)
  if name.contains("(") {
    // `(extension in App):Swift.Array<Swift.Int>.Inner`: the extending module is noise.
    name.replace(/\(extension in [^)]*\):/, with: "")
    // `App.(unknown context at $10a4c).Local`: a type declared inside a function.
    name.replace(/\(unknown context at [^)]*\)\./, with: "")
    // `App.(Row in _9F2C0B7E)`: a private type.
    name.replace(/\(([A-Za-z0-9_]+) in _[^)]*\)/) { $0.output.1 }
  }
  return droppingModules(name)
}

/// Drops the first component of every dotted path: `Swift.Dictionary<Swift.String, App.Row>`
/// becomes `Dictionary<String, Row>`. A path that starts with a dot (`<…>.Inner`) continues a
/// type and is kept as it is.
private func droppingModules(_ name: String) -> String {
  var result = ""
  var path = ""
  func flushPath() {
    if !path.hasPrefix("."), let dot = path.firstIndex(of: ".") {
      result += path[path.index(after: dot)...]
    } else {
      result += path
    }
    path = ""
  }
  for character in name {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      path.append(character)
    } else {
      flushPath()
      result.append(character)
    }
  }
  flushPath()
  return result
}
