/// What the interpreter carries down an effect tree while it starts it: one value in place of
/// the six arguments each step of it needs.
///
/// At the root of a tree (a reducer's effect) there is no path, key or dependency override:
/// those live in a `EffectScope` made only below a `.scoped`, `.cancellable`, `.dependencies`
/// or in a concatenation, so starting a reducer's `.merge` of sends builds two words.
@usableFromInline
struct EffectContext<Action: Sendable> {
  /// The group the effects count in: the `send`'s, or a concatenation's step's.
  @usableFromInline let group: EffectGroup
  /// The action whose reducer returned the effect.
  @usableFromInline let action: Action
  /// The path, keys and dependencies below the root; `nil` at the root.
  @usableFromInline let scope: EffectScope?

  @inlinable
  init(group: EffectGroup, action: Action, scope: EffectScope? = nil) {
    self.group = group
    self.action = action
    self.scope = scope
  }

  /// The reducer path of the effect (`.scoped` components), which qualifies its cancel ids.
  @inlinable
  var path: ReducerPath { scope?.path ?? ReducerPath() }
  /// The cancel keys of the `.cancellable`s around it.
  @inlinable
  var keys: [CancelKey] { scope?.keys ?? [] }
  /// `nil` unless a `.dependencies` effect overrides the store's: the store's are read only
  /// where an effect needs them (a task, a sequence, a throttle), so a `.send` does not copy
  /// them.
  @inlinable
  var dependencies: DependencyValues? { scope?.dependencies }

  /// This context with another path, keys or dependencies (`nil` keeps the one it has: an
  /// override is never removed below where it was made).
  @inlinable
  func with(
    path: ReducerPath? = nil, keys: [CancelKey]? = nil, dependencies: DependencyValues? = nil
  ) -> Self {
    Self(
      group: group, action: action,
      scope: EffectScope(
        path: path ?? self.path, keys: keys ?? self.keys,
        dependencies: dependencies ?? self.dependencies))
  }

  /// The same context for the effects of another group (a concatenation's step).
  @inlinable
  func counting(in group: EffectGroup) -> Self {
    Self(group: group, action: action, scope: scope)
  }
}

/// The path, cancel keys and dependencies of effects below the root of a tree.
@usableFromInline
final class EffectScope: Sendable {
  @usableFromInline let path: ReducerPath
  @usableFromInline let keys: [CancelKey]
  @usableFromInline let dependencies: DependencyValues?

  @inlinable
  init(path: ReducerPath, keys: [CancelKey], dependencies: DependencyValues?) {
    self.path = path
    self.keys = keys
    self.dependencies = dependencies
  }
}

/// Interprets an effect tree for a root core: queues synchronous sends, registers and starts
/// tasks, runs concatenations step by step, opens throttle windows, cancels.
///
/// A value the core makes for each effect it starts (``RootCore/interpreter``), never stored:
/// it reaches the core's storage, registry and send path through `core`.
@MainActor
@usableFromInline
struct EffectInterpreter<R: Reducer> {
  @usableFromInline typealias Action = R.Action

  /// Unowned and unchecked: the interpreter is made by the core, on the stack of one of the
  /// core's own calls, and dropped before that call returns, so the core outlives it. The
  /// closures it makes (tasks, throttle windows) capture the core weakly, never this reference.
  @usableFromInline unowned(unsafe) let core: RootCore<R>

  @inlinable
  init(core: RootCore<R>) {
    self.core = core
  }

  /// Starts `effect` in `context`.
  @inlinable
  func start(_ effect: Effect<Action>, in context: EffectContext<Action>) {
    switch effect.operation {
    case .none:
      return

    case .send(let sent):
      // Processed in the send's group, not a step's (see `EffectGroup.root`).
      if context.path.components.isEmpty {
        core.startSend(sent, group: context.group.root, startedBy: context.action)
      } else {
        core.startChildSend(
          sent, group: context.group.root, startedBy: context.action, path: context.path)
      }

    case .run(let run):
      startRun(run, in: context)

    case .merge(let effects):
      // An index loop: `for in` went through the unspecialized iterator of the standard library.
      // A `.send` among them takes the send path here, without a call to the interpreter.
      let core = core
      let group: EffectGroup? = context.group.root
      let action = context.action
      var index = 0
      while index < effects.count {
        if case .send(let sent) = effects[index].operation, context.path.components.isEmpty {
          core.startSend(sent, group: group, startedBy: action)
        } else {
          start(effects[index], in: context)
        }
        index += 1
      }

    case .concatenate(let effects):
      startSequence(effects, in: context)

    case .cancellable(let id, let cancelInFlight, let inner):
      let key = CancelKey(path: context.path, id: id)
      if cancelInFlight { core.dropQueuedActions(of: core.registry.cancel(key)) }
      start(inner, in: context.with(keys: context.keys + [key]))

    case .cancel(let id):
      core.dropQueuedActions(of: core.registry.cancel(CancelKey(path: context.path, id: id)))

    case .scoped(let component, let inner):
      start(inner, in: context.with(path: context.path.appending(component)))

    case .cancelScope(let component):
      core.dropQueuedActions(of: core.registry.cancel(under: context.path.appending(component)))

    case .dependencies(let values, let inner):
      start(inner, in: context.with(dependencies: values))

    case .throttle(let throttle):
      startThrottle(throttle, in: context)
    }
  }

