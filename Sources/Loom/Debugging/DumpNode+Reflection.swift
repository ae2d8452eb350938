extension DumpNode {
  /// The tree of `value`, read through its `Mirror` (so `CustomReflectable` types are shown
  /// the way they ask to be).
  ///
  /// - Parameters:
  ///   - value: Any value.
  ///   - maxDepth: How many levels of structs, enums with payloads, tuples and collections are
  ///     opened; deeper ones read `Type(…)`, `.case(…)` or `[…]`. Leaves are always shown.
  init(reflecting value: Any, maxDepth: Int = .max) {
    self = Self.make(value, depth: maxDepth, ancestors: [])
  }

  /// - Parameter ancestors: The objects being dumped around this value; meeting one of them
  ///   again is a reference cycle, which is cut instead of followed.
  private static func make(_ value: Any, depth: Int, ancestors: Set<ObjectIdentifier>)
    -> DumpNode
  {
    if let text = leafText(value) { return .leaf(text) }
    let mirror = Mirror(reflecting: value)
    func child(_ value: Any) -> DumpNode {
      make(value, depth: depth - 1, ancestors: ancestors)
    }
    switch mirror.displayStyle {
    case .optional:
      // Optionals are invisible: a wrapped value shows as itself, at the same depth.
      guard let wrapped = mirror.children.first else { return .leaf("nil") }
      return make(wrapped.value, depth: depth, ancestors: ancestors)
    case .enum:
      guard let payload = mirror.children.first else {
        return .leaf(".\(enumCaseName(value) ?? String(describing: value))")
      }
      let name = "." + (payload.label ?? enumCaseName(value) ?? "")
      guard depth > 0 else { return .leaf("\(name)(…)") }
      // A payload with several values, or with labels, is a tuple: `.editing(id: 3)`.
      let payloadMirror = Mirror(reflecting: payload.value)
      let values: [Mirror.Field] =
        payloadMirror.displayStyle == .tuple
        ? payloadMirror.loomFields : [(label: nil, value: payload.value)]
      return .record(name, values.map { Field(label: $0.label, value: child($0.value)) })
    case .collection:
      guard depth > 0 else { return .leaf("[…]") }
      let elements = mirror.children.map(\.value)
      return .list(elements.map(child), ids: identifiers(of: elements))
    case .set:
      guard depth > 0 else { return .leaf("[…]") }
      return .set(mirror.children.map { child($0.value) })
    case .dictionary:
      guard depth > 0 else { return .leaf("[…]") }
      let entries = mirror.children.compactMap { pair -> Entry? in
        guard let (key, value) = Mirror.keyValuePair(pair.value) else { return nil }
        return Entry(key: child(key).text, value: child(value))
      }
      return .dictionary(entries)
    case .tuple:
      guard depth > 0 else { return .leaf("(…)") }
      return .record("", mirror.loomFields.map { Field(label: $0.label, value: child($0.value)) })
    default:
      return structure(value, mirror, depth: depth, ancestors: ancestors)
    }
  }

  /// A struct, a class, or a custom mirror without a display style: `Type(label: value, …)`.
  private static func structure(
    _ value: Any, _ mirror: Mirror, depth: Int, ancestors: Set<ObjectIdentifier>
  ) -> DumpNode {
    let fields = mirror.loomFields
    if let text = describedLeafText(value, hasFields: !fields.isEmpty) { return .leaf(text) }
    let name = typeName(type(of: value))
    var ancestors = ancestors
    if mirror.displayStyle == .class {
      // Reading an actor's state from outside its isolation would be a data race.
      if value is any Actor { return .leaf("\(name)(…)") }
      let id = ObjectIdentifier(value as AnyObject)
      if ancestors.contains(id) { return .leaf("\(name)(↩︎)") }
      ancestors.insert(id)
    }
    guard depth > 0 || fields.isEmpty else { return .leaf("\(name)(…)") }
    return .record(
      name,
      fields.map {
        Field(label: $0.label, value: make($0.value, depth: depth - 1, ancestors: ancestors))
      })
  }

  /// The elements' dumped ids when every element is `Identifiable` and no id repeats, so that
  /// a diff can match elements by id.
  private static func identifiers(of elements: [Any]) -> [String]? {
    func id(_ element: some Identifiable) -> String {
      DumpNode(reflecting: element.id).text
    }
    var ids: [String] = []
    ids.reserveCapacity(elements.count)
    for element in elements {
      guard let identifiable = element as? any Identifiable else { return nil }
      ids.append(id(identifiable))
    }
    return Set(ids).count == ids.count ? ids : nil
  }
}
