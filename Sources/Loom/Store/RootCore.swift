import Observation

/// Work that waits until every action queued in the batch being processed has been processed.
///
/// Not nested in the generic `RootCore`: a nested type is generic too, and every append to an
/// array of it looked up its metadata at run time.
@usableFromInline
enum BatchEnd {
  /// An effect that ran to completion during the batch (an effect starts in place, so one that
  /// never suspends finishes before its reducer's batch does). It stays registered until the
  /// batch ends, so a cancel later in the batch still finds it and drops the actions it queued.
  case finished(UInt64)
  /// A concatenation whose running step sent actions that are still queued: whether the step
  /// has finished can be told once they have been processed (and have started their effects).
  case advance(UInt64)
}

/// The core of a root store: owns the state, the reducer, the dependencies, the queue of actions
/// waiting to be processed and the registry of in-flight effects.
///
/// Invariants:
/// - Actions are processed one at a time, on the main actor, in the order they arrive. An action
///   sent while another is being processed (by a `.send` effect or an observer) waits in `queue`;
///   the reducer is never re-entered.
/// - Every effect that is not `.none` is registered in `registry` before its task exists and
///   removed when the task ends, so the registry always lists exactly the effects in flight.
///
/// The send path is `@inlinable` so that it is specialized for the app's reducer in the app's
/// module: a send of an action that returns `.none` makes no allocation and no dynamic call.
@MainActor
@usableFromInline
final class RootCore<R: Reducer>: StoreCore, RootStoreCore, Observable {
  @usableFromInline typealias State = R.State
  @usableFromInline typealias Action = R.Action

  @usableFromInline
  struct Queued {
    @usableFromInline let action: Action
    @usableFromInline var group: EffectGroup?
    /// Boxed (and only a test store gives queued actions an origin, only a child's `.send` a
    /// path): inline, they made every queued action large and its destruction a call through
    /// the value witness table.
    @usableFromInline let extras: Extras?
    /// The effect that sent the action, so it can be dropped if that effect is cancelled
    /// before the action is processed.
    @usableFromInline let effectID: UInt64?

    @inlinable
    init(
      action: Action, group: EffectGroup?, origin: EffectOrigin<Action>?,
      effectID: UInt64? = nil, childPath: ReducerPath? = nil, holdsGroup: Bool = false
    ) {
      self.action = action
      self.group = group
      if origin != nil || childPath != nil || holdsGroup {
        self.extras = Extras(origin: origin, childPath: childPath, holdsGroup: holdsGroup)
      } else {
        self.extras = nil
      }
      self.effectID = effectID
    }

    @inlinable
    var origin: EffectOrigin<Action>? { extras?.origin }
  }

  /// What few queued actions carry.
  @usableFromInline
  final class Extras {
    /// Where the action came from, for a test store.
    @usableFromInline let origin: EffectOrigin<Action>?
    /// For an action a child's `.send` queued, the part of the child's reducer path the root
    /// checks (see `ReducerPath.checkedPrefix`): the action is dropped if that part has ended
    /// when its turn comes (an ancestor ended it in the same batch).
    @usableFromInline let childPath: ReducerPath?
    /// Whether the action counts in its group until it is processed: an action sent to the
    /// store from outside while it processes a batch, whose task would otherwise be finished
    /// before the action had started anything.
    @usableFromInline let holdsGroup: Bool

    @inlinable
    init(origin: EffectOrigin<Action>?, childPath: ReducerPath?, holdsGroup: Bool) {
      self.origin = origin
      self.childPath = childPath
      self.holdsGroup = holdsGroup
    }
  }

