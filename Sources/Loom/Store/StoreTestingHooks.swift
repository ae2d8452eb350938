/// What a test store needs from a root store's runtime: every processed action with its origin
/// and resulting state, the effects in flight, and a signal whenever they change.
///
/// The effect bookkeeping is read and changed under the runtime's lock, so those members are
/// `nonisolated`: a test store checks its effects at the end of a test from a deinit that may run
/// off the main actor.
///
/// Package access only: `LoomTesting` uses it; apps never see it.
@MainActor @usableFromInline
package protocol StoreTestingHooks<State, Action>: AnyObject, Sendable {
  associatedtype State
  associatedtype Action: Sendable

  /// Called after each action is processed with the action, where it came from (`nil` for an
  /// action sent to the store from outside), and the state it left behind.
  var didProcess: ((Action, EffectOrigin<Action>?, State) -> Void)? { get set }
  /// The dependencies the reducer and the effects it starts from now on see.
  var dependencies: DependencyValues { get set }
  /// Installs a closure called, from any thread, whenever an effect starts, finishes, suspends
  /// on something only the test moves, or resumes.
  nonisolated func setActivityHandler(_ handler: (@Sendable () -> Void)?)
  /// Where the effects in flight came from, oldest first.
  nonisolated var effectsInFlight: [InFlightEffect<Action>] { get }
  /// The number of effects in flight.
  nonisolated var inFlightEffectCount: Int { get }
  /// The number of effects in flight that may still send something: all but open throttle
  /// windows, which only hold back (what one holds back is an effect of its own).
  nonisolated var inFlightWorkCount: Int { get }
  /// Whether no effect in flight can make progress until the test acts (advances a test clock,
  /// yields to a test stream, resumes a test continuation).
  nonisolated var isIdle: Bool { get }
  /// Whether every effect in flight has begun running.
  nonisolated var haveAllEffectsStarted: Bool { get }
  /// Cancels every effect in flight.
  nonisolated func cancelAllEffects()
}

extension RootCore: StoreTestingHooks {
  @usableFromInline package var didProcess: ((Action, EffectOrigin<Action>?, State) -> Void)? {
    get { storage.pointee.didProcess }
    set { storage.pointee.didProcess = newValue }
  }

  @usableFromInline package nonisolated func setActivityHandler(_ handler: (@Sendable () -> Void)?) {
    registry.setActivityHandler(handler)
  }

  @usableFromInline package nonisolated var effectsInFlight: [InFlightEffect<Action>] { registry.inFlight }

  @usableFromInline package nonisolated var inFlightWorkCount: Int { registry.workCount }

  @usableFromInline package nonisolated var isIdle: Bool { registry.isIdle }

  @usableFromInline package nonisolated var haveAllEffectsStarted: Bool { registry.haveAllStarted }
}

extension Store {
  /// The testing hooks of a root store; `nil` for a scoped store.
  package var testingHooks: (any StoreTestingHooks<State, Action>)? {
    core as? any StoreTestingHooks<State, Action>
  }
}

extension Store {
  /// Creates a root store and returns it with its testing hooks.
  ///
  /// Inlinable, so that a test store made where the reducer's type is known (`TestStore`'s
  /// initializer is inlinable too) sends through a store specialized for it: made inside
  /// `LoomTesting`, generically, the whole runtime ran unspecialized under a test store
  /// (~30,000 instructions per action, not ~200).
  @inlinable
  package static func withTestingHooks<R: Reducer<State, Action>>(
    initialState: State, reducer: R, dependencies: DependencyValues
  ) -> (Store, any StoreTestingHooks<State, Action>) {
    let core = RootCore(initialState: initialState, reducer: reducer, dependencies: dependencies)
    core.storage.pointee.tracksProvenance = true
    return (Store(core: core, send: { core.send($0) }), core)
  }
}

/// One effect in flight, as a test store describes it in a failure.
@usableFromInline package struct InFlightEffect<Action: Sendable>: Sendable {
  /// The action that started it, the `.run` that created it, and the actions before.
  package let origin: EffectOrigin<Action>
  /// What it is suspended on, when only the test can move it on: a test clock, stream or
  /// continuation.
  package let waitingOn: SuspensionReason?
  /// Whether it was cancelled and has not stopped yet.
  package let isCancelled: Bool
  /// Identifies the `send` (from outside the store) whose action led to this effect, directly or
  /// through actions effects sent; equal to that send's ``StoreTask/id``.
  package let sendID: ObjectIdentifier
  /// Whether it is an open throttle window, which sends nothing itself (what it holds back is
  /// an effect of its own).
  package let isThrottleWindow: Bool
}
