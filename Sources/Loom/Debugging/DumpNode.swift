/// A value turned into a tree: what ``loomDump(_:maxDepth:)`` renders and
/// ``loomDiff(_:_:format:)`` compares.
///
/// Every node carries its single-line text, built once from its children's, so comparing two
/// subtrees is one string comparison and rendering never re-walks the value.
struct DumpNode: Equatable {
  enum Kind {
    /// Text with no structure worth opening: numbers, strings, dates, enum cases without a
    /// payload, values cut off by the depth limit.
    case leaf
    /// `opener(label: value, …)`: a struct or class (`Row`), a tuple (empty opener), or an enum
    /// case with a payload (`.editing`).
    case record(opener: String, fields: [Field])
    /// An ordered collection. `ids` are the elements' dumped ids, in order, when every element
    /// is `Identifiable` and no id repeats.
    case list(elements: [DumpNode], ids: [String]?)
    /// A set, its elements sorted by their text.
    case set(elements: [DumpNode])
    /// A dictionary, its entries sorted by their keys' text.
    case dictionary(entries: [Entry])
  }

  /// A labelled (or, in unlabelled tuples and payloads, unlabelled) child of a record.
  struct Field {
    var label: String?
    var value: DumpNode

    /// What precedes the value on its line: `label: `, or nothing.
    var prefix: String { label.map { "\($0): " } ?? "" }
  }

  /// One key and value of a dictionary; `key` is the key's dumped text.
  struct Entry {
    var key: String
    var value: DumpNode
  }

  let kind: Kind
  /// The whole value on one line (unless a leaf's own text has line breaks).
  let text: String
  /// Whether `text` has line breaks, so that the node can never be shown on one line.
  let spansLines: Bool

  /// Two nodes are equal when their dumps are.
  static func == (lhs: DumpNode, rhs: DumpNode) -> Bool {
    lhs.text == rhs.text
  }

  /// Whether the node has children to spread over several lines.
  var hasChildren: Bool {
    switch kind {
    case .leaf: false
    case .record(_, let fields): !fields.isEmpty
    case .list(let elements, _), .set(let elements): !elements.isEmpty
    case .dictionary(let entries): !entries.isEmpty
    }
  }

  static func leaf(_ text: String) -> DumpNode {
    DumpNode(kind: .leaf, text: text, spansLines: text.contains("\n"))
  }

  static func record(_ opener: String, _ fields: [Field]) -> DumpNode {
    let inner = fields.map { $0.prefix + $0.value.text }.joined(separator: ", ")
    return DumpNode(
      kind: .record(opener: opener, fields: fields), text: "\(opener)(\(inner))",
      spansLines: fields.contains { $0.value.spansLines })
  }

  static func list(_ elements: [DumpNode], ids: [String]?) -> DumpNode {
    DumpNode(
      kind: .list(elements: elements, ids: ids), text: bracketed(elements.map(\.text)),
      spansLines: elements.contains { $0.spansLines })
  }

  static func set(_ elements: [DumpNode]) -> DumpNode {
    let sorted = elements.sorted { $0.text < $1.text }
    return DumpNode(
      kind: .set(elements: sorted), text: bracketed(sorted.map(\.text)),
      spansLines: sorted.contains { $0.spansLines })
  }

  static func dictionary(_ entries: [Entry]) -> DumpNode {
    let sorted = entries.sorted { $0.key < $1.key }
    let text = sorted.isEmpty ? "[:]" : bracketed(sorted.map { "\($0.key): \($0.value.text)" })
    return DumpNode(
      kind: .dictionary(entries: sorted), text: text,
      spansLines: sorted.contains { $0.value.spansLines || $0.key.contains("\n") })
  }

  private static func bracketed(_ items: [String]) -> String {
    "[\(items.joined(separator: ", "))]"
  }
}
