/// Reads a dependency from the current ``DependencyValues``.
///
/// The value is read each time the property is accessed, from the dependencies of the store
/// running the reducer (or of the effect running the code), so a test's overrides apply. A
/// `Sendable` value read again from the same dependencies (a copy of them, unchanged) is the one
/// read last time, without a look-up.
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
  @usableFromInline let read: @Sendable (DependencyValues) -> Value
  /// The last value read and the ``DependencyValues/generation`` it was read from, for a
  /// `Sendable` value (a ``LastRead`` of `Value`): reading it again from the same values costs
  /// a comparison, not a key path's getter and a look-up.
  @usableFromInline let lastRead: (any AnyObject & Sendable)?

  /// Reads the dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.read = { $0[keyPath: keyPath] }
    self.lastRead = nil
  }

  /// Reads the dependency at `keyPath`, and reads it again only from changed dependencies.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) where Value: Sendable {
    self.read = { $0[keyPath: keyPath] }
    self.lastRead = LastRead<Value>()
  }

  /// Reads the dependency registered under `key`.
  ///
  /// ```swift
  /// @Dependency(FactClientKey.self) var factClient
  /// ```
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.read = { $0[Key.self] }
    self.lastRead = LastRead<Value>()
  }

  /// The dependency's current value.
  @inlinable
  public var wrappedValue: Value {
    let values = _currentDependencies()
    guard let lastRead else { return read(values) }
    // Only the initializers that require `Value: Sendable` make one, always of `Value`.
    let last = unsafeDowncast(lastRead, to: LastRead<Value>.self)
    if let value = last.value(readFrom: values.generation) { return value }
    let value = read(values)
    last.keep(value, readFrom: values.generation)
    return value
  }
}

/// A dependency's last value and the generation of the values it was read from.
///
/// `@unchecked Sendable` because `Value` is not required to be `Sendable` here (``Dependency``
/// names it for any value): only ``Dependency``'s initializers that require `Value: Sendable`
/// create one, and every access to what it keeps holds its lock.
@usableFromInline
final class LastRead<Value>: @unchecked Sendable {
  @usableFromInline let last = LockedState<(generation: UInt64, value: Value)?>(nil)

  @usableFromInline
  init() {}

  @inlinable
  func value(readFrom generation: UInt64) -> Value? {
    last.withLock { last in last?.generation == generation ? last?.value : nil }
  }

  @inlinable
  func keep(_ value: Value, readFrom generation: UInt64) {
    last.withLock { $0 = (generation, value) }
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