  /// The mutable state of the core, kept behind a pointer.
  ///
  /// Stored properties of a class are checked for exclusive access at run time on every access,
  /// which alone cost about 70 ns per send. Memory reached through a pointer is not checked.
  /// This is safe because `RootCore` is main-actor isolated and every access to `storage`
  /// happens synchronously on the main actor: the reducer receives `state` in place and has no
  /// way to reach the store, and observers are called only between mutations, never during one.
  @usableFromInline
  struct Storage: ~Copyable {
    @usableFromInline var queue = ActionQueue<Queued>()
    @usableFromInline var isSending = false
    /// Whether the reducer is running (kept in debug builds only; see `RootStoreCore`).
    @usableFromInline var isReducing = false
    /// Counts the reducer's runs (see `StoreCore.stateVersion`).
    @usableFromInline var stateVersion: UInt64 = 0
    /// Whether a store's observation has armed watches: then each batch ends by checking them.
    @usableFromInline var isObserved = false
    @usableFromInline var stateObservers: [UInt64: @MainActor () -> Void] = [:]
    @usableFromInline var nextObserverToken: UInt64 = 0
    @usableFromInline var didProcess: ((Action, EffectOrigin<Action>?, State) -> Void)?
    @usableFromInline var dependencies: DependencyValues {
      didSet { usesProcessDefaultDependencies = dependencies.isProcessDefault }
    }
    @usableFromInline var usesProcessDefaultDependencies: Bool
    @usableFromInline var currentOrigin: EffectOrigin<Action>?
    /// Whether origins are linked into chains and given to actions sent by `.send`: only when a
    /// test store watches the store, since nothing else reads them.
    @usableFromInline var tracksProvenance = false
    /// Whether the actions effects send keep their origins: when a test store watches, and in
    /// a debug build, whose runtime issues name an action's sender (see ``ActionSource``). A
    /// kept origin is linked into a chain only when provenance is tracked.
    @usableFromInline var keepsOrigins: Bool {
      #if DEBUG
        true
      #else
        tracksProvenance
      #endif
    }
    /// Effects cancelled while actions they sent were waiting in `queue`.
    @usableFromInline var cancelledWhileQueued: Set<UInt64> = []
    /// What waits for the end of the batch being processed (see ``BatchEnd``).
    @usableFromInline var atBatchEnd: [BatchEnd] = []
    /// The `.concatenate` effects in flight, by their id in the registry.
    @usableFromInline var concatenations: [UInt64: Concatenation] = [:]

    @usableFromInline
    init(dependencies: DependencyValues) {
      self.dependencies = dependencies
      self.usesProcessDefaultDependencies = dependencies.isProcessDefault
    }
  }

  /// A `.concatenate` in flight: the steps not started yet and the group of the running one.
  ///
  /// It has no task. The store starts the first step when the effect starts and each next step
  /// when the effects of the running one have all finished (`EffectInterpreter`'s
  /// `advanceConcatenation(_:)`), on the main actor, in the turn that finished them.
  @usableFromInline
  struct Concatenation {
    @usableFromInline var remaining: ArraySlice<Effect<Action>>
    /// The group of the running step: its effects, and the effects of the actions they send.
    @usableFromInline var step: EffectGroup?
    /// Whether a step is being started. Its effects may finish before `start` returns; the loop
    /// that started it then moves on, not their completion.
    @usableFromInline var isStarting = false
    /// Where the steps start: the concatenation's group, path, keys, dependencies (resolved)
    /// and the action that returned it.
    @usableFromInline let context: EffectContext<Action>

    @inlinable
    init(steps: [Effect<Action>], context: EffectContext<Action>) {
      self.remaining = steps[...]
      self.context = context
    }
  }

  @usableFromInline let storage: UnsafeMutablePointer<Storage>
  /// The state, apart from `storage`: then no field of either has an offset that depends on
  /// `State`, so code that runs unspecialized (a scoped store reading the state or its version
  /// through `any StoreCore`) reaches them without looking up `Storage`'s metadata (~300
  /// instructions a read).
  @usableFromInline let statePointer: UnsafeMutablePointer<State>
  @usableFromInline let reducer: R
  @usableFromInline let registry = EffectRegistry<Action>()
  /// The root store's observation, while it has armed watches (see `ObservedPart`).
  weak var observation: (any ObservedPart)?
  /// The buffer `checkObservation` collects changes in, kept between checks.
  var spareChanges: [WatchChange] = []

