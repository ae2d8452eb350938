/// The internal engine behind a public `Store`: a root core that owns the state, the reducer and
/// the effects, or a scoped core that reads and sends through a root core.
@MainActor
@usableFromInline
protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// The current state, without registering an observation.
  var currentState: State { get }
  /// Registers an observation of the state with the root's registrar.
  func registerAccess()
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
  /// Caches scoped stores weakly by their path.
  var scopedStores: [ScopeCacheKey: WeakStore] { get set }
  /// Cancels every in-flight effect.
  func cancelAllEffects()
  /// The number of effects in flight.
  var inFlightEffectCount: Int { get }
}

@usableFromInline
struct ScopeCacheKey: Hashable {
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline let actionType: ObjectIdentifier
  @usableFromInline let parent: ObjectIdentifier

  @usableFromInline
  init(keyPath: AnyKeyPath, actionType: ObjectIdentifier, parent: ObjectIdentifier) {
    self.keyPath = keyPath
    self.actionType = actionType
    self.parent = parent
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
