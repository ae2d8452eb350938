import Synchronization

/// The bookkeeping of one store's in-flight effects: which are running, under which cancel ids
/// and reducer paths, which are waiting on a test clock, and the throttle windows that are open.
///
/// Owned by one root store, never shared between stores, so two stores never cancel each other.
/// The bookkeeping lives behind one lock and the throttle windows behind another; tasks are
/// cancelled outside them.
@usableFromInline
final class EffectRegistry<Action: Sendable>: Sendable {
  @usableFromInline typealias Kind = EffectKind
  typealias Entry = EffectEntry

  @usableFromInline
  struct PendingThrottle: Sendable {
    @usableFromInline var effect: Effect<Action>
    @usableFromInline var group: EffectGroup
    @usableFromInline var dependencies: DependencyValues
    @usableFromInline var keys: [CancelKey]
    @usableFromInline var origin: Action
    /// The registry's id of the entry that stands for the effect while it is held back (see
    /// ``EffectKind/heldBack``).
    @usableFromInline var heldID: UInt64

    @usableFromInline
    init(
      effect: Effect<Action>, group: EffectGroup, dependencies: DependencyValues,
      keys: [CancelKey], origin: Action, heldID: UInt64
    ) {
      self.effect = effect
      self.group = group
      self.dependencies = dependencies
      self.keys = keys
      self.origin = origin
      self.heldID = heldID
    }
  }

  /// The in-flight effects. Not generic (origins are stored type-erased), so that the registry's
  /// bookkeeping is compiled once, specialized, instead of going through generic metadata on
  /// every effect started, cancelled or finished.
  let state: LockedState<EffectBook>
  /// How many effects of children that can end (see `EffectBook.endingPaths`) are in flight and
  /// not cancelled, readable without the lock: while there are none, an action needs no look at
  /// whether those children are still there.
  @usableFromInline let endingChildEffects = EffectCount()
  /// Open throttle windows, with the effect held back for the end of the window.
  ///
  /// The effect held back is stored type-erased, like origins: a table generic over the action
  /// type looked up its metadata at run time on every cancel, even when no window was open.
  let throttles = LockedState<[CancelKey: ThrottleWindow]>([:])

  @usableFromInline
  init() {
    state = LockedState(EffectBook(endingChildEffects: endingChildEffects))
  }

  deinit {
    cancelAll()
  }

  // MARK: Registering

  /// Registers an effect before its task exists, so it can be cancelled before it starts.
  ///
  /// `origin` is the effect's `EffectOrigin<Action>`, erased by the caller: the caller is
  /// specialized for the action type, so erasing it there looks up no generic metadata. Only a
  /// test store reads it (``inFlight``), so a store no test store watches passes `nil` and its
  /// entries hold no copy of the action. `hasStarted` is `true` for an effect no one asks about
  /// (see ``EffectEntry/hasStarted``).
  @usableFromInline
  func register(
    kind: Kind, keys: [CancelKey], path: ReducerPath, group: EffectGroup,
    origin: (any Sendable)?, hasStarted: Bool = false
  ) -> UInt64 {
    group.enter()
    let (id, handler) = state.withLock { state -> (UInt64, ActivityHandler?) in
      state.nextID += 1
      let id = state.nextID
      var entry = Entry(
        kind: kind, keys: keys, path: path, group: group, origin: origin, hasStarted: hasStarted)
      // An effect started by a step of a sequence cancelled meanwhile (from another thread) is
      // cancelled too: the cancel reached the step's effects registered before it, not this one.
      if group.sequenceID != 0, state.entries[group.sequenceID]?.isCancelled ?? false {
        entry.isCancelled = true
      }
      if kind == .sequence { state.sequenceCount += 1 }
      if kind == .throttleWindow { state.windowCount += 1 }
      if !entry.isCancelled, !path.components.isEmpty {
        state.uncancelledPaths[id] = path
        if let checked = path.checkedPrefix { state.endingPaths[id] = checked }
      }
      state.entries[id] = entry
      for key in keys { state.idsByKey[key, default: []].append(id) }
      return (id, state.activityHandler)
    }
    handler?.handle()
    return id
  }