  @usableFromInline
  init(initialState: State, reducer: R, dependencies: DependencyValues) {
    self.storage = .allocate(capacity: 1)
    self.storage.initialize(to: Storage(dependencies: dependencies))
    self.statePointer = .allocate(capacity: 1)
    self.statePointer.initialize(to: initialState)
    self.reducer = reducer
  }

  isolated deinit {
    registry.cancelAll()
    // Actions still queued will never be processed: their tasks end.
    while let queued = storage.pointee.queue.popFirst() {
      if queued.extras?.holdsGroup == true { _ = queued.group?.leave() }
    }
    storage.pointee.queue.deallocate()
    storage.deinitialize(count: 1)
    storage.deallocate()
    statePointer.deinitialize(count: 1)
    statePointer.deallocate()
  }

  /// The state. Reading it does not register an observation.
  @usableFromInline
  var state: State {
    get { statePointer.pointee }
    set {
      statePointer.pointee = newValue
      storage.pointee.stateVersion &+= 1
    }
  }

  /// The dependencies the reducer and the effects it starts from now on see.
  @usableFromInline package var dependencies: DependencyValues {
    get { storage.pointee.dependencies }
    set { storage.pointee.dependencies = newValue }
  }

  @usableFromInline
  var currentState: State { statePointer.pointee }
  @usableFromInline
  var stateVersion: UInt64 { storage.pointee.stateVersion }
  @usableFromInline
  var rootCore: any RootStoreCore { self }

  @usableFromInline
  nonisolated func cancelAllEffects() {
    registry.cancelAll()
  }

  @usableFromInline
  nonisolated var inFlightEffectCount: Int { registry.count }

  @usableFromInline
  var isReducing: Bool { storage.pointee.isReducing }

  /// Reports a store read or sent to while its reducer runs (debug builds only).
  @usableFromInline
  func reportUseWhileReducing(_ use: String) {
    reportIssue(
      """
      A store \(use) while its reducer was running. A reducer changes the state it is given \
      and returns effects: it never reads its store or sends to it (return .send(action) to \
      send one after this one).
      """)
  }

  // MARK: Sending

  @inlinable
  func send(_ action: Action) -> StoreTask {
    send(action, group: nil, origin: nil)
  }

  @inlinable
  func send(
    _ action: Action, group existingGroup: EffectGroup?, origin: EffectOrigin<Action>?,
    effectID: UInt64? = nil
  ) -> StoreTask {
    if storage.pointee.isSending {
      #if DEBUG
        if storage.pointee.isReducing { reportUseWhileReducing("was sent \(action)") }
      #endif
      guard let existingGroup else {
        // Sent from outside (a view, or a client an effect called in place): the action counts
        // in its task until it is processed.
        let group = EffectGroup()
        group.enter()
        storage.pointee.queue.append(
          Queued(action: action, group: group, origin: origin, holdsGroup: true))
        return makeTask(group)
      }
      storage.pointee.queue.append(
        Queued(action: action, group: existingGroup, origin: origin, effectID: effectID))
      return makeTask(existingGroup)
    }
    storage.pointee.isSending = true
    var group = existingGroup
    // Binding a task-local costs tens of nanoseconds; when both the store's dependencies and
    // the current ones are the untouched process default, binding would change nothing.
    if storage.pointee.usesProcessDefaultDependencies, _currentDependenciesAreProcessDefault() {
      processAll(action, group: &group, origin: origin)
    } else {
      _withDependencies(storage.pointee.dependencies) {
        processAll(action, group: &group, origin: origin)
      }
    }
    storage.pointee.isSending = false
    if !storage.pointee.stateObservers.isEmpty { notifyStateObservers() }
    // Readers are told after the batch, not while sending: what they send is processed then,
    // as a batch of its own (after this one's state was handed to the state observers).
    if storage.pointee.isObserved { checkObservation() }
    return makeTask(group)
  }

