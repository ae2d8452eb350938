extension DumpNode {
  /// The longest dump kept on one line.
  static let lineLimit = 80

  /// Renders the node, on one line when it is short, otherwise over several lines indented by
  /// two spaces per level.
  func render(indent: Int) -> String {
    let single = renderSingleLine()
    if single.count + indent <= Self.lineLimit || !hasChildren { return single }
    return renderMultiline(indent: indent)
  }

  var hasChildren: Bool {
    switch self {
    case .leaf: false
    case .record(_, let fields): !fields.isEmpty
    case .enumCase(_, let payload): !payload.isEmpty
    case .collection(let elements, _): !elements.isEmpty
    case .dictionary(let pairs): !pairs.isEmpty
    }
  }

  func renderSingleLine() -> String {
    switch self {
    case .leaf(let text):
      return text
    case .record(let typeName, let fields):
      return "\(typeName)(\(fields.map(\.singleLine).joined(separator: ", ")))"
    case .enumCase(let name, let payload):
      if payload.isEmpty { return ".\(name)" }
      return ".\(name)(\(payload.map(\.singleLine).joined(separator: ", ")))"
    case .collection(let elements, _):
      return "[\(elements.map { $0.renderSingleLine() }.joined(separator: ", "))]"
    case .dictionary(let pairs):
      if pairs.isEmpty { return "[:]" }
      return "[\(pairs.map { "\($0.key): \($0.value.renderSingleLine())" }.joined(separator: ", "))]"
    }
  }

  func renderMultiline(indent: Int) -> String {
    let pad = String(repeating: " ", count: indent + 2)
    let closePad = String(repeating: " ", count: indent)
    switch self {
    case .leaf(let text):
      return text
    case .record(let typeName, let fields):
      let lines = fields.map { "\(pad)\($0.render(indent: indent + 2))" }
      return "\(typeName)(\n\(lines.joined(separator: ",\n"))\n\(closePad))"
    case .enumCase(let name, let payload):
      let lines = payload.map { "\(pad)\($0.render(indent: indent + 2))" }
      return ".\(name)(\n\(lines.joined(separator: ",\n"))\n\(closePad))"
    case .collection(let elements, _):
      let lines = elements.enumerated().map {
        "\(pad)[\($0.offset)]: \($0.element.render(indent: indent + 2))"
      }
      return "[\n\(lines.joined(separator: ",\n"))\n\(closePad)]"
    case .dictionary(let pairs):
      let lines = pairs.map { "\(pad)\($0.key): \($0.value.render(indent: indent + 2))" }
      return "[\n\(lines.joined(separator: ",\n"))\n\(closePad)]"
    }
  }
}

extension DumpNode.Field {
  var singleLine: String {
    label.map { "\($0): \(value.renderSingleLine())" } ?? value.renderSingleLine()
  }

  func render(indent: Int) -> String {
    label.map { "\($0): \(value.render(indent: indent))" } ?? value.render(indent: indent)
  }
}