  @inlinable
  func startRun(_ run: Effect<Action>.Run, in context: EffectContext<Action>) {
    let core = core
    let group = context.group
    let action = context.action
    let override = context.dependencies
    let dependencies = context.dependencies ?? core.storage.pointee.dependencies
    let tracksProvenance = core.storage.pointee.tracksProvenance
    let origin = EffectOrigin(
      action: action, fileID: run.fileID, line: run.line,
      parent: tracksProvenance ? core.currentOrigin : nil)
    // Only a test store reads an effect's origin and whether it has started: an app's store
    // registers neither, and its task does not report its start.
    let id = core.registry.register(
      kind: .operation, keys: context.keys, path: context.path, group: group,
      origin: tracksProvenance ? origin : nil, hasStarted: !tracksProvenance)
    let registry = core.registry
    // What the effect sends is processed in the send's group, not a step's (see
    // `EffectGroup.root`).
    let sendGroup = group.root
    let send = Send<Action> { [weak core] in
      core?.receive($0, group: sendGroup, origin: origin, effectID: id)
    }
    // The task inherits the task-locals bound here; binding one costs a push and a copy into
    // every task. Inside a send the current dependencies already are the store's (the send bound
    // them, or both are the process default), so only an override is bound. The suspension
    // observer is read only by test doubles for a test store: it is bound when a test store
    // watches this store, or to replace the observer of another effect this task would inherit.
    let observes = tracksProvenance || Suspension.hasObserver
    // Starts running at once, on the main actor, until its first suspension.
    func makeTask() -> Task<Void, Never> {
      Task.immediate(priority: run.priority) { @MainActor [weak core] in
        if tracksProvenance { registry.markStarted(id) }
        // Only this task's waits tell that the effect waits on the test (see `Suspension`).
        if observes { Suspension.claimCurrentTask() }
        do {
          try await run.operation(send)
        } catch is CancellationError {
        } catch {
          if !Task.isCancelled {
            if let handler = run.handler {
              await handler(error, send)
            } else {
              Self.reportUnhandled(error, from: action, run: run, to: dependencies)
            }
          }
        }
        if let core { core.effectFinished(id) } else { registry.complete(id) }
      }
    }
    let task: Task<Void, Never>
    switch (override, observes) {
    case (nil, false):
      task = makeTask()
    case (nil, true):
      task = Suspension.withObserver(EffectHandle(id: id, registry: registry), operation: makeTask)
    case (let override?, false):
      task = DependencyValues.withCurrent(override, operation: makeTask)
    case (let override?, true):
      task = DependencyValues.withCurrent(override) {
        Suspension.withObserver(EffectHandle(id: id, registry: registry), operation: makeTask)
      }
    }
    // An operation that never suspended has ended by now, its end queued for the end of the
    // batch: its task has nothing left to cancel, so it is not stored.
    if core.storage.pointee.isSending, case .finished(id)? = core.storage.pointee.atBatchEnd.last {
      return
    }
    registry.attach(task, to: id)
  }

  @usableFromInline
  static func reportUnhandled(
    _ error: any Error, from action: Action, run: Effect<Action>.Run,
    to dependencies: DependencyValues
  ) {
    dependencies.issueReporter(
      """
      An effect returned for the action below threw an error it did not catch:

        \(oneLineDump(action))

      Error: \(error)

      Give the effect a "catch" handler, or handle the error inside it, so that failures reach \
      your reducer as actions.
      """,
      at: CodeLocation(
        fileID: "\(run.fileID)", filePath: "\(run.fileID)", line: Int(run.line), column: 0)
    )
  }

  @inlinable
  func startSequence(_ effects: [Effect<Action>], in context: EffectContext<Action>) {
    let origin = EffectOrigin(action: context.action, fileID: "", line: 0)
    let id = core.registry.register(
      kind: .sequence, keys: context.keys, path: context.path, group: context.group,
      origin: core.storage.pointee.tracksProvenance ? origin : nil)
    core.storage.pointee.concatenations[id] = RootCore<R>.Concatenation(
      steps: effects,
      context: context.with(dependencies: context.dependencies ?? core.storage.pointee.dependencies)
    )
    advanceConcatenation(id)
  }

