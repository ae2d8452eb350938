/// Reads a dependency from the current ``DependencyValues``.
///
/// The value is read each time the property is accessed, from the dependencies of the store
/// running the reducer (or of the effect running the code), so a test's overrides apply.
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.uuid) var uuid
///   @Dependency(\.continuousClock) var clock
///   // …
/// }
/// ```
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let read: @Sendable (DependencyValues) -> Value

  /// Reads the dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.read = { $0[keyPath: keyPath] }
  }

  /// Reads the dependency registered under `key`.
  ///
  /// ```swift
  /// @Dependency(FactClientKey.self) var factClient
  /// ```
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.read = { $0[Key.self] }
  }

  /// The dependency's current value.
  public var wrappedValue: Value {
    read(DependencyValues.current)
  }
}

/// Runs `operation` with changed dependencies.
///
/// ```swift
/// let id = withDependencies {
///   $0.uuid = .incrementing
/// } operation: {
///   Feature.makeRow()
/// }
/// ```
public func withDependencies<R>(
  _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  values.isPreparing = true
  try updateValuesForOperation(&values)
  values.isPreparing = false
  DependencyValues.noteBinding(values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs an asynchronous `operation` with changed dependencies.
///
/// ```swift
/// await withDependencies {
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   await model.refresh()
/// }
/// ```
nonisolated(nonsending) public func withDependencies<R>(
  _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
  operation: nonisolated(nonsending) () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  values.isPreparing = true
  try updateValuesForOperation(&values)
  values.isPreparing = false
  DependencyValues.noteBinding(values)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}
