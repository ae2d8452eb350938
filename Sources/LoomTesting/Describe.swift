import Loom

extension TestStore {
  /// A one-line description of a value for failure messages.
  func describe<T>(_ value: T) -> String {
    loomDump(value)
      .split(separator: "\n")
      .map { $0.drop(while: { $0 == " " }) }
      .joined(separator: " ")
  }

  /// A minimal readable diff between what the test expected and what happened.
  func diff<T>(_ expected: T, _ actual: T) -> String {
    loomDiff(expected, actual, format: .testStore)
      ?? "(the values differ only in ways their dump does not show)"
  }
}
