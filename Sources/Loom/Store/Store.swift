import Observation

/// The runtime of a feature: holds its state, runs its reducer for every action it is sent, and
/// runs the effects the reducer returns.
///
/// App shells create one root store and observe it. The store is `Observable`, value by value:
/// a SwiftUI view or a `withObservationTracking` scope that reads `store.count` is told when
/// `count` changes, and not when anything else does (an `Equatable` value counts as changed when
/// it differs from the value read; any other value, whenever the store processes an action).
/// A scoped store's readers are told only of changes to what they read through it, and a row
/// store's only when its row was written. Shells that are not SwiftUI, such as a command-line
/// tool, iterate `states`.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.incrementTapped)
/// print(store.state.count)  // 1
/// ```
///
/// Actions are processed one at a time, in the order they are sent; an action sent while
/// another is being processed (from an observer, or by a `.send` effect) is queued, never
/// processed re-entrantly. Releasing the last reference to a root store cancels its effects.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  @usableFromInline let core: any StoreCore<State, Action>
  /// The send path, specialized for the root reducer in the module that created the store.
  @usableFromInline let sendAction: @MainActor (Action) -> StoreTask
  /// The stores scoped from this one that are alive, by their path: they leave with this store,
  /// and a store that dies takes its entry with it.
  @usableFromInline var scopedStores = ScopedStores()
  /// Where this store is in its parent's cache, for a scoped store: the entry leaves with it.
  @usableFromInline var cacheKey: ScopeCacheKey?
  /// The store this one was scoped from, kept while this one lives: a scope of a scope made
  /// through a store nobody else holds (`a.scope(…).scope(…)`) finds its cached stores again.
  @usableFromInline let parent: AnyObject?
  /// What the store's readers read (made at the first read).
  var _observation: StoreObservation<State>?
  /// Attaches the store's observation to where it is checked, when the default (its parent, or
  /// the root core) is not it: a row store's is attached to its parent by id.
  var attachObservation: ((StoreObservation<State>) -> Void)?
  /// Gives a row's store its row as the check of its parent's observation read it.
  var rememberState: ((State) -> Void)?

  /// Creates a root store.
  ///
  /// ```swift
  /// let store = Store(initialState: Feature.State()) {
  ///   Feature()
  /// } withDependencies: {
  ///   $0.uuid = .incrementing
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start with.
  ///   - reducer: The reducer that runs for every action.
  ///   - prepareDependencies: Changes the dependencies the reducer and its effects see. The store
  ///     starts from the dependencies of the context that creates it.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    var dependencies = _currentDependencies()
    if let prepareDependencies {
      _prepare(&dependencies, with: prepareDependencies)
    }
    let core = RootCore(
      initialState: initialState, reducer: reducer(), dependencies: dependencies)
    self.init(core: core, send: { core.send($0) })
  }

  @usableFromInline
  init(
    core: any StoreCore<State, Action>, send: @escaping @MainActor (Action) -> StoreTask,
    parent: AnyObject? = nil
  ) {
    self.core = core
    self.sendAction = send
    self.parent = parent
  }

  isolated deinit {
    // The parent is still held (by this store): its entry for this store leaves now, unless a
    // store of a part there since took the key.
    if let cacheKey, let parent = parent as? any ScopedStoreOwner {
      parent.dropDeadStore(at: cacheKey)
    }
  }

  /// The current state. Reading it inside an observation-tracking scope (a SwiftUI view body,
  /// `withObservationTracking`) registers interest in any change to it; read a field
  /// (`store.count`) to be told of that field's changes only.
  public var state: State {
    #if DEBUG
      checkNotReducing()
    #endif
    let observation = observation
    observation.access(observation.wholeState)
    return core.currentState
  }

  /// Registers a read of the value at `keyPath`, and returns it.
  @usableFromInline
  func read<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
    #if DEBUG
      checkNotReducing()
    #endif
    observation.access(keyPath)
    return core.currentState[keyPath: keyPath]
  }

  /// Reports a read while the root's reducer runs (debug builds only).
  func checkNotReducing() {
    let root = core.rootCore
    if root.isReducing { root.reportUseWhileReducing("was read") }
  }

  /// What the store's readers read, made at the first read.
  var observation: StoreObservation<State> {
    if let observation = _observation { return observation }
    let attach: (StoreObservation<State>) -> Void
    if let attachObservation {
      attach = attachObservation
    } else if let parent = parent as? any ObservationParent {
      attach = { [weak parent] in parent?.attach(part: $0) }
    } else {
      let root = core.rootCore as? any ObservationRoot
      attach = { [weak root] in root?.observe($0) }
    }
    let core = core
    let observation = StoreObservation(
      store: self, currentState: { core.currentState }, remember: rememberState, attach: attach)
    _observation = observation
    return observation
  }

  /// Sends an action to the store.
  ///
  /// The reducer runs at once (or, if the store is already processing an action, right after
  /// it). The returned task tracks the effects the action starts, and the effects that the
  /// actions they send start in turn.
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// ```
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendAction(action)
  }

  /// Sends the action a case path embeds `value` in: a chain reaches a child's action.
  ///
  /// ```swift
  /// store.send(.detail.textChanged, "Hi")   // sends .detail(.textChanged("Hi"))
  /// ```
  @inlinable
  @discardableResult
  public func send<Value>(_ casePath: CasePath<Action, Value>, _ value: Value) -> StoreTask {
    sendAction(casePath.embed(value))
  }

  /// Returns a store for a child feature, whose state is read from this store's state and whose
  /// actions are sent through this store's reducer.
  ///
  /// Scoped stores are cached by the store they are scoped from: scoping the same key path twice
  /// returns the same store while it is alive. The cache is keyed by the state key path and the
  /// child action type, so use one case path per state key path.
  ///
  /// ```swift
  /// let counterStore = appStore.scope(state: \.counter, action: .counter)
  /// counterStore.send(.incrementTapped)
  /// ```
  ///
  /// - Complexity: O(1) to send, however deep the child: nested scopes point at the root.
  @inlinable
  public func scope<ChildState, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let key = ScopeCacheKey(keyPath: toChildState, actionType: ObjectIdentifier(ChildAction.self))
    if let cached = scopedStores.store(for: key) as? Store<ChildState, ChildAction> {
      return cached
    }
    let embed = toChildAction._embed
    let parentSend = sendAction
    let child = Store<ChildState, ChildAction>(
      core: core.scoped(state: toChildState, embed: embed),
      send: { parentSend(embed($0)) }, parent: self)
    child.cacheKey = key
    scopedStores.insert(child, for: key)
    return child
  }

  /// Cancels every effect the store (its root, for a scoped store) has in flight.
  public func cancelAll() {
    core.rootCore.cancelAllEffects()
  }
}

extension Store {
  /// The number of effects the root store has in flight. For tests of the runtime's bookkeeping.
  package var inFlightEffectCount: Int {
    core.rootCore.inFlightEffectCount
  }

  /// How many watches of values its readers read this store keeps. For tests of their bounds.
  package var watchCount: Int {
    _observation?.watches.count ?? 0
  }

  /// How many scoped stores this store's cache holds. For tests of the cache's bounds.
  package var scopeCacheCount: Int {
    scopedStores.count
  }
}

/// The store of a reducer's state and action: what a view holds.
///
/// ```swift
/// let store: StoreOf<Counter> = Store(initialState: Counter.State()) { Counter() }
/// ```
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