  /// Starts the next steps of the concatenation `id`, one after the other, until one leaves
  /// effects in flight; ends the concatenation after its last step, or once it is cancelled.
  ///
  /// Runs when the concatenation starts and when the last effect of its running step finishes:
  /// on the main actor, in the turn that finished it, so the next step starts in that turn. A
  /// step that sleeps on a test clock has registered its sleeper before the `advance` that woke
  /// the step before it returns, and a step's `.send` is processed before that turn ends.
  @inlinable
  func advanceConcatenation(_ id: UInt64) {
    let storage = core.storage
    guard var concatenation = storage.pointee.concatenations[id], !concatenation.isStarting else {
      return
    }
    while true {
      if let step = concatenation.step {
        // The last of the step's effects to finish calls back.
        if !step.isEmpty { break }
        // Actions the step sent may still be queued: the end of the batch tells.
        if storage.pointee.isSending, !storage.pointee.queue.isEmpty {
          storage.pointee.atBatchEnd.append(.advance(id))
          break
        }
      }
      guard !core.registry.isCancelled(id), let next = concatenation.remaining.popFirst() else {
        storage.pointee.concatenations[id] = nil
        core.complete(id)
        return
      }
      let step = EffectGroup(stepOf: id, in: concatenation.context.group)
      core.registry.setStep(step, ofSequence: id)
      concatenation.step = step
      concatenation.isStarting = true
      storage.pointee.concatenations[id] = concatenation
      start(next, in: concatenation.context.counting(in: step))
      concatenation.isStarting = false
    }
    storage.pointee.concatenations[id] = concatenation
  }

  @inlinable
  func startThrottle(_ throttle: Effect<Action>.Throttle, in context: EffectContext<Action>) {
    let dependencies = context.dependencies ?? core.storage.pointee.dependencies
    let key = CancelKey(path: context.path, id: throttle.id)
    let keys = context.keys + [key]
    switch core.registry.openThrottleWindow(key, latest: throttle.latest) {
    case .opened:
      start(throttle.effect, in: context.with(keys: keys, dependencies: dependencies))
      startThrottleWindow(
        key, keys: keys, sleep: throttle.sleep, group: context.group,
        path: context.path, dependencies: dependencies, startedBy: context.action)
    case .holdsBack:
      let pending = EffectRegistry<Action>.PendingThrottle(
        effect: throttle.effect, group: context.group, dependencies: dependencies, keys: keys,
        origin: context.action,
        heldID: registerHeldBack(keys: keys, path: context.path, in: context))
      if let released = core.registry.holdBack(pending, for: key) { endHeldBack(released) }
    case .drops:
      return
    }
  }

  /// Registers the entry of an effect a throttle window holds back, in the group of the send
  /// that returned it, under its ids and path, with a task that waits to be cancelled.
  @inlinable
  func registerHeldBack(
    keys: [CancelKey], path: ReducerPath, in context: EffectContext<Action>
  ) -> UInt64 {
    let core = core
    let registry = core.registry
    let origin = EffectOrigin(action: context.action, fileID: "", line: 0)
    let id = registry.register(
      kind: .heldBack, keys: keys, path: path, group: context.group,
      origin: core.storage.pointee.tracksProvenance ? origin : nil)
    let task = Task.immediate { @MainActor [weak core] in
      await waitUntilCancelled()
      if let core { core.effectFinished(id) } else { registry.complete(id) }
    }
    registry.attach(task, to: id)
    return id
  }

  /// Ends the entry of a held-back effect the window started or dropped, in this turn.
  @inlinable
  func endHeldBack(_ id: UInt64) {
    core.registry.cancelHeld([id])
    core.effectFinished(id)
  }

  @inlinable
  func startThrottleWindow(
    _ key: CancelKey,
    keys: [CancelKey],
    sleep: @escaping Effect<Action>.Throttle.Sleep,
    group: EffectGroup,
    path: ReducerPath,
    dependencies: DependencyValues,
    startedBy action: Action
  ) {
    let core = core
    let origin = EffectOrigin(action: action, fileID: "", line: 0)
    // Under the ids around the throttle too: cancelling one of them closes the window.
    let id = core.registry.register(
      kind: .throttleWindow, keys: keys, path: path, group: group,
      origin: core.storage.pointee.tracksProvenance ? origin : nil)
    let registry = core.registry
    registry.setThrottleWindow(key, effect: id)
    let closeWindow: @MainActor @Sendable () -> Void = { [weak core] in
      guard let core else { return }
      let interpreter = core.interpreter
      let pending: EffectRegistry<Action>.PendingThrottle
      switch registry.closeThrottleWindow(key) {
      case .closed: return
      case .drops(let heldID):
        interpreter.endHeldBack(heldID)
        return
      case .runs(let held): pending = held
      }
      interpreter.start(
        pending.effect,
        in: EffectContext(
          group: pending.group, action: pending.origin,
          scope: EffectScope(path: path, keys: pending.keys, dependencies: pending.dependencies)))
      interpreter.startThrottleWindow(
        key, keys: pending.keys, sleep: sleep, group: pending.group, path: path,
        dependencies: pending.dependencies, startedBy: pending.origin)
      // After the effect is registered in the group, so the group does not empty between.
      interpreter.endHeldBack(pending.heldID)
    }
    // The window's sleep reports its suspension on a test clock through the handle.
    let handle = EffectHandle(id: id, registry: registry)
    let task = Suspension.withObserver(handle) {
      Task.immediate { @MainActor [weak core] in
        registry.markStarted(id)
        let elapsed: Bool
        do {
          try await sleep()
          elapsed = !Task.isCancelled
        } catch {
          elapsed = false
        }
        if elapsed {
          closeWindow()
        }
        if let core { core.effectFinished(id) } else { registry.complete(id) }
      }
    }
    registry.attach(task, to: id)
  }
}
