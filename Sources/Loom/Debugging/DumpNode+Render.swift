extension DumpNode {
  /// The widest line, indentation included, that a value stays on one line for.
  static let lineWidth = 80

  /// The node as lines of text, each already indented by `indent` spaces.
  ///
  /// The first line starts with `prefix` (a label such as `count: ` or `[0]: `), the last one
  /// ends with `suffix` (a separating comma). The node stays on one line when that line fits
  /// in ``lineWidth``; otherwise each child goes on its own line, two spaces further in.
  func lines(prefix: String = "", indent: Int = 0, suffix: String = "") -> [String] {
    let pad = String(repeating: " ", count: indent)
    if !spansLines,
      !hasChildren || indent + prefix.count + text.count + suffix.count <= Self.lineWidth
    {
      return [pad + prefix + text + suffix]
    }
    var result: [String]
    switch kind {
    case .leaf:
      // Text with its own line breaks: every line indented, the label on the first.
      result = text.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }
      if !result.isEmpty {
        result[0] = pad + prefix + result[0].dropFirst(indent)
        result[result.count - 1] += suffix
      }
    case .record(let opener, let fields):
      result = [pad + prefix + opener + "("]
      result += Self.childLines(fields.map { ($0.prefix, $0.value) }, indent: indent + 2)
      result.append(pad + ")" + suffix)
    case .list(let elements, _):
      result = [pad + prefix + "["]
      let labelled = elements.enumerated().map { ("[\($0.offset)]: ", $0.element) }
      result += Self.childLines(labelled, indent: indent + 2)
      result.append(pad + "]" + suffix)
    case .set(let elements):
      result = [pad + prefix + "["]
      result += Self.childLines(elements.map { ("", $0) }, indent: indent + 2)
      result.append(pad + "]" + suffix)
    case .dictionary(let entries):
      result = [pad + prefix + "["]
      result += Self.childLines(entries.map { ("\($0.key): ", $0.value) }, indent: indent + 2)
      result.append(pad + "]" + suffix)
    }
    return result
  }

  /// The lines of each child, separated by commas.
  private static func childLines(_ children: [(prefix: String, node: DumpNode)], indent: Int)
    -> [String]
  {
    var result: [String] = []
    for (offset, child) in children.enumerated() {
      let suffix = offset < children.count - 1 ? "," : ""
      result += child.node.lines(prefix: child.prefix, indent: indent, suffix: suffix)
    }
    return result
  }
}