  /// Processes `action`, then every action queued while processing, in order.
  ///
  /// Always inlined into `send`, with the queue's loop kept out of line: whether the optimizer
  /// inlined the whole function depended on unrelated changes, and a plain send then paid a
  /// call (~25% of W1).
  @inlinable
  @inline(__always)
  func processAll(_ action: Action, group: inout EffectGroup?, origin: EffectOrigin<Action>?) {
    process(action, group: &group, origin: origin)
    if !storage.pointee.queue.isEmpty { processQueue(group: group) }
    if !storage.pointee.atBatchEnd.isEmpty { finishBatch(group: group) }
  }

  /// Completes the effects that finished during the batch and moves on the concatenations
  /// waiting for its end, processing whatever they queue, until nothing is left.
  @inlinable
  @inline(never)
  func finishBatch(group: EffectGroup?) {
    var work: [BatchEnd] = []
    repeat {
      swap(&work, &storage.pointee.atBatchEnd)
      for item in work {
        switch item {
        case .finished(let id): complete(id)
        case .advance(let id): interpreter.advanceConcatenation(id)
        }
      }
      work.removeAll(keepingCapacity: true)
      if !storage.pointee.queue.isEmpty { processQueue(group: group) }
    } while !storage.pointee.atBatchEnd.isEmpty
  }

  /// Processes the actions queued while processing the batch's first action, in order.
  @inlinable
  @inline(never)
  func processQueue(group: EffectGroup?) {
    while var next = storage.pointee.queue.popFirst() {
      if let effectID = next.effectID, storage.pointee.cancelledWhileQueued.contains(effectID) {
        continue
      }
      if let childPath = next.extras?.childPath, isGone(childPath) { continue }
      // Moved out rather than copied: a copy retained the group and released it again.
      var queuedGroup: EffectGroup? = nil
      swap(&queuedGroup, &next.group)
      if queuedGroup == nil { queuedGroup = group }
      process(next.action, group: &queuedGroup, origin: next.origin)
      if next.extras?.holdsGroup == true { _ = queuedGroup?.leave() }
    }
    if !storage.pointee.cancelledWhileQueued.isEmpty {
      storage.pointee.cancelledWhileQueued.removeAll()
    }
  }

  /// Removes an effect that finished from the bookkeeping, or, during a batch, once the batch
  /// has been processed.
  @inlinable
  func effectFinished(_ id: UInt64) {
    if storage.pointee.isSending {
      storage.pointee.atBatchEnd.append(.finished(id))
    } else {
      complete(id)
    }
  }

  /// Removes a finished effect from the bookkeeping; when it was the last effect of a step of a
  /// concatenation, starts the next step, in this turn.
  @inlinable
  func complete(_ id: UInt64) {
    guard let emptied = registry.complete(id), emptied.sequenceID != 0 else { return }
    interpreter.advanceConcatenation(emptied.sequenceID)
  }

  /// Checks the stores' armed watches after a batch, then tells the readers of those whose value
  /// changed (after the check, so a reader that reads again in its callback arms a watch anew).
  @usableFromInline
  func checkObservation() {
    guard let observation else {
      storage.pointee.isObserved = false
      return
    }
    // The buffer of the last check, taken (a reader told below may send an action, whose batch
    // checks again): no allocation per check.
    var changed: [WatchChange] = []
    swap(&changed, &spareChanges)
    if !observation.check(into: &changed) {
      observation.isAttached = false
      self.observation = nil
      storage.pointee.isObserved = false
    }
    for watch in changed { watch.notify() }
    changed.removeAll(keepingCapacity: true)
    spareChanges = changed
  }

  @usableFromInline
  func notifyStateObservers() {
    for observer in storage.pointee.stateObservers.values { observer() }
  }

  @inlinable
  func makeTask(_ group: EffectGroup?) -> StoreTask {
    guard let group else { return StoreTask(group: nil, cancel: nil) }
    return makeTask(effectGroup: group)
  }

  @usableFromInline
  func makeTask(effectGroup group: EffectGroup) -> StoreTask {
    let registry = registry
    return StoreTask(group: group, cancel: { registry.cancel(group: $0) })
  }

