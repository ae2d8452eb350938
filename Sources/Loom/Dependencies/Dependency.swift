import Foundation

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
  /// For a `Sendable` value, a `LastRead` of `Value`: the last value read and the
  /// `DependencyValues.generation` it was read from, kept when the key path ends at a
  /// dependency (see ``wrappedValue``).
  @usableFromInline let lastRead: (any AnyObject & Sendable)?

  /// Reads the dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.read = { $0[keyPath: keyPath] }
    self.lastRead = nil
  }

  /// Reads the dependency at `keyPath`; when the key path ends at a dependency, only changed
  /// dependencies are read again.
  @inlinable
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) where Value: Sendable {
    self.read = { $0[keyPath: keyPath] }
    self.lastRead = LastRead<Value>(endsAtKey: nil, keyPath: keyPath)
  }

  /// Reads the dependency registered under `key`.
  ///
  /// ```swift
  /// @Dependency(FactClientKey.self) var factClient
  /// ```
  @inlinable
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.read = { $0[Key.self] }
    self.lastRead = LastRead<Value>(endsAtKey: true, keyPath: nil)
  }

  /// The dependency's current value.
  ///
  /// A key path that ends at a dependency (a property of `DependencyValues` that returns
  /// `self[Key.self]`, as `\.uuid` does) gives the same value for the same dependencies: the
  /// value read last is kept with the dependencies' `DependencyValues.generation` and given
  /// again while it is unchanged. Any other key path (`\.date.now`, one through a computed
  /// value) is applied on every read. The first read of a key path in the process tells which:
  /// it notes the dependencies the key path reads (`DependencyValues.probe`), and every
  /// `@Dependency` of that key path made later knows it.
  @inlinable
  public var wrappedValue: Value {
    let values = _currentDependencies()
    guard let lastRead else { return read(values) }
    // Only the initializers that require `Value: Sendable` make one, always of `Value`.
    let last = unsafeDowncast(lastRead, to: LastRead<Value>.self)
    switch last.value(readFrom: values.generation) {
    case .kept(let value):
      return value
    case .readAgain:
      let value = read(values)
      last.keep(value, readFrom: values.generation)
      return value
    case .alwaysRead:
      return read(values)
    case .unknown:
      return last.probe(read, in: values)
    }
  }
}

/// What a dependency keeps of its last read.
///
/// `@unchecked Sendable` because `Value` is not required to be `Sendable` here (``Dependency``
/// names it for any value), and its fields are mutable: only ``Dependency``'s initializers that
/// require `Value: Sendable` create one, and every access to `endsAtKey` and `last` holds
/// `lock`.
@usableFromInline
final class LastRead<Value>: @unchecked Sendable {
  /// Held for every read and write of `endsAtKey` and `last`.
  @usableFromInline let lock = NSLock()
  /// Whether the key path ends at a dependency; `nil` until the first read tells.
  @usableFromInline var endsAtKey: Bool?
  @usableFromInline var last: (generation: UInt64, value: Value)?
  /// The key path read, when what it ends at is to be found out (`endsAtKey` starts `nil`).
  @usableFromInline let keyPath: AnyKeyPath?

  @usableFromInline
  enum Read {
    case kept(Value), readAgain, alwaysRead, unknown
  }

  /// Specialized where it is called (a reducer's `@Dependency` is made each time the reducer
  /// is, in its parent's `body`): made generically, its metadata lookups and the allocations
  /// of a separate lock box cost ~2,700 instructions a property.
  @inlinable
  init(endsAtKey: Bool?, keyPath: AnyKeyPath?) {
    self.endsAtKey = endsAtKey
    self.keyPath = keyPath
  }

  @inlinable
  func value(readFrom generation: UInt64) -> Read {
    lock.lock()
    defer { lock.unlock() }
    switch endsAtKey {
    case nil: return .unknown
    case false?: return .alwaysRead
    case true?:
      if let last, last.generation == generation { return .kept(last.value) }
      return .readAgain
    }
  }

  @inlinable
  func keep(_ value: Value, readFrom generation: UInt64) {
    lock.lock()
    defer { lock.unlock() }
    last = (generation, value)
  }

  /// The first read: applies the key path noting the dependencies it reads, and keeps the value
  /// when it read one dependency, of the value's type (the key path ends at it). What a key path
  /// ends at is found out once per process (a reducer's `@Dependency` is made anew with the
  /// reducer, at every action of a child in its parent's `body`, and probing costs ~2,000
  /// instructions more than a read); inlinable, so that a reader made anew pays for a read and a
  /// look-up only.
  @inlinable
  func probe(
    _ read: @Sendable (DependencyValues) -> Value, in values: DependencyValues
  ) -> Value {
    let value: Value
    let endsAtKey: Bool
    if let keyPath, let known = knownEnd(of: keyPath) {
      (value, endsAtKey) = (read(values), known)
    } else {
      (value, endsAtKey) = probeFirst(read, in: values)
    }
    lock.lock()
    defer { lock.unlock() }
    self.endsAtKey = endsAtKey
    if endsAtKey { last = (values.generation, value) }
    return value
  }

  @usableFromInline
  func probeFirst(
    _ read: @Sendable (DependencyValues) -> Value, in values: DependencyValues
  ) -> (Value, endsAtKey: Bool) {
    let (value, readTypes) = DependencyValues.probing { read(values) }
    let endsAtKey = readTypes == [ObjectIdentifier(Value.self)]
    if let keyPath { remember(endsAtKey, for: keyPath) }
    return (value, endsAtKey)
  }
}

/// Whether the key path a `@Dependency` read ends at a dependency, once a reader of the same key
/// path object found out; `nil` until then.
@usableFromInline
func knownEnd(of keyPath: AnyKeyPath) -> Bool? {
  keyPathEnds.withLock { ends in
    ends[ObjectIdentifier(keyPath)].flatMap { $0.keyPath === keyPath ? $0.endsAtKey : nil }
  }
}

/// Remembers what `keyPath` ends at, while fewer than `keyPathEndsLimit` key paths are.
func remember(_ endsAtKey: Bool, for keyPath: AnyKeyPath) {
  keyPathEnds.withLock { ends in
    guard ends.count < keyPathEndsLimit else { return }
    ends[ObjectIdentifier(keyPath)] = (keyPath, endsAtKey)
  }
}

/// What each key path object a `@Dependency` read ends at, by the object's identity (hashing a
/// key path's components cost more than the rest of the look-up). An entry holds its key path,
/// so no other key path can take its address. A key path literal is one object for the life of
/// the process, so the entries are as many as the program's `@Dependency` declarations; key
/// paths made at run time, each an object of its own, stop being remembered at the limit (and
/// are probed at each first read). No values are held.
private let keyPathEnds = LockedState<[ObjectIdentifier: (keyPath: AnyKeyPath, endsAtKey: Bool)]>(
  [:])
private let keyPathEndsLimit = 1_024

/// How many key paths' ends are remembered (for tests of the limit).
package func rememberedKeyPathEndCount() -> Int {
  keyPathEnds.withLock { $0.count }
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
