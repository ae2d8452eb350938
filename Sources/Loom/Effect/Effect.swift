/// Work a reducer asks the store to do after it has changed state: send more actions, run
/// asynchronous operations, cancel earlier work.
///
/// Effects are plain values built with static factories and combined with operators; the store
/// interprets them. A reducer that has nothing to do returns `.none`.
///
/// ```swift
/// case .refreshTapped:
///   state.isLoading = true
///   return .run { send in
///     let items = try await client.fetch()
///     await send(.loaded(items))
///   } catch: { error, send in
///     await send(.failed(error.localizedDescription))
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  /// Only `none` and `send` are stored inline: a `.send` chain allocates nothing per action, and
  /// every other case is one boxed pointer, so an effect is no larger than its action (plus a
  /// tag) and stays cheap to return and copy.
  @usableFromInline
  enum Operation: Sendable {
    /// No work.
    case none
    /// Send an action synchronously, after the current action, in FIFO order.
    case send(Action)
    /// Run an asynchronous operation in its own task.
    indirect case run(Run)
    /// Run every effect concurrently.
    case merge([Effect])
    /// Run each effect after the previous one has finished.
    case concatenate([Effect])
    /// Register the inner effect under an id, optionally cancelling earlier ones first.
    indirect case cancellable(id: EffectID, cancelInFlight: Bool, Effect)
    /// Cancel every effect registered under the id at this reducer path.
    indirect case cancel(id: EffectID)
    /// The inner effect was returned by the child reducer at this path component.
    indirect case scoped(EffectID, Effect)
    /// Cancel every effect started under this path component (a child that went away).
    indirect case cancelScope(EffectID)
    /// Run the inner effect with these dependencies.
    indirect case dependencies(DependencyValues, Effect)
    /// Start the inner effect now unless a throttle window for the id is open.
    indirect case throttle(Throttle)
  }

  /// An asynchronous operation and what to do when it throws.
  ///
  /// Both are isolated to the main actor, where the store starts them, so an effect runs up to
  /// its first suspension before `send` returns and sending an action back never switches
  /// threads.
  ///
  /// They are `@MainActor` rather than `nonisolated(nonsending)`: a closure literal with a
  /// capture list (`{ [clock] send in … }`) passed as a `nonisolated(nonsending)` parameter is
  /// not inferred `nonisolated(nonsending)` by Swift 6.3, so it ran on the global executor, and a
  /// test that sent an action and then advanced a `TestClock` could advance it before the effect
  /// had begun to sleep.
  @usableFromInline
  struct Run: Sendable {
    @usableFromInline
    typealias Operation = @MainActor @Sendable (Send<Action>) async throws -> Void
    @usableFromInline
    typealias Handler = @MainActor @Sendable (any Error, Send<Action>) async -> Void

    @usableFromInline let priority: TaskPriority?
    @usableFromInline let operation: Operation
    @usableFromInline let handler: Handler?
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt

    init(
      priority: TaskPriority?,
      operation: @escaping Operation,
      handler: Handler?,
      fileID: StaticString,
      line: UInt
    ) {
      self.priority = priority
      self.operation = operation
      self.handler = handler
      self.fileID = fileID
      self.line = line
    }
  }

  /// A throttled effect and the window that throttles it.
  @usableFromInline
  struct Throttle: Sendable {
    @usableFromInline let id: EffectID
    @usableFromInline let latest: Bool
    @usableFromInline let sleep: Sleep

    @usableFromInline
    typealias Sleep = nonisolated(nonsending) @Sendable () async throws -> Void

    init(id: EffectID, latest: Bool, sleep: @escaping Sleep, effect: Effect) {
      self.id = id
      self.latest = latest
      self.sleep = sleep
      self.effect = effect
    }
    @usableFromInline let effect: Effect
  }

  @usableFromInline let operation: Operation

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  ///
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// An effect that sends an action synchronously, right after the current action (and any
  /// actions queued before it) has been processed.
  ///
  /// Use it to share logic between actions. It never re-enters the reducer: a chain of sends is
  /// processed in a loop, in FIFO order.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.didSave))
  /// ```
  @inlinable
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs an asynchronous operation in its own task.
  ///
  /// The operation receives a ``Send`` with which it can send any number of actions back to the
  /// store. It runs on the main actor, like the store, and starts before the action's `send`
  /// returns, so sending an action back costs no thread switch and a test sees the effect
  /// waiting on a test clock as soon as `send` returns; every `await` of a nonisolated async
  /// function (a network call, a file read) runs that function off the main actor. Move long
  /// synchronous computations into such a function rather than doing them inline. An error it
  /// throws goes to `handler` if there is one; otherwise the store reports a runtime warning
  /// naming the action that started the effect. Cancellation errors are never reported.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await event in client.updates() {
  ///     await send(.updateReceived(event))
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work to do.
  ///   - handler: Receives any non-cancellation error the operation throws.
  ///   - fileID: The file that created the effect, for failure messages; leave the default.
  ///   - line: The line that created the effect, for failure messages; leave the default.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @MainActor @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? =
      nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(
      operation: .run(
        Run(
          priority: priority, operation: operation, handler: handler, fileID: fileID, line: line)
      )
    )
  }

  /// An effect that runs all of the given effects at the same time.
  ///
  /// ```swift
  /// return .merge(.send(.loadFilters), .run { send in await send(.tick) })
  /// ```
  @inlinable
  @_disfavoredOverload  // two or three effects take `merge(_:_:)` or `merge(_:_:_:)`
  public static func merge(_ effects: Self...) -> Self {
    merging(effects)
  }

  /// An effect that runs both effects at the same time: the other one alone when one is
  /// `.none`, with no array made (reducers merge two effects at most actions, one of them
  /// usually `.none`).
  @inlinable
  public static func merge(_ first: Self, _ second: Self) -> Self {
    if first.isNone { return second }
    if second.isNone { return first }
    return Self(operation: .merge([first, second]))
  }

  /// An effect that runs the three effects at the same time: those that are not `.none`, with no
  /// array made unless all three are something (a reducer that merges its child's effects, its
  /// own and a cancellation usually returns one or two of them).
  @inlinable
  public static func merge(_ first: Self, _ second: Self, _ third: Self) -> Self {
    if first.isNone { return merge(second, third) }
    if second.isNone { return merge(first, third) }
    if third.isNone { return merge(first, second) }
    return Self(operation: .merge([first, second, third]))
  }

  /// An effect that runs all of the given effects at the same time.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    merging(Array(effects))
  }

  @inlinable
  static func merging(_ effects: [Self]) -> Self {
    let effects = withoutNone(effects)
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(operation: .merge(effects))
    }
  }

  /// The effects that are not `.none`, without copying the array when there are none to drop.
  @inlinable
  static func withoutNone(_ effects: [Self]) -> [Self] {
    var index = 0
    while index < effects.count {
      if effects[index].isNone { return effects.filter { !$0.isNone } }
      index += 1
    }
    return effects
  }

  /// An effect that runs each of the given effects after the previous one has finished.
  ///
  /// A `.send` has finished once its action is processed, a `.run` once its operation returns:
  /// the effects of the actions they send are those actions' own, and neither hold back the
  /// next effect nor end when this one is cancelled. If the concatenated effect is cancelled,
  /// the remaining effects never start.
  ///
  /// ```swift
  /// return .concatenate(.send(.willSave), .run { _ in try await client.save() }, .send(.didSave))
  /// ```
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    concatenating(effects)
  }

  /// An effect that runs each of the given effects after the previous one has finished.
  @inlinable
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    concatenating(Array(effects))
  }

  @inlinable
  static func concatenating(_ effects: [Self]) -> Self {
    let effects = withoutNone(effects)
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(operation: .concatenate(effects))
    }
  }

  /// Returns an effect that runs this effect and `other` at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    .merge(self, other)
  }

  /// Returns an effect that runs `other` after this effect has finished.
  @inlinable
  public func concatenate(with other: Self) -> Self {
    .concatenate(self, other)
  }

  /// Whether this effect is `.none`. The store uses it to skip all effect bookkeeping.
  @inlinable
  public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }
}
