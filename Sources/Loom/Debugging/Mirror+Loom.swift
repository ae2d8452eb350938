extension Mirror {
  /// One stored property, tuple element or payload value of a reflected value.
  typealias Field = (label: String?, value: Any)

  /// The children worth showing, superclass properties first.
  ///
  /// Tuple positions (`.0`, `.1`) have no label. Storage that the `@Observable` macro
  /// generates is cleaned up: `_$observationRegistrar` is dropped and `_count` reads `count`.
  var loomFields: [Field] {
    var fields = superclassMirror?.loomFields ?? []
    fields += children.map { child in
      // `@Presents var alert` is stored as `_alert`: named as its feature names it.
      if let label = child.label, label.hasPrefix("_"), child.value is any _PresentationStateProtocol {
        return (label: String(label.dropFirst()), value: child.value)
      }
      return (label: Self.visibleLabel(child.label), value: child.value)
    }
    guard fields.contains(where: { $0.label == "_$observationRegistrar" }) else { return fields }
    return fields.compactMap { field in
      guard let label = field.label, label.hasPrefix("_") else { return field }
      if label.hasPrefix("_$") { return nil }
      return (label: String(label.dropFirst()), value: field.value)
    }
  }

  /// The key and value of one child of a dictionary's mirror, or `nil` if it is not a pair.
  static func keyValuePair(_ child: Any) -> (key: Any, value: Any)? {
    let parts = Mirror(reflecting: child).children
    guard parts.count == 2, let key = parts.first?.value, let value = parts.dropFirst().first
    else { return nil }
    return (key, value.value)
  }

  /// A label as a dump shows it: positional tuple labels (`.0`) are no labels at all.
  private static func visibleLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }
}

/// The name of an enum value's case, e.g. `high` for `Priority.high`, or `nil` if the value is
/// not an enum.
///
/// The runtime knows the name even when the type overrides `description`, which
/// `String(describing:)` would print instead.
func enumCaseName(_ value: Any) -> String? {
  func name<T>(_ value: T) -> String? {
    loomEnumCaseName(value).map { String(cString: $0) }
  }
  return _openExistential(value, do: name)
}

/// The Swift runtime's own case-name lookup, the one `print` uses for enums without a
/// `description`. Exported by the runtime on every platform Swift supports.
@_silgen_name("swift_EnumCaseName")
private func loomEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
