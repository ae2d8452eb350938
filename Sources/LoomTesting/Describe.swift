import Loom

extension TestStore {
  /// A one-line description of a value for failure messages.
  func describe<T>(_ value: T) -> String {
    String(describing: value)
  }

  /// A readable diff between what the test expected and what happened.
  func diff<T>(_ expected: T, _ actual: T) -> String {
    "−\(String(describing: expected))\n+\(String(describing: actual))"
  }
}
