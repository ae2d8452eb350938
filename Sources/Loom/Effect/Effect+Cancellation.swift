extension Effect {
  /// Returns an effect that can be cancelled with ``cancel(id:)`` using the same id.
  ///
  /// Ids are scoped to the reducer that returns the effect: two stores, two sibling `Scope`s or
  /// two `forEach` elements that use the same id never cancel each other's effects, and a child
  /// cancelling an id never cancels its parent's effects.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value; an enum case is the usual choice.
  ///   - cancelInFlight: Whether to cancel the effects already registered under `id` before this
  ///     one starts.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = operation, !cancelInFlight { return self }
    return Self(operation: .cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every in-flight effect registered under `id` by the same reducer.
  ///
  /// Cancelling works even when the effect has not started running yet. Actions sent by a
  /// cancelled effect are dropped.
  ///
  /// ```swift
  /// case .onDisappear:
  ///   return .cancel(id: CancelID.liveUpdates)
  /// ```
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: EffectID(id)))
  }

  /// Marks an effect as returned by the child reducer at `component`, so its cancellation ids
  /// live in the child's namespace and it is cancelled when the child goes away.
  func scoped(_ component: EffectID) -> Self {
    if case .none = operation { return self }
    return Self(operation: .scoped(component, self))
  }

  /// Cancels every effect started under the child at `component`.
  static func cancelScope(_ component: EffectID) -> Self {
    Self(operation: .cancelScope(component))
  }

  /// Runs this effect with the given dependencies.
  func withDependencies(_ values: DependencyValues) -> Self {
    if case .none = operation { return self }
    return Self(operation: .dependencies(values, self))
  }
}

extension Effect {
  /// Lifts a child's effect returned by the reducer at `keyPath` (a `Scope`'s) into the parent's
  /// action type and the child's cancellation namespace. Composition reducers call this only for
  /// effects that are not `.none`.
  @usableFromInline
  static func _lift<ChildAction, ParentState, ChildState>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: KeyPath<ParentState, ChildState>
  ) -> Self {
    effect.map(embed).scoped(EffectID(ScopeStep(keyPath)))
  }

  /// Lifts an effect returned by the row `id` of the collection at `keyPath` (a `forEach`'s).
  @usableFromInline
  static func _lift<ChildAction, ParentState, ID: Hashable & Sendable, Element>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: KeyPath<ParentState, IdentifiedArray<ID, Element>>,
    id: ID
  ) -> Self {
    effect.map(embed).scoped(EffectID(ElementStep(keyPath, id: id, presence: .row)))
  }

  /// Lifts an effect returned by the element `id` of the stack at `keyPath`.
  @usableFromInline
  static func _lift<ChildAction, ParentState, Element>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: KeyPath<ParentState, StackState<Element>>,
    id: StackScopeID
  ) -> Self {
    effect.map(embed).scoped(EffectID(ElementStep(keyPath, id: id)))
  }

  /// Lifts an effect returned by the presentation `id` at `keyPath` (an `ifLet`'s over
  /// `@Presents`).
  @usableFromInline
  static func _lift<ChildAction, ParentState, ChildState>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: KeyPath<ParentState, PresentationState<ChildState>>,
    id: PresentationID
  ) -> Self {
    effect.map(embed).scoped(EffectID(ElementStep(keyPath, id: id)))
  }

  /// Lifts an effect returned by the optional child at `keyPath` (an `ifLet`'s), `child` (its
  /// identity, for an `Identifiable` one, is the step's: see `_ChildIdentity`).
  @usableFromInline
  static func _lift<ChildAction, ParentState, ChildState>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    atOptional keyPath: KeyPath<ParentState, ChildState?>,
    child: ChildState?
  ) -> Self {
    let identity = child.flatMap { _ChildIdentity(of: $0) }
    return effect.map(embed).scoped(EffectID(OptionalStep(keyPath, identity: identity)))
  }

  /// Lifts an effect returned by `child`, in the case `extract` finds, composed at `location`
  /// (an `ifCaseLet`'s; the child's identity, for an `Identifiable` one, is the step's).
  @usableFromInline
  static func _lift<ChildAction, ParentState, ChildState>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at location: CodeLocation,
    case extract: @escaping @Sendable (ParentState) -> ChildState?,
    child: ChildState
  ) -> Self {
    let step = CaseStep(location, extract: extract, identity: _ChildIdentity(of: child))
    return effect.map(embed).scoped(EffectID(step))
  }

  /// Cancels the effects of the optional child at `keyPath` (an `ifLet` whose state became
  /// `nil`).
  @usableFromInline
  static func _cancelChild<ParentState, ChildState>(
    atOptional keyPath: KeyPath<ParentState, ChildState?>
  ) -> Self {
    .cancelScope(EffectID(OptionalStep(keyPath)))
  }

  /// Cancels the effects of the rows with the given ids (removed from a `forEach`).
  @usableFromInline
  static func _cancelElements<ParentState, ID: Hashable & Sendable, Element>(
    _ ids: some Sequence<ID>, at keyPath: KeyPath<ParentState, IdentifiedArray<ID, Element>>
  ) -> Self {
    .merge(ids.map { .cancelScope(EffectID(ElementStep(keyPath, id: $0, presence: .row))) })
  }

  /// Cancels the effects of the stack elements with the given ids (popped).
  @usableFromInline
  static func _cancelElements<ParentState, Element>(
    _ ids: some Sequence<StackScopeID>, at keyPath: KeyPath<ParentState, StackState<Element>>
  ) -> Self {
    .merge(ids.map { .cancelScope(EffectID(ElementStep(keyPath, id: $0))) })
  }

  /// Cancels the effects of the presentations with the given ids (ended).
  @usableFromInline
  static func _cancelElements<ParentState, ChildState>(
    _ ids: some Sequence<PresentationID>,
    at keyPath: KeyPath<ParentState, PresentationState<ChildState>>
  ) -> Self {
    .merge(ids.map { .cancelScope(EffectID(ElementStep(keyPath, id: $0))) })
  }

  /// Cancels the effects of the child composed at `location` (an `ifCaseLet` whose case
  /// changed).
  @usableFromInline
  static func _cancelChild<ParentState, ChildState>(
    at location: CodeLocation, case extract: @escaping @Sendable (ParentState) -> ChildState?
  ) -> Self {
    .cancelScope(EffectID(CaseStep(location, extract: extract)))
  }
}