  /// Makes `step` the running step of the sequence `id`, so cancelling the sequence cancels the
  /// step's effects.
  @usableFromInline
  func setStep(_ step: EffectGroup, ofSequence id: UInt64) {
    state.withLock { state in
      guard let index = state.entries.index(forKey: id) else { return }
      state.entries.values[index].step = step
    }
  }

  /// Whether the effect `id` was cancelled (or has finished).
  @usableFromInline
  func isCancelled(_ id: UInt64) -> Bool {
    // Through the index: `entries[id]?.isCancelled` copied the whole entry out and destroyed it.
    state.withLock { state in
      guard let index = state.entries.index(forKey: id) else { return true }
      return state.entries.values[index].isCancelled
    }
  }

  /// Gives a registered effect its task; cancels the task at once if the effect was cancelled
  /// in the meantime.
  @usableFromInline
  func attach(_ task: Task<Void, Never>, to id: UInt64) {
    let isCancelled = state.withLock { state -> Bool in
      // Through the index and in place: reading a field through `values[index]` copied the whole
      // entry out and destroyed the copy.
      guard let index = state.entries.index(forKey: id) else { return false }
      return EffectEntry.attach(task, to: &state.entries.values[index])
    }
    if isCancelled { task.cancel() }
  }

  /// Removes a finished effect from the bookkeeping. Returns its group if no effect of the group
  /// is left in flight.
  @usableFromInline
  @discardableResult
  func complete(_ id: UInt64) -> EffectGroup? {
    // The entry is destroyed outside the lock (releasing its task may run deinits that cancel
    // effects), and only its group is read, rather than the entry copied out.
    var entry: Entry?
    let handler = state.withLock { state -> ActivityHandler? in
      entry = state.entries.removeValue(forKey: id)
      if entry?.path.components.isEmpty == false { state.forgetPath(of: id) }
      if let keys = entry?.keys, !keys.isEmpty { state.removeKeys(keys, id: id) }
      if entry?.kind == .sequence { state.sequenceCount -= 1 }
      if entry?.kind == .throttleWindow { state.windowCount -= 1 }
      return state.activityHandler
    }
    var emptied: EffectGroup?
    if let group = entry?.group, group.leave() { emptied = group }
    handler?.handle()
    return emptied
  }

  /// Records that an effect's task has begun running.
  @usableFromInline
  func markStarted(_ id: UInt64) {
    let handler = state.withLock { state -> ActivityHandler? in
      if let index = state.entries.index(forKey: id) {
        state.entries.values[index].hasStarted = true
      }
      return state.activityHandler
    }
    handler?.handle()
  }

  // MARK: Cancelling

  /// Cancels the effects registered under `key` and drops a throttled effect waiting on it.
  /// Returns the ids of the cancelled effects.
  @discardableResult
  @usableFromInline
  func cancel(_ key: CancelKey) -> [UInt64] {
    // One effect per id is the common case: its task is returned without building an array.
    let (ids, task, tasks) = state.withLock {
      state -> ([UInt64], Task<Void, Never>?, [Task<Void, Never>]) in
      guard var ids = state.idsByKey.removeValue(forKey: key) else { return ([], nil, []) }
      if ids.count == 1, state.sequenceCount == 0 { return (ids, state.markCancelled(ids[0]), []) }
      var tasks = ids.compactMap { state.markCancelled($0) }
      state.cancelSteps(of: &ids, tasks: &tasks)
      return (ids, nil, tasks)
    }
    let held = throttles.withLock { throttles -> [UInt64] in
      guard !throttles.isEmpty else { return [] }
      var held = Self.closeWindows(of: ids, in: &throttles)
      if let window = throttles.removeValue(forKey: key), window.heldID != 0 {
        held.append(window.heldID)
      }
      return held
    }
    task?.cancel()
    for task in tasks { task.cancel() }
    if !held.isEmpty { cancelHeld(held) }
    return ids
  }

  /// Closes the throttle windows whose effects are among `ids` (cancelled, under an outer id or
  /// with their send's task), dropping what they held back: an open window whose effect is gone
  /// would hold back every later effect of its id. Returns the ids of the held-back effects
  /// dropped, for ``cancelHeld(_:)``.
  private static func closeWindows(
    of ids: [UInt64], in throttles: inout [CancelKey: ThrottleWindow]
  ) -> [UInt64] {
    guard !ids.isEmpty, !throttles.isEmpty else { return [] }
    var held: [UInt64] = []
    for (key, window) in throttles where window.windowID != 0 && ids.contains(window.windowID) {
      throttles.removeValue(forKey: key)
      if window.heldID != 0 { held.append(window.heldID) }
    }
    return held
  }

