import Synchronization

/// The collection of dependencies available to reducers and effects.
///
/// Reducers read dependencies with the ``Dependency`` property wrapper. The store that runs a
/// reducer binds its own `DependencyValues` while the reducer and its effects run, so a test
/// store's overrides reach every effect it starts.
///
/// Register a dependency by declaring a key and a computed property:
///
/// ```swift
/// private enum FactClientKey: DependencyKey {
///   static let liveValue = FactClient.live
///   static let testValue = FactClient.unimplemented
///   static let previewValue = FactClient.preview
/// }
///
/// extension DependencyValues {
///   var factClient: FactClient {
///     get { self[FactClientKey.self] }
///     set { self[FactClientKey.self] = newValue }
///   }
/// }
/// ```
public struct DependencyValues: Sendable {
  /// The dependencies of the current task. Stores bind this while they run reducers and effects.
  ///
  /// Its default value belongs to the process: values it resolves for keys are cached for the
  /// process's lifetime. Stores and test stores start from a copy with a fresh cache (test
  /// stores always), so nothing a test resolves leaks into another test.
  @TaskLocal package static var current: DependencyValues = {
    var values = DependencyValues()
    values.isProcessDefault = true
    return values
  }()

  /// Runs `operation` with `values` as the current task's dependencies (for inlinable callers,
  /// which cannot name the task-local's projection).
  @usableFromInline
  static func withCurrent<R>(_ values: DependencyValues, operation: () throws -> R) rethrows -> R {
    noteBinding(values)
    return try $current.withValue(values, operation: operation)
  }

  /// Whether any task ever bound dependencies other than the process default. Until one does,
  /// every task's current dependencies are the process default, and a store's send can tell so
  /// without reading the task-local (which copies the whole value, ~10 ns of a 40 ns send).
  ///
  /// Every binding of `current` calls ``noteBinding(_:)`` first. A task that inherits a binding
  /// was created after it, so it sees the flag set.
  static let hasBeenOverridden = Atomic<Bool>(false)

  /// Records that `values` is about to be bound, if it is not the process default.
  static func noteBinding(_ values: DependencyValues) {
    if !values.isProcessDefault, !hasBeenOverridden.load(ordering: .relaxed) {
      hasBeenOverridden.store(true, ordering: .releasing)
    }
  }

  /// Values set explicitly for dependency keys, by the key type's identity.
  var storage: [ObjectIdentifier: any DependencyBox] = [:] {
    didSet { didChange() }
  }

  /// Default values resolved so far, shared by the copies of one set of dependencies.
  var cache = DependencyCache() {
    didSet { didChange() }
  }

  /// A number that names these values: copies share it, and every change gives a new one, so a
  /// reader that resolved a dependency from values with this number may reuse what it read
  /// (``Dependency`` does). What the shared ``cache`` resolves later does not change it: a
  /// default, once resolved, stays.
  @usableFromInline package private(set) var generation = DependencyValues.newGeneration()

  private static let generations = Atomic<UInt64>(0)

  /// While a ``Dependency`` reads through its key path for the first time, the types of the
  /// dependencies the read looks up, in order (see ``Dependency/wrappedValue``).
  @TaskLocal static var probe: LockedState<[ObjectIdentifier]>?
  /// How many probes are under way, in any task: while none is, a look-up does not read the
  /// task-local.
  static let probes = Atomic<Int>(0)

  /// Runs `read`, noting the types of the dependencies it looks up.
  static func probing<Value>(_ read: () -> Value) -> (Value, [ObjectIdentifier]) {
    let noted = LockedState<[ObjectIdentifier]>([])
    probes.add(1, ordering: .relaxed)
    defer { probes.subtract(1, ordering: .relaxed) }
    let value = $probe.withValue(noted) { read() }
    return (value, noted.withLock { $0 })
  }

  private static func newGeneration() -> UInt64 {
    generations.wrappingAdd(1, ordering: .relaxed).newValue
  }

