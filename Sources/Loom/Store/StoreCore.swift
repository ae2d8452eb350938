/// The internal engine behind a public `Store`: a root core that owns the state, the reducer and
/// the effects, or a scoped core that reads and sends through a root core.
@MainActor
@usableFromInline
protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// The current state, without registering an observation.
  var currentState: State { get }
  /// A number that changes whenever the root's state may have: a scoped core may keep what it
  /// read of the state while it is the same.
  var stateVersion: UInt64 { get }
  /// Sends an action through the root reducer.
  func send(_ action: Action) -> StoreTask
  /// The root core.
  var rootCore: any RootStoreCore { get }
  /// A core for the child at `state`, whose actions are embedded with `embed`.
  func scoped<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, embed: @escaping @Sendable (ChildAction) -> Action
  ) -> any StoreCore<ChildState, ChildAction>
}

/// What every root core offers regardless of its state and action types.
@MainActor
@usableFromInline
protocol RootStoreCore: AnyObject {
  /// Adds a closure called after every batch of actions changes the state; returns a token.
  func addStateObserver(_ observer: @escaping @MainActor () -> Void) -> UInt64
  func removeStateObserver(_ token: UInt64)
  /// Cancels every in-flight effect.
  func cancelAllEffects()
  /// The number of effects in flight.
  var inFlightEffectCount: Int { get }
  /// Whether the reducer is running: in a debug build, a store read or sent to then (by a
  /// reducer that reached its store) reports it.
  var isReducing: Bool { get }
  /// Reports a store read or sent to while the reducer runs (`use`: "was read", …).
  func reportUseWhileReducing(_ use: String)
}

/// What identifies a scoped store within the store it is scoped from: the state's key path and
/// the child's action type (the store it is scoped from is the cache's owner, never an address).
@usableFromInline
struct ScopeCacheKey: Hashable {
  /// The state's key path; for a case or a row, what names it.
  @usableFromInline let path: AnyHashable
  @usableFromInline let actionType: ObjectIdentifier

  @usableFromInline
  init(keyPath: AnyKeyPath, actionType: ObjectIdentifier) {
    self.path = keyPath
    self.actionType = actionType
  }

  init(path: AnyHashable, actionType: ObjectIdentifier) {
    self.path = path
    self.actionType = actionType
  }
}

/// A store's cache of the stores scoped from it, held weakly. A store that dies drops its own
/// entry (``Store``'s `deinit`); as a safety net, dead entries are also swept when the cache has
/// grown to twice what was alive at the last sweep.
@usableFromInline
struct ScopedStores {
  @usableFromInline var stores: [ScopeCacheKey: WeakStore] = [:]
  /// The size at which the next insertion sweeps dead entries.
  @usableFromInline var sweepAt = 8

  @usableFromInline
  init() {}

  @inlinable
  var count: Int { stores.count }

  @inlinable
  func store(for key: ScopeCacheKey) -> AnyObject? {
    stores[key]?.store
  }

  mutating func remove(_ key: ScopeCacheKey) {
    stores.removeValue(forKey: key)
  }

  /// Removes the entry for `key` if its store has died (and not if a live store took the key).
  mutating func removeIfDead(_ key: ScopeCacheKey) {
    guard let entry = stores[key], entry.store == nil else { return }
    stores.removeValue(forKey: key)
  }

  @inlinable
  mutating func insert(_ store: AnyObject, for key: ScopeCacheKey) {
    if stores.count >= sweepAt {
      stores = stores.filter { $0.value.store != nil }
      sweepAt = max(8, stores.count * 2)
    }
    stores[key] = WeakStore(store: store)
  }
}

@usableFromInline
struct WeakStore {
  @usableFromInline weak var store: AnyObject?

  @usableFromInline
  init(store: AnyObject?) {
    self.store = store
  }
}

/// A store that caches the stores scoped from it: a scoped store that dies drops its entry.
@MainActor
protocol ScopedStoreOwner: AnyObject {
  func dropDeadStore(at key: ScopeCacheKey)
}

extension Store: ScopedStoreOwner {
  func dropDeadStore(at key: ScopeCacheKey) {
    scopedStores.removeIfDead(key)
  }
}