  /// Cancels the entries of held-back effects a window dropped, or started: their tasks, which
  /// only wait to be cancelled, end, and with them the entries, on the main actor (unless the
  /// caller completes an entry at once).
  @usableFromInline
  func cancelHeld(_ ids: [UInt64]) {
    let tasks = state.withLock { state in ids.compactMap { state.markCancelled($0) } }
    for task in tasks { task.cancel() }
  }

  /// Records the registry's id of the effect of the throttle window open for `key`.
  @usableFromInline
  func setThrottleWindow(_ key: CancelKey, effect id: UInt64) {
    throttles.withLock { $0[key]?.windowID = id }
  }

  /// Cancels every effect started at `path` or below it. Returns the ids of the cancelled
  /// effects.
  @discardableResult
  @usableFromInline
  func cancel(under path: ReducerPath) -> [UInt64] {
    let held = throttles.withLock { throttles -> [UInt64] in
      var held: [UInt64] = []
      for key in throttles.keys where key.path.hasPrefix(path) {
        if let window = throttles.removeValue(forKey: key), window.heldID != 0 {
          held.append(window.heldID)
        }
      }
      return held
    }
    if !held.isEmpty { cancelHeld(held) }
    let (ids, tasks) = state.withLock { state -> ([UInt64], [Task<Void, Never>]) in
      // Only the effects not cancelled yet: cancelled ones wait for their tasks to end, and a
      // burst of them (dismissed before the main actor ran them) would make every cancel scan
      // them all. An effect of the root (an empty path) is under no path but the root's.
      var ids =
        path.components.isEmpty
        ? state.entries.compactMap { $0.value.isCancelled ? nil : $0.key }
        : state.uncancelledPaths.compactMap { $0.value.hasPrefix(path) ? $0.key : nil }
      var tasks = ids.compactMap { state.markCancelled($0) }
      state.cancelSteps(of: &ids, tasks: &tasks)
      return (ids, tasks)
    }
    for task in tasks { task.cancel() }
    return ids
  }

  /// The distinct paths of the effects of children that can end, not cancelled.
  func endingChildPaths() -> [ReducerPath] {
    let paths = state.withLock { Array($0.endingPaths.values) }
    // Usually one child's effects: no set to build, no path hashed.
    return paths.count < 2 ? paths : Array(Set(paths))
  }

  /// Cancels every effect of a group.
  @usableFromInline
  func cancel(group: EffectGroup) {
    let (ids, tasks) = state.withLock { state -> ([UInt64], [Task<Void, Never>]) in
      var ids = state.entries.compactMap { $0.value.group === group ? $0.key : nil }
      var tasks = ids.compactMap { state.markCancelled($0) }
      state.cancelSteps(of: &ids, tasks: &tasks)
      return (ids, tasks)
    }
    let held = throttles.withLock { Self.closeWindows(of: ids, in: &$0) }
    for task in tasks { task.cancel() }
    if !held.isEmpty { cancelHeld(held) }
  }