  @inlinable
  func process(
    _ action: Action, group: inout EffectGroup?, origin: EffectOrigin<Action>?
  ) {
    storage.pointee.stateVersion &+= 1
    #if DEBUG
      storage.pointee.isReducing = true
      // Named in the runtime issues the reducer reports about the action.
      let effect = _reducing(from: origin) {
        reducer.reduce(into: &statePointer.pointee, action: action)
      }
      storage.pointee.isReducing = false
    #else
      let effect = reducer.reduce(into: &statePointer.pointee, action: action)
    #endif
    if let didProcess = storage.pointee.didProcess {
      didProcess(action, origin, statePointer.pointee)
    }
    if !effect.isNone { startRoot(effect, group: &group, action: action, origin: origin) }
    if registry.endingChildEffects.isPositive { cancelEffectsOfChildrenGone() }
  }

  /// Cancels the effects of every child the state no longer holds (an optional child set to
  /// `nil`, a row removed, an element popped, a presentation ended or replaced, a case left),
  /// whoever changed the state: the child's parent cancels them itself, but an ancestor that
  /// sets the state through a parent of the child's reducer is never seen by that reducer.
  /// Called after each action while effects of children that can end run; their queued actions
  /// are dropped.
  ///
  /// - Complexity: O(*e*) to copy the paths of the *e* effects checked, then O(*p* × *d*) for
  ///   their *p* distinct paths, *d* steps deep, and O(*e*) more for each path found gone.
  @usableFromInline
  func cancelEffectsOfChildrenGone() {
    let paths = registry.endingChildPaths()
    let state: Any = statePointer.pointee
    for path in paths {
      guard let gone = path.prefixGone(in: state) else { continue }
      dropQueuedActions(of: registry.cancel(under: gone))
    }
  }

  /// Whether a part `path` names is gone from the state.
  @usableFromInline
  func isGone(_ path: ReducerPath) -> Bool {
    path.prefixGone(in: statePointer.pointee) != nil
  }

  /// Starts a `.send` a child's reducer returned: queued with the child's path during a batch
  /// when the root checks that path, so that it is dropped if the child has ended when its turn
  /// comes (an ancestor ended it in the same batch); otherwise as any `.send`.
  @usableFromInline
  func startChildSend(
    _ sent: Action, group: EffectGroup?, startedBy action: Action, path: ReducerPath
  ) {
    guard storage.pointee.isSending, let checked = path.checkedPrefix else {
      startSend(sent, group: group, startedBy: action)
      return
    }
    let origin =
      storage.pointee.keepsOrigins
      ? EffectOrigin(action: action, fileID: "", line: 0, parent: currentOrigin) : nil
    storage.pointee.queue.append(
      Queued(action: sent, group: group, origin: origin, childPath: checked))
  }

  @inlinable
  func startRoot(
    _ effect: Effect<Action>, group: inout EffectGroup?, action: Action,
    origin: EffectOrigin<Action>?
  ) {
    if group == nil { group = EffectGroup() }
    guard storage.pointee.tracksProvenance else {
      // A lone `.send` (the common synchronous effect) goes straight to the one send path,
      // without the interpreter's path, keys and dependencies.
      if case .send(let sent) = effect.operation {
        startSend(sent, group: group, startedBy: action)
        return
      }
      interpreter.start(effect, in: EffectContext(group: group.unsafelyUnwrapped, action: action))
      return
    }
    let effectGroup = group.unsafelyUnwrapped
    currentOrigin = origin
    defer { currentOrigin = nil }
    interpreter.start(effect, in: EffectContext(group: effectGroup, action: action))
  }

  /// The interpreter that starts this core's effects. Use it within the call that made it: it
  /// holds the core unowned and unchecked (see `EffectInterpreter.core`), so it must never be
  /// stored or captured by an escaping closure.
  @inlinable
  var interpreter: EffectInterpreter<R> { EffectInterpreter(core: self) }

