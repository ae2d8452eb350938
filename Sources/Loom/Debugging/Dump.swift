import Foundation

/// A readable, stable, multi-line dump of any value, built from its `Mirror`.
///
/// Structs print as `Type(label: value, …)`, enums as `.case(payload)`, optionals unwrapped or
/// `nil`, strings quoted, collections as `[…]`, dictionaries and sets sorted so the output is
/// the same on every run. Short values stay on one line.
///
/// ```swift
/// print(loomDump(Feature.State(count: 1, mode: .editing(id: 3))))
/// // Feature.State(count: 1, mode: .editing(id: 3))
/// ```
public func loomDump<T>(_ value: T, maxDepth: Int = .max) -> String {
  DumpNode(value, depth: maxDepth).render(indent: 0)
}

/// A value turned into a tree the dump and the diff share.
indirect enum DumpNode: Equatable {
  /// A value with no structure worth showing: numbers, strings, dates.
  case leaf(String)
  /// A struct, class or tuple: `Type(label: value, …)`; `typeName` is empty for tuples.
  case record(typeName: String, fields: [Field])
  /// An enum case: `.name` or `.name(payload…)`.
  case enumCase(name: String, payload: [Field])
  /// An array, set or other collection: `[a, b]`; `ids` holds element ids when they are
  /// `Identifiable`.
  case collection(elements: [DumpNode], ids: [String]?)
  /// A dictionary with its keys dumped and sorted.
  case dictionary([(key: String, value: DumpNode)])

  struct Field: Equatable {
    var label: String?
    var value: DumpNode
  }

  static func == (lhs: DumpNode, rhs: DumpNode) -> Bool {
    lhs.render(indent: 0) == rhs.render(indent: 0)
  }

  init(_ value: Any, depth: Int, visited: Set<ObjectIdentifier> = []) {
    self = DumpNode.make(value, depth: depth, visited: visited)
  }

  private static func make(_ value: Any, depth: Int, visited: Set<ObjectIdentifier>) -> DumpNode {
    if let leaf = leafDescription(value) { return .leaf(leaf) }
    let mirror = Mirror(reflecting: value)
    let name = typeName(of: type(of: value))
    guard depth > 0 else { return .leaf("\(name)(…)") }
    var visited = visited
    if mirror.displayStyle == .class {
      let id = ObjectIdentifier(value as AnyObject)
      if visited.contains(id) { return .leaf("\(name)(↩︎)") }
      visited.insert(id)
    }
    func child(_ value: Any) -> DumpNode { make(value, depth: depth - 1, visited: visited) }
    func fields(_ mirror: Mirror) -> [Field] {
      var all = mirror.superclassMirror.map(fields) ?? []
      all += mirror.children.map { Field(label: fieldLabel($0.label), value: child($0.value)) }
      return all
    }

    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return .leaf("nil") }
      return child(wrapped.value)
    case .enum:
      guard let payload = mirror.children.first else {
        return .enumCase(name: "\(value)", payload: [])
      }
      let caseName = payload.label ?? "\(value)"
      let inner = Mirror(reflecting: payload.value)
      if inner.displayStyle == .tuple {
        return .enumCase(
          name: caseName,
          payload: inner.children.map { Field(label: fieldLabel($0.label), value: child($0.value)) })
      }
      return .enumCase(name: caseName, payload: [Field(label: nil, value: child(payload.value))])
    case .collection:
      let elements = mirror.children.map(\.value)
      return .collection(elements: elements.map(child), ids: identifiers(elements))
    case .set:
      let elements = mirror.children.map { child($0.value) }
      return .collection(
        elements: elements.sorted { $0.render(indent: 0) < $1.render(indent: 0) }, ids: nil)
    case .dictionary:
      let pairs = mirror.children.compactMap { pair -> (key: String, value: DumpNode)? in
        let parts = Array(Mirror(reflecting: pair.value).children)
        guard parts.count == 2 else { return nil }
        return (child(parts[0].value).render(indent: 0), child(parts[1].value))
      }
      return .dictionary(pairs.sorted { $0.key < $1.key })
    case .tuple:
      return .record(typeName: "", fields: fields(mirror))
    default:
      if mirror.children.isEmpty {
        if let described = value as? CustomStringConvertible { return .leaf(described.description) }
        return .leaf("\(name)()")
      }
      return .record(typeName: name, fields: fields(mirror))
    }
  }

  /// A child's label, or `nil` for the positional labels (`.0`, `.1`) of unlabeled tuples.
  private static func fieldLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  private static func identifiers(_ elements: [Any]) -> [String]? {
    func id<E: Identifiable>(_ element: E) -> String { loomDump(element.id) }
    var ids: [String] = []
    for element in elements {
      guard let identifiable = element as? any Identifiable else { return nil }
      ids.append(id(identifiable))
    }
    return Set(ids).count == ids.count ? ids : nil
  }

  private static func leafDescription(_ value: Any) -> String? {
    switch value {
    case let string as String: return quoted(string)
    case let character as Character: return quoted(String(character))
    case let substring as Substring: return quoted(String(substring))
    case let bool as Bool: return bool ? "true" : "false"
    case let number as any BinaryInteger: return "\(number)"
    case let number as any BinaryFloatingPoint: return "\(number)"
    case let date as Date: return date.formatted(.iso8601)
    case let uuid as UUID: return uuid.uuidString
    case let url as URL: return url.absoluteString
    case let data as Data: return "Data(\(data.count) bytes)"
    case let duration as Duration: return "\(duration)"
    case is Any.Type: return typeName(of: value as? Any.Type ?? Any.self) + ".self"
    default: return nil
    }
  }

  static func quoted(_ string: String) -> String {
    var result = "\""
    for character in string {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result.append(character)
      }
    }
    return result + "\""
  }
}

/// The name of a type without its module, e.g. `Feature.State` or `IdentifiedArray<Int, Row>`.
func typeName(of type: Any.Type) -> String {
  var name = String(reflecting: type)
  // Drop the module prefix of each component: `Loom.IdentifiedArray<Swift.Int, App.Row>`.
  var result = ""
  var component = ""
  func flush() {
    let parts = component.split(separator: ".")
    if parts.count > 1, let first = parts.first, first.first?.isUppercase == true {
      result += parts.dropFirst().joined(separator: ".")
    } else {
      result += component
    }
    component = ""
  }
  name = name.replacingOccurrences(of: "(extension in ", with: "(")
  for character in name {
    if character.isLetter || character.isNumber || character == "." || character == "_" {
      component.append(character)
    } else {
      flush()
      result.append(character)
    }
  }
  flush()
  return result
}