  /// Cancels every effect.
  func cancelAll() {
    throttles.withLock { $0.removeAll() }
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      return Array(state.entries.keys).compactMap { state.markCancelled($0) }
    }
    for task in tasks { task.cancel() }
  }

  // MARK: Throttling

  /// What a throttle does with an effect, given the window of its id.
  @usableFromInline
  enum ThrottleDecision {
    /// No window was open: one is now, and the effect runs.
    case opened
    /// A window is open: the effect is held back for its end (``holdBack(_:for:)``).
    case holdsBack
    /// A window is open and already holds back an effect, which an earlier one keeps.
    case drops
  }

  /// Opens a throttle window for `key` if none is, and says what becomes of the effect.
  @usableFromInline
  func openThrottleWindow(_ key: CancelKey, latest: Bool) -> ThrottleDecision {
    throttles.withLock { throttles in
      guard let open = throttles[key] else {
        throttles[key] = ThrottleWindow()
        return .opened
      }
      return latest || open.pending == nil ? .holdsBack : .drops
    }
  }

  /// Holds `pending` back in the window open for `key`. Returns the id of the held-back effect
  /// that is not held any more: the one `pending` replaces, or `pending`'s own if the window
  /// was closed meanwhile (cancelled from another thread).
  @usableFromInline
  func holdBack(_ pending: PendingThrottle, for key: CancelKey) -> UInt64? {
    throttles.withLock { throttles in
      guard throttles[key] != nil else { return pending.heldID }
      let replaced = throttles[key]?.heldID ?? 0
      throttles[key]?.pending = pending
      throttles[key]?.heldID = pending.heldID
      return replaced == 0 ? nil : replaced
    }
  }

  /// How a throttle window ends.
  @usableFromInline
  enum WindowEnd {
    /// It held nothing back (or was closed already): it is closed.
    case closed
    /// It held back `pending`, which runs now; the window stays open for it.
    case runs(PendingThrottle)
    /// What it held back was cancelled (with its send's task) and is dropped: it is closed.
    case drops(heldID: UInt64)
  }

  /// Ends the throttle window for `key`: says what becomes of the effect it held back.
  @usableFromInline
  func closeThrottleWindow(_ key: CancelKey) -> WindowEnd {
    throttles.withLock { throttles in
      guard let open = throttles[key] else { return .closed }
      guard let pending = open.pending as? PendingThrottle else {
        throttles.removeValue(forKey: key)
        return .closed
      }
      // The one place both locks are held, always in this order.
      if isCancelled(pending.heldID) {
        throttles.removeValue(forKey: key)
        return .drops(heldID: pending.heldID)
      }
      throttles[key] = ThrottleWindow()
      return .runs(pending)
    }
  }

  // MARK: Observing

  /// Whether the effect `id` is still in flight (`nil` when it is not), and whether it was
  /// cancelled.
  @usableFromInline
  func isCancelledIfInFlight(_ id: UInt64) -> Bool? {
    state.withLock { state in
      guard let index = state.entries.index(forKey: id) else { return nil }
      return state.entries.values[index].isCancelled
    }
  }

  /// The number of effects in flight.
  var count: Int {
    state.withLock { $0.entries.count }
  }

  /// The number of effects in flight that may still send something: all but open throttle
  /// windows, which only hold back (an effect held back is an entry of its own).
  var workCount: Int {
    state.withLock { $0.entries.count - $0.windowCount }
  }

  /// Where the in-flight effects came from, oldest first. A sequence is not listed: it is the
  /// effects of its running step, which are.
  var inFlight: [InFlightEffect<Action>] {
    state.withLock { state in
      state.entries.sorted { $0.key < $1.key }.compactMap { _, entry in
        guard entry.kind != .sequence, let origin = entry.origin as? EffectOrigin<Action> else {
          return nil
        }
        return InFlightEffect(
          origin: origin, waitingOn: entry.suspensions > 0 ? entry.waitingOn : nil,
          isCancelled: entry.isCancelled, sendID: ObjectIdentifier(entry.group.root),
          isThrottleWindow: entry.kind == .throttleWindow)
      }
    }
  }

  /// Whether no effect can make progress on its own: every in-flight operation is suspended on
  /// something only the test moves (a test clock, stream or continuation). A sequence has no
  /// task: it moves on only when its running step's effects finish, so it is left out, as is an
  /// effect a throttle window holds back (the window moves it); throttle windows wait on a clock
  /// and are counted like operations.
  var isIdle: Bool {
    state.withLock { state in
      state.entries.values.allSatisfy {
        $0.kind == .sequence || $0.kind == .heldBack || $0.suspensions > 0
      }
    }
  }

  /// Whether every effect in flight has begun running.
  var haveAllStarted: Bool {
    state.withLock { state in state.entries.values.allSatisfy { $0.hasStarted } }
  }

  func suspensionChanged(_ id: UInt64, by delta: Int, reason: SuspensionReason? = nil) {
    state.withLock { state in
      state.entries[id]?.suspensions += delta
      if let reason { state.entries[id]?.waitingOn = reason }
    }
    notifyActivity()
  }

  func notifyActivity() {
    state.withLock { $0.activityHandler }?.handle()
  }

  /// Sets the handler called after every change a test store may be waiting for.
  func setActivityHandler(_ handle: (@Sendable () -> Void)?) {
    let handler = handle.map(ActivityHandler.init)
    state.withLock { $0.activityHandler = handler }
  }
}

