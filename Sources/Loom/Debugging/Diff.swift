/// A minimal, readable diff of two values, or `nil` when their dumps are equal.
///
/// Only what differs is shown, with the path down to it; each run of unchanged siblings
/// collapses into one `… (N unchanged)` line. Lines of the old value start with `-`, lines of
/// the new one with `+` (see ``DiffFormat``).
///
/// ```swift
/// if let diff = loomDiff(oldState, newState) { print(diff) }
/// //   Editor.State(
/// // -   count: 1
/// // +   count: 2
/// //     … (3 unchanged)
/// //   )
/// ```
///
/// How values are compared:
/// - Structs, classes and tuples field by field, recursively.
/// - Enums: in the same case, inside the payload; in different cases, the whole old value
///   against the whole new one.
/// - Collections of `Identifiable` elements by id: removed elements read `- [id: 3]: Row(…)`,
///   inserted ones `+ [id: 4]: Row(…)`, and changed ones are opened up. An element that moved
///   shows as removed from its old place and inserted at its new one.
/// - Other collections by position, then the extra or missing elements at the end.
/// - Dictionaries by key, sets by element.
///
/// The values are compared by their dumps (``loomDump(_:maxDepth:)``), so two values that
/// differ only in what their dump does not show (the bytes of a large `Data`, say) have no
/// diff.
///
/// - Parameters:
///   - old: The first value: the old state, or what a test expected.
///   - new: The second value: the new state, or what actually happened.
///   - format: The marks of each side's lines.
/// - Returns: The diff, without a trailing newline, or `nil` if the dumps are equal.
/// - Complexity: That of dumping both values, plus O(*n* log *n*) for each collection of *n*
///   elements matched by id.
public func loomDiff<T>(_ old: T, _ new: T, format: DiffFormat = .default) -> String? {
  let oldNode = DumpNode(reflecting: old)
  let newNode = DumpNode(reflecting: new)
  guard oldNode != newNode else { return nil }
  var writer = DiffWriter(format: format)
  writer.diff(oldNode, newNode, prefix: "", indent: 0)
  return writer.lines.joined(separator: "\n")
}

/// Writes the lines of a diff between two dump trees.
///
/// Every line is a mark column (the first or second mark, or spaces for context), a space,
/// then the line as the dump indents it.
struct DiffWriter {
  private(set) var lines: [String] = []
  private let removedMark: String
  private let insertedMark: String
  private let contextMark: String

  init(format: DiffFormat) {
    let width = max(format.first.count, format.second.count, 1)
    func padded(_ mark: String) -> String {
      mark + String(repeating: " ", count: width - mark.count)
    }
    removedMark = padded(format.first)
    insertedMark = padded(format.second)
    contextMark = String(repeating: " ", count: width)
  }

  /// Writes how `old` became `new`. Containers of the same shape are opened and compared
  /// child by child; anything else is written whole, old then new.
  ///
  /// - Parameter prefix: What precedes the value on its line: `count: `, `[2]: `, or nothing.
  mutating func diff(_ old: DumpNode, _ new: DumpNode, prefix: String, indent: Int) {
    guard let children = Children(old, new) else {
      whole(old, prefix: prefix, indent: indent, mark: removedMark)
      whole(new, prefix: prefix, indent: indent, mark: insertedMark)
      return
    }
    context(prefix + children.opening, indent: indent)
    if children.matchByKey {
      diffByKey(children.old, children.new, indent: indent + 2)
    } else {
      diffByPosition(children.old, children.new, indent: indent + 2)
    }
    context(children.closing, indent: indent)
  }

  /// The children of two containers of the same shape, and how to pair them up.
  private struct Children {
    var opening: String
    var closing: String
    var old: [Element]
    var new: [Element]
    var matchByKey: Bool

    init(opening: String, closing: String = "]", old: [Element], new: [Element], matchByKey: Bool) {
      self.opening = opening
      self.closing = closing
      self.old = old
      self.new = new
      self.matchByKey = matchByKey
    }

    /// `nil` when the two nodes cannot be compared child by child: leaves, different kinds,
    /// different types, different enum cases.
    init?(_ old: DumpNode, _ new: DumpNode) {
      switch (old.kind, new.kind) {
      case (.record(let opener, let oldFields), .record(let newOpener, let newFields))
      where opener == newOpener && oldFields.map(\.label) == newFields.map(\.label):
        func elements(_ fields: [DumpNode.Field]) -> [Element] {
          fields.map { Element(key: "", prefix: $0.prefix, node: $0.value) }
        }
        self.init(
          opening: opener + "(", closing: ")", old: elements(oldFields), new: elements(newFields),
          matchByKey: false)
      case (.list(let oldElements, let oldIDs?), .list(let newElements, let newIDs?)):
        func elements(_ ids: [String], _ nodes: [DumpNode]) -> [Element] {
          zip(ids, nodes).map { Element(key: $0, prefix: "[id: \($0)]: ", node: $1) }
        }
        self.init(
          opening: "[", old: elements(oldIDs, oldElements), new: elements(newIDs, newElements),
          matchByKey: true)
      case (.list(let oldElements, _), .list(let newElements, _)):
        func elements(_ nodes: [DumpNode]) -> [Element] {
          nodes.enumerated().map { Element(key: "", prefix: "[\($0)]: ", node: $1) }
        }
        self.init(
          opening: "[", old: elements(oldElements), new: elements(newElements), matchByKey: false)
      case (.set(let oldElements), .set(let newElements)):
        func elements(_ nodes: [DumpNode]) -> [Element] {
          nodes.map { Element(key: $0.text, prefix: "", node: $0) }
        }
        self.init(
          opening: "[", old: elements(oldElements), new: elements(newElements), matchByKey: true)
      case (.dictionary(let oldEntries), .dictionary(let newEntries)):
        func elements(_ entries: [DumpNode.Entry]) -> [Element] {
          entries.map { Element(key: $0.key, prefix: "\($0.key): ", node: $0.value) }
        }
        self.init(
          opening: "[", old: elements(oldEntries), new: elements(newEntries), matchByKey: true)
      default:
        return nil
      }
    }
  }

  /// A child of a container being compared: its key (for matching), what precedes it on its
  /// line, and its tree.
  struct Element {
    var key: String
    var prefix: String
    var node: DumpNode
  }

  /// Writes `node` whole, every line marked as one side's.
  mutating func whole(_ node: DumpNode, prefix: String, indent: Int, mark: String) {
    for line in node.lines(prefix: prefix, indent: indent) {
      lines.append("\(mark) \(line)")
    }
  }

  mutating func removed(_ element: Element, indent: Int) {
    whole(element.node, prefix: element.prefix, indent: indent, mark: removedMark)
  }

  mutating func inserted(_ element: Element, indent: Int) {
    whole(element.node, prefix: element.prefix, indent: indent, mark: insertedMark)
  }

  /// A line both values share.
  mutating func context(_ text: String, indent: Int) {
    lines.append("\(contextMark) \(String(repeating: " ", count: indent))\(text)")
  }

  /// The line that stands for `count` unchanged siblings; nothing when there are none.
  mutating func unchanged(_ count: Int, indent: Int) {
    guard count > 0 else { return }
    context("… (\(count) unchanged)", indent: indent)
  }
}
