/// The context in which dependencies are resolved: which default value of a key is used when no
/// value was set explicitly.
///
/// ```swift
/// let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.context = .preview
/// }
/// ```
public enum DependencyContext: Sendable, Hashable {
  /// An app running for real: keys resolve to their `liveValue`.
  case live
  /// A preview or a demo: keys resolve to their `previewValue` (the live value by default).
  case preview
  /// A test: keys resolve to their `testValue`; a key without one fails the test when used.
  case test
}