/// What an in-flight effect is.
@usableFromInline
enum EffectKind: Sendable {
  /// A `.run` operation.
  case operation
  /// The steps of a `.concatenate`, run one after the other. It has no task: the store starts
  /// each step when the previous one's effects have finished.
  case sequence
  /// A throttle window that is open.
  case throttleWindow
  /// An effect a throttle window holds back for its end. It counts in its send's group (so the
  /// send's task waits for it) and is cancelled with its ids, path and group; its task only
  /// waits to be cancelled, which happens when the window starts the effect or drops it. Like
  /// a sequence, it moves on only when something else does (the window's clock).
  case heldBack
}

/// An open throttle window, with the effect held back for its end (a `PendingThrottle` of the
/// registry's action type), if any.
struct ThrottleWindow: Sendable {
  var pending: (any Sendable)?
  /// The registry's id of the entry of the effect held back, 0 when none is.
  var heldID: UInt64 = 0
  /// The registry's id of the window's effect (0 until it is registered): cancelling that effect
  /// closes the window, with what it held back.
  var windowID: UInt64 = 0
}

/// What a test store runs after every change it may be waiting for.
final class ActivityHandler: Sendable {
  let handle: @Sendable () -> Void

  init(_ handle: @escaping @Sendable () -> Void) {
    self.handle = handle
  }
}

/// One in-flight effect in a store's bookkeeping.
struct EffectEntry: Sendable {
  var task: Task<Void, Never>?
  var isCancelled = false
  /// Whether the effect's task has begun running (a sequence, which has no task, has at once).
  ///
  /// Only a test store asks (``EffectRegistry/haveAllStarted``). In a store no test store watches
  /// an operation is registered as started: the store starts its task in place, on the main
  /// actor, right after registering it, so no one on the main actor can see it not started.
  var hasStarted: Bool
  /// For a sequence, the group of its running step.
  var step: EffectGroup?
  var suspensions = 0
  /// What the effect last suspended on, while `suspensions` is positive.
  var waitingOn: SuspensionReason?
  let kind: EffectKind
  let keys: [CancelKey]
  let path: ReducerPath
  let group: EffectGroup
  /// The effect's `EffectOrigin<Action>`, erased so that the bookkeeping is not generic; `nil`
  /// in a store no test store watches, where nothing reads it.
  let origin: (any Sendable)?

  init(
    kind: EffectKind, keys: [CancelKey], path: ReducerPath, group: EffectGroup,
    origin: (any Sendable)?, hasStarted: Bool
  ) {
    self.kind = kind
    self.keys = keys
    self.path = path
    self.group = group
    self.origin = origin
    self.hasStarted = hasStarted || kind == .sequence || kind == .heldBack
  }

  /// Gives the entry its task and returns whether the effect was cancelled meanwhile. Takes the
  /// entry `inout` so that the caller passes the dictionary's storage in place.
  static func attach(_ task: Task<Void, Never>, to entry: inout EffectEntry) -> Bool {
    entry.task = task
    return entry.isCancelled
  }
}

/// The bookkeeping of a store's in-flight effects, behind the registry's lock.
struct EffectBook: Sendable {
  var nextID: UInt64 = 0
  /// Called after every change a test store may be waiting for (an effect started, finished,
  /// suspended on a test clock, or resumed). Kept with the entries so that the lock taken to
  /// change them also reads it.
  ///
  /// Boxed: a closure stored directly in a generic lock is re-wrapped in a reabstraction thunk on
  /// every `withLock`, so reading it repeatedly would build an ever-longer chain of thunks.
  var activityHandler: ActivityHandler?
  var entries: [UInt64: EffectEntry] = [:]
  var idsByKey: [CancelKey: [UInt64]] = [:]
  /// The paths of the entries below the root not cancelled yet, for a cancel by path.
  var uncancelledPaths: [UInt64: ReducerPath] = [:]
  /// The part the root checks (`ReducerPath.checkedPrefix`) of those of `uncancelledPaths` that
  /// cross a child that can end (an optional child, a stack element, a presentation, an enum
  /// case): a path of `Scope`s only names a part that is always there.
  var endingPaths: [UInt64: ReducerPath] = [:] {
    didSet { endingChildEffects.value.store(endingPaths.count, ordering: .relaxed) }
  }
  /// The count of `endingPaths`, which the registry reads without its lock.
  let endingChildEffects: EffectCount
  /// The number of sequences in `entries`: while there are none, a cancel has no steps to reach.
  var sequenceCount = 0
  /// The number of open throttle windows in `entries`.
  var windowCount = 0