  /// Starts a `.send` effect: the one path every synchronous send takes. During a batch the
  /// action is queued (processed before the batch ends, in order); otherwise it is sent now. Its
  /// origin is linked only when a test store watches (`tracksProvenance`): an app's `.send`
  /// allocates nothing.
  @inlinable
  @inline(__always)
  func startSend(_ sent: Action, group: EffectGroup?, startedBy action: Action) {
    if storage.pointee.isSending, !storage.pointee.keepsOrigins {
      // The fast path: queued with no origin to box.
      storage.pointee.queue.append(Queued(action: sent, group: group, origin: nil))
      return
    }
    startSendOutOfBatchOrTracked(sent, group: group, startedBy: action)
  }

  /// The rest of `startSend`, kept out of line so that the fast path stays small where it is
  /// inlined.
  @inlinable
  @inline(never)
  func startSendOutOfBatchOrTracked(
    _ sent: Action, group: EffectGroup?, startedBy action: Action
  ) {
    let origin =
      storage.pointee.keepsOrigins
      ? EffectOrigin(action: action, fileID: "", line: 0, parent: currentOrigin) : nil
    if storage.pointee.isSending {
      storage.pointee.queue.append(Queued(action: sent, group: group, origin: origin))
    } else {
      _ = send(sent, group: group, origin: origin)
    }
  }

  /// Where the action whose effects are being started came from, so each effect's origin can
  /// carry the chain of actions that led to it.
  @usableFromInline
  var currentOrigin: EffectOrigin<Action>? {
    get { storage.pointee.currentOrigin }
    set { storage.pointee.currentOrigin = newValue }
  }

  /// Receives an action from an effect; reports and drops one sent after the effect finished
  /// (through a `send` the operation let escape), whose group no longer counts it.
  @inlinable
  func receive(
    _ action: Action, group: EffectGroup, origin: EffectOrigin<Action>, effectID: UInt64
  ) {
    guard let isCancelled = registry.isCancelledIfInFlight(effectID) else {
      reportSendAfterFinish(action, origin: origin)
      return
    }
    // A cancelled effect sends nothing, from whichever task it sends (its own checks that it
    // was cancelled, one it started, which was not, does not).
    if isCancelled { return }
    // The origin matters only to a test store, which tracks provenance, and to the runtime
    // issues of a debug build.
    let origin = storage.pointee.keepsOrigins ? origin : nil
    _ = send(action, group: group, origin: origin, effectID: effectID)
  }

  @usableFromInline
  func reportSendAfterFinish(_ action: Action, origin: EffectOrigin<Action>) {
    storage.pointee.dependencies.issueReporter(
      """
      An effect sent an action after it had finished, so the action was ignored:

        Action: \(action)
        Effect: the .run at \(origin.fileID):\(origin.line), returned for \(origin.action)

      Call "send" only while the effect's operation is running: do not keep it for later (in a \
      stored closure, a delegate, a detached task), and do not return from the operation before \
      the work that sends is done.
      """,
      at: CodeLocation(
        fileID: origin.fileID, filePath: origin.fileID, line: Int(origin.line), column: 0))
  }

  /// Remembers cancelled effects whose actions may still wait in the queue, so they are dropped.
  @inlinable
  func dropQueuedActions(of cancelled: [UInt64]) {
    guard storage.pointee.isSending, !storage.pointee.queue.isEmpty, !cancelled.isEmpty else {
      return
    }
    storage.pointee.cancelledWhileQueued.formUnion(cancelled)
  }

  // MARK: Observing state

  @usableFromInline
  func addStateObserver(_ observer: @escaping @MainActor () -> Void) -> UInt64 {
    storage.pointee.nextObserverToken += 1
    let token = storage.pointee.nextObserverToken
    storage.pointee.stateObservers[token] = observer
    return token
  }

  @usableFromInline
  func removeStateObserver(_ token: UInt64) {
    storage.pointee.stateObservers.removeValue(forKey: token)
  }
}

extension RootCore: ObservationRoot {
  func observe(_ observation: any ObservedPart) {
    self.observation = observation
    storage.pointee.isObserved = true
  }
}
