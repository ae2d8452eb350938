/// What a test store needs from a root store's runtime: every processed action with its origin
/// and resulting state, the effects in flight, and a signal whenever they change.
///
/// Package access only: `LoomTesting` uses it; apps never see it.
@MainActor
package protocol StoreTestingHooks<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// Called after each action is processed with the action, where it came from (`nil` for an
  /// action sent to the store from outside), and the state it left behind.
  var didProcess: ((Action, EffectOrigin<Action>?, State) -> Void)? { get set }
  /// The dependencies the reducer and the effects it starts from now on see.
  var dependencies: DependencyValues { get set }
  /// Installs a closure called, from any thread, whenever an effect starts, finishes, suspends
  /// on a test clock or resumes.
  func setActivityHandler(_ handler: (@Sendable () -> Void)?)
  /// Where the effects in flight came from, oldest first.
  var effectsInFlight: [InFlightEffect<Action>] { get }
  /// The number of effects in flight.
  var inFlightEffectCount: Int { get }
  /// Whether no effect in flight can make progress until a test clock is advanced.
  var isIdle: Bool { get }
  /// Whether every effect in flight has begun running.
  var haveAllEffectsStarted: Bool { get }
  /// Cancels every effect in flight.
  func cancelAllEffects()
}

extension RootCore: StoreTestingHooks {
  package var didProcess: ((Action, EffectOrigin<Action>?, State) -> Void)? {
    get { storage.pointee.didProcess }
    set { storage.pointee.didProcess = newValue }
  }

  package func setActivityHandler(_ handler: (@Sendable () -> Void)?) {
    let boxed = handler.map(EffectRuntime<Action>.ActivityHandler.init)
    runtime.activityHandler.withLock { $0 = boxed }
  }

  package var effectsInFlight: [InFlightEffect<Action>] { runtime.inFlight }

  package var isIdle: Bool { runtime.isIdle }

  package var haveAllEffectsStarted: Bool { runtime.haveAllStarted }
}

extension Store {
  /// The testing hooks of a root store; `nil` for a scoped store.
  package var testingHooks: (any StoreTestingHooks<State, Action>)? {
    core as? any StoreTestingHooks<State, Action>
  }
}

extension Store {
  /// Creates a root store and returns it with its testing hooks.
  package static func withTestingHooks<R: Reducer<State, Action>>(
    initialState: State, reducer: R, dependencies: DependencyValues
  ) -> (Store, any StoreTestingHooks<State, Action>) {
    let core = RootCore(initialState: initialState, reducer: reducer, dependencies: dependencies)
    return (Store(core: core, send: { core.send($0) }), core)
  }
}

/// One effect in flight, as a test store describes it in a failure.
package struct InFlightEffect<Action: Sendable>: Sendable {
  /// The action that started it, the `.run` that created it, and the actions before.
  package let origin: EffectOrigin<Action>
  /// Whether it is suspended on a test clock, so only advancing the clock moves it on.
  package let isWaitingOnTestClock: Bool
  /// Whether it was cancelled and has not stopped yet.
  package let isCancelled: Bool
}
