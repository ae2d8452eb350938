/// A readable, stable, multi-line dump of any value, built from its `Mirror`.
///
/// The same value always dumps to the same text: dictionaries are sorted by their dumped keys
/// and sets by their dumped elements. A value stays on one line while that line fits in 80
/// columns; otherwise its children go on their own lines, indented by two spaces.
///
/// ```swift
/// print(loomDump(state))
/// // Editor.State(
/// //   count: 1,
/// //   rows: [Editor.Line(id: 1, isOn: true), Editor.Line(id: 2, isOn: false)],
/// //   mode: .editing(id: 3),
/// //   error: nil
/// // )
/// ```
///
/// How values read:
/// - Structs and classes: `TypeName(label: value, …)`, the type named without its module
///   (`Feature.State`). A class met again inside itself reads `TypeName(↩︎)`.
/// - Enums: `.caseName`, `.caseName(payload)`, `.caseName(id: 3, name: "x")`.
/// - Optionals: the wrapped value, or `nil`.
/// - Strings: quoted and escaped like a literal, `"say \"hi\"\n"`.
/// - Collections: `[a, b]`, or one `[index]: element` per line; dictionaries `["k": v]`.
/// - Tuples: `(1, "a")`, `(x: 1, y: 2)`.
/// - `Date` in ISO 8601 (UTC); `UUID`, `URL`, numbers and Booleans as themselves. A type with
///   no stored properties that conforms to `CustomStringConvertible` shows its `description`,
///   as do Foundation types such as `Decimal`.
///
/// A type that conforms to `CustomReflectable` is shown through its custom mirror, so a
/// collection type with a `.collection` mirror dumps like an array.
///
/// - Parameters:
///   - value: Any value.
///   - maxDepth: How many levels of nested structs, enum payloads, tuples and collections to
///     open; deeper ones read `TypeName(…)`, `.caseName(…)` or `[…]`.
/// - Returns: The dump, without a trailing newline.
/// - Complexity: O(*n* · *d*) for a value of *n* nodes nested *d* deep. Meant for debugging
///   and test failures, not for hot paths.
public func loomDump<T>(_ value: T, maxDepth: Int = .max) -> String {
  DumpNode(reflecting: value, maxDepth: maxDepth).lines().joined(separator: "\n")
}

/// `loomDump(value)` on one line, as messages name actions: `.child(.tapped)`.
func oneLineDump<T>(_ value: T) -> String {
  loomDump(value)
    .split(separator: "\n")
    .map { $0.drop(while: { $0 == " " }) }
    .joined(separator: " ")
}
