/// How the two sides of a diff are marked.
///
/// ```swift
/// loomDiff(expected, actual, format: DiffFormat(first: "−", second: "+"))
/// ```
public struct DiffFormat: Sendable, Equatable {
  /// The mark of lines from the first (old, expected) value.
  public var first: String
  /// The mark of lines from the second (new, actual) value.
  public var second: String

  /// Creates a format with the given marks.
  public init(first: String, second: String) {
    self.first = first
    self.second = second
  }

  /// `-` for the old value, `+` for the new one.
  public static let `default` = DiffFormat(first: "-", second: "+")
  /// `−` for the expected value, `+` for the actual one, as the test store prints them.
  public static let testStore = DiffFormat(first: "−", second: "+")
}

/// A minimal, readable diff of two values of the same type, or `nil` when their dumps are equal.
///
/// Only the parts that differ are shown, with the path to them; unchanged siblings collapse
/// into a `… (N unchanged)` line. Structs are compared field by field, collections of
/// `Identifiable` elements by id, other collections by position, enums by case.
///
/// ```swift
/// if let diff = loomDiff(oldState, newState) { print(diff) }
/// //   Counter.State(
/// // -   count: 1
/// // +   count: 2
/// //   )
/// ```
public func loomDiff<T>(_ old: T, _ new: T, format: DiffFormat = .default) -> String? {
  let oldNode = DumpNode(old, depth: .max)
  let newNode = DumpNode(new, depth: .max)
  guard oldNode != newNode else { return nil }
  var lines: [String] = []
  DiffWriter(format: format).diff(oldNode, newNode, prefix: "", indent: 0, into: &lines)
  return lines.joined(separator: "\n")
}

/// Writes the lines of a diff between two dump trees.
struct DiffWriter {
  let format: DiffFormat

  private var unchangedMark: String { String(repeating: " ", count: max(format.first.count, 1)) }