  private mutating func didChange() {
    isProcessDefault = false
    generation = Self.newGeneration()
  }

  /// Whether these are the untouched default dependencies of the process. A store whose
  /// dependencies are the process default need not bind them while the current ones are too.
  @usableFromInline var isProcessDefault = false

  /// Where runtime issues go. See ``IssueReporter``.
  public var issueReporter: IssueReporter = .standardError {
    didSet { didChange() }
  }

  /// The context dependencies are resolved in: which of a key's default values is used.
  public var context: DependencyContext = .live {
    didSet { didChange() }
  }

  /// Whether the values are being prepared (inside a `withDependencies` closure or a test
  /// store's overrides). Reading a dependency to change part of it then neither reports a
  /// missing test value nor caches the default.
  package var isPreparing = false {
    didSet { generation = Self.newGeneration() }
  }

  /// Creates an empty set of dependencies in which every key resolves to its live value.
  public init() {}

  /// The value of a dependency: the one set explicitly, or else the key's default for the
  /// current ``context``.
  ///
  /// ```swift
  /// values[FactClientKey.self] = .mock
  /// ```
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if Self.probes.load(ordering: .relaxed) > 0, let probe = Self.probe {
        probe.withLock { $0.append(ObjectIdentifier(Key.Value.self)) }
      }
      if let box = storage[ObjectIdentifier(key)] as? Boxed<Key.Value> {
        return box.value
      }
      return cache.value(
        for: key, context: context, reporter: isPreparing ? nil : issueReporter)
    }
    set {
      storage[ObjectIdentifier(key)] = Boxed(newValue)
    }
  }

  /// Gives these dependencies a fresh cache, so default values are resolved anew.
  ///
  /// The test store calls it so that nothing one test resolved leaks into another.
  package mutating func resetCache() {
    cache = DependencyCache()
  }
}

/// The default values resolved for dependency keys, computed once per cache.
///
/// A stateful live value (a client with a connection pool, a cache) is shared by every reducer
/// and effect of the store that resolved it.
final class DependencyCache: Sendable {
  private struct Entry: Sendable {
    let context: DependencyContext
    let value: any DependencyBox
  }

  private let entries = LockedState<[ObjectIdentifier: Entry]>([:])

  /// The default value of `key`. With no `reporter` (dependencies being prepared) a missing
  /// test value is not reported and nothing is cached.
  func value<Key: DependencyKey>(
    for key: Key.Type, context: DependencyContext, reporter: IssueReporter?
  ) -> Key.Value {
    let id = ObjectIdentifier(key)
    if let entry = entries.withLock({ $0[id] }), entry.context == context,
      let box = entry.value as? Boxed<Key.Value>
    {
      return box.value
    }
    // Resolve outside the lock: a default value may itself read other dependencies.
    let value: Key.Value
    switch context {
    case .live:
      value = Key.liveValue
    case .preview:
      value = Key.previewValue
    case .test:
      guard let reporter else {
        return DependencyValues.$resolvingTestValueReporter.withValue(.silent) { Key.testValue }
      }
      value = DependencyValues.$resolvingTestValueReporter.withValue(reporter) {
        Key.testValue
      }
    }
    return entries.withLock { entries in
      if let entry = entries[id], entry.context == context,
        let existing = entry.value as? Boxed<Key.Value>
      {
        return existing.value
      }
      entries[id] = Entry(context: context, value: Boxed(value))
      return value
    }
  }
}

/// A dependency's value, kept in a box of its own type: reading it back is a class cast, which
/// costs a comparison, where a cast from `any Sendable` to a value type like
/// `any Clock<Duration>` costs ~11,000 instructions (the run time demangles the constraint
/// at every cast).
protocol DependencyBox: AnyObject, Sendable {}

final class Boxed<Value: Sendable>: DependencyBox {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

extension DependencyValues {
  /// The reporter of the dependencies whose test value is being resolved, so the default
  /// `testValue` can report a missing test value through it.
  @TaskLocal static var resolvingTestValueReporter: IssueReporter?
}