  /// Marks an entry cancelled and returns its task to cancel outside the lock.
  mutating func markCancelled(_ id: UInt64) -> Task<Void, Never>? {
    guard let index = entries.index(forKey: id) else { return nil }
    forgetPath(of: id)
    return Self.markCancelled(&entries.values[index])
  }

  /// Forgets the path of the entry `id`, cancelled or finished.
  mutating func forgetPath(of id: UInt64) {
    uncancelledPaths.removeValue(forKey: id)
    if !endingPaths.isEmpty { endingPaths.removeValue(forKey: id) }
  }

  /// In place: reading `task` through `values[index]` copied the whole entry out.
  private static func markCancelled(_ entry: inout EffectEntry) -> Task<Void, Never>? {
    entry.isCancelled = true
    return entry.task
  }

  /// Cancels the effects of the running steps of the sequences among `ids` (just cancelled), and
  /// of the sequences among those, adding their ids and tasks.
  mutating func cancelSteps(of ids: inout [UInt64], tasks: inout [Task<Void, Never>]) {
    guard sequenceCount > 0 else { return }
    var index = 0
    while index < ids.count {
      if let step = entries[ids[index]]?.step {
        let stepIDs = entries.compactMap { id, entry in
          entry.group === step && !entry.isCancelled ? id : nil
        }
        for id in stepIDs {
          ids.append(id)
          if let task = markCancelled(id) { tasks.append(task) }
        }
      }
      index += 1
    }
  }

  mutating func removeKeys(_ keys: [CancelKey], id: UInt64) {
    for key in keys {
      guard var ids = idsByKey[key] else { continue }
      ids.removeAll { $0 == id }
      idsByKey[key] = ids.isEmpty ? nil : ids
    }
  }
}

/// Connects one in-flight effect task to the registry, so a test clock can tell it when the task
/// waits on it.
@usableFromInline
final class EffectHandle<Action: Sendable>: SuspensionObserver {
  let id: UInt64
  let registry: EffectRegistry<Action>
  /// The hash of the effect's own task, once it has claimed the handle (0 until then: every task
  /// counts).
  let task = Atomic<Int>(0)

  @usableFromInline
  init(id: UInt64, registry: EffectRegistry<Action>) {
    self.id = id
    self.registry = registry
  }

  @usableFromInline
  func willSuspend(on reason: SuspensionReason) {
    registry.suspensionChanged(id, by: 1, reason: reason)
  }

  @usableFromInline
  func didResume() {
    registry.suspensionChanged(id, by: -1)
  }

  /// Makes the current task the effect's own: only its waits count from now on.
  @usableFromInline
  func claimCurrentTask() {
    withUnsafeCurrentTask { current in
      if let current { task.store(current.hashValue, ordering: .relaxed) }
    }
  }

  @usableFromInline
  var isCurrentTaskTheEffects: Bool {
    let claimed = task.load(ordering: .relaxed)
    guard claimed != 0 else { return true }
    return withUnsafeCurrentTask { $0?.hashValue } == claimed
  }

  @usableFromInline
  var isSettled: Bool {
    registry.state.withLock { state in
      guard let entry = state.entries[id] else { return true }
      return entry.suspensions > 0
    }
  }
}

/// A count read and written atomically.
@usableFromInline
final class EffectCount: Sendable {
  @usableFromInline let value = Atomic<Int>(0)

  init() {}

  /// Whether the count is above zero.
  @inlinable var isPositive: Bool { value.load(ordering: .relaxed) > 0 }
}