  /// Lines for `value` as a whole, every one marked with `mark`.
  private func whole(
    _ value: DumpNode, prefix: String, indent: Int, mark: String, into lines: inout [String]
  ) {
    let pad = String(repeating: " ", count: indent)
    let text = value.render(indent: indent)
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let body = index == 0 ? "\(pad)\(prefix)\(line)" : String(line)
      lines.append("\(mark) \(body)")
    }
  }

  private func context(_ text: String, indent: Int, into lines: inout [String]) {
    lines.append("\(unchangedMark) \(String(repeating: " ", count: indent))\(text)")
  }

  private func collapsed(_ count: Int, indent: Int, into lines: inout [String]) {
    guard count > 0 else { return }
    context("… (\(count) unchanged)", indent: indent, into: &lines)
  }

  func diff(
    _ old: DumpNode, _ new: DumpNode, prefix: String, indent: Int, into lines: inout [String]
  ) {
    switch (old, new) {
    case (.record(let oldType, let oldFields), .record(let newType, let newFields))
    where oldType == newType && oldFields.map(\.label) == newFields.map(\.label):
      context("\(prefix)\(oldType)(", indent: indent, into: &lines)
      diffFields(oldFields, newFields, indent: indent + 2, into: &lines)
      context(")", indent: indent, into: &lines)

    case (.enumCase(let oldName, let oldPayload), .enumCase(let newName, let newPayload))
    where oldName == newName && oldPayload.map(\.label) == newPayload.map(\.label)
      && !oldPayload.isEmpty:
      context("\(prefix).\(oldName)(", indent: indent, into: &lines)
      diffFields(oldPayload, newPayload, indent: indent + 2, into: &lines)
      context(")", indent: indent, into: &lines)

    case (.collection(let oldElements, let oldIDs), .collection(let newElements, let newIDs)):
      context("\(prefix)[", indent: indent, into: &lines)
      if let oldIDs, let newIDs {
        diffByID(oldElements, oldIDs, newElements, newIDs, indent: indent + 2, into: &lines)
      } else {
        diffByPosition(oldElements, newElements, indent: indent + 2, into: &lines)
      }
      context("]", indent: indent, into: &lines)

    case (.dictionary(let oldPairs), .dictionary(let newPairs)):
      context("\(prefix)[", indent: indent, into: &lines)
      let oldByKey = Dictionary(oldPairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
      let newByKey = Dictionary(newPairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
      var unchanged = 0
      for key in Set(oldByKey.keys).union(newByKey.keys).sorted() {
        switch (oldByKey[key], newByKey[key]) {
        case (let a?, let b?) where a == b:
          unchanged += 1
        case (let a?, let b?):
          diff(a, b, prefix: "\(key): ", indent: indent + 2, into: &lines)
        case (let a?, nil):
          whole(a, prefix: "\(key): ", indent: indent + 2, mark: format.first, into: &lines)
        case (nil, let b?):
          whole(b, prefix: "\(key): ", indent: indent + 2, mark: format.second, into: &lines)
        case (nil, nil):
          break
        }
      }
      collapsed(unchanged, indent: indent + 2, into: &lines)
      context("]", indent: indent, into: &lines)

    default:
      whole(old, prefix: prefix, indent: indent, mark: format.first, into: &lines)
      whole(new, prefix: prefix, indent: indent, mark: format.second, into: &lines)
    }
  }

  private func diffFields(
    _ old: [DumpNode.Field], _ new: [DumpNode.Field], indent: Int, into lines: inout [String]
  ) {
    var unchanged = 0
    for (oldField, newField) in zip(old, new) {
      if oldField.value == newField.value {
        unchanged += 1
        continue
      }
      collapsed(unchanged, indent: indent, into: &lines)
      unchanged = 0
      let prefix = oldField.label.map { "\($0): " } ?? ""
      diff(oldField.value, newField.value, prefix: prefix, indent: indent, into: &lines)
    }
    collapsed(unchanged, indent: indent, into: &lines)
  }

  private func diffByPosition(
    _ old: [DumpNode], _ new: [DumpNode], indent: Int, into lines: inout [String]
  ) {
    var unchanged = 0
    for index in 0..<max(old.count, new.count) {
      let prefix = "[\(index)]: "
      switch (index < old.count ? old[index] : nil, index < new.count ? new[index] : nil) {
      case (let a?, let b?) where a == b:
        unchanged += 1
      case (let a?, let b?):
        collapsed(unchanged, indent: indent, into: &lines)
        unchanged = 0
        diff(a, b, prefix: prefix, indent: indent, into: &lines)
      case (let a?, nil):
        collapsed(unchanged, indent: indent, into: &lines)
        unchanged = 0
        whole(a, prefix: prefix, indent: indent, mark: format.first, into: &lines)
      case (nil, let b?):
        collapsed(unchanged, indent: indent, into: &lines)
        unchanged = 0
        whole(b, prefix: prefix, indent: indent, mark: format.second, into: &lines)
      case (nil, nil):
        break
      }
    }
    collapsed(unchanged, indent: indent, into: &lines)
  }

  private func diffByID(
    _ old: [DumpNode], _ oldIDs: [String], _ new: [DumpNode], _ newIDs: [String], indent: Int,
    into lines: inout [String]
  ) {
    let oldByID = Dictionary(zip(oldIDs, old), uniquingKeysWith: { a, _ in a })
    let newIDSet = Set(newIDs)
    var unchanged = 0
    // Removed elements first, in their old order, then the new order with changes and inserts.
    for (id, element) in zip(oldIDs, old) where !newIDSet.contains(id) {
      collapsed(unchanged, indent: indent, into: &lines)
      unchanged = 0
      whole(element, prefix: "[id: \(id)]: ", indent: indent, mark: format.first, into: &lines)
    }
    for (id, element) in zip(newIDs, new) {
      guard let before = oldByID[id] else {
        collapsed(unchanged, indent: indent, into: &lines)
        unchanged = 0
        whole(element, prefix: "[id: \(id)]: ", indent: indent, mark: format.second, into: &lines)
        continue
      }
      if before == element {
        unchanged += 1
        continue
      }
      collapsed(unchanged, indent: indent, into: &lines)
      unchanged = 0
      diff(before, element, prefix: "[id: \(id)]: ", indent: indent, into: &lines)
    }
    collapsed(unchanged, indent: indent, into: &lines)
    if oldIDs.filter(newIDSet.contains) != newIDs.filter({ oldByID[$0] != nil }) {
      context("(order changed)", indent: indent, into: &lines)
    }
  }
}
