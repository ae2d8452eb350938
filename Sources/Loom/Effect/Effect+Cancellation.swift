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
  /// Lifts a child's effect returned by the reducer at `keyPath` into the parent's action type
  /// and the child's cancellation namespace. Composition reducers call this only for effects
  /// that are not `.none`.
  @usableFromInline
  static func _lift<ChildAction>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: AnyKeyPath
  ) -> Self {
    effect.map(embed).scoped(EffectID(KeyPathID(keyPath: keyPath)))
  }

  /// Lifts an effect returned by the element `id` of the collection at `keyPath`.
  @usableFromInline
  static func _lift<ChildAction, ID: Hashable & Sendable>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at keyPath: AnyKeyPath,
    id: ID
  ) -> Self {
    effect.map(embed).scoped(EffectID(ElementID(keyPath: KeyPathID(keyPath: keyPath), id: id)))
  }

  /// Lifts an effect returned by a child identified by the call site that composed it.
  @usableFromInline
  static func _lift<ChildAction>(
    _ effect: Effect<ChildAction>,
    embed: @escaping @Sendable (ChildAction) -> Action,
    at location: CodeLocation
  ) -> Self {
    effect.map(embed).scoped(EffectID(location))
  }

  /// Cancels the effects of the child at `keyPath` (an `ifLet` whose state became `nil`).
  @usableFromInline
  static func _cancelChild(at keyPath: AnyKeyPath) -> Self {
    .cancelScope(EffectID(KeyPathID(keyPath: keyPath)))
  }

  /// Cancels the effects of the elements with the given ids (removed from a `forEach`).
  @usableFromInline
  static func _cancelElements<ID: Hashable & Sendable>(
    _ ids: some Sequence<ID>, at keyPath: AnyKeyPath
  ) -> Self {
    .merge(
      ids.map { .cancelScope(EffectID(ElementID(keyPath: KeyPathID(keyPath: keyPath), id: $0))) }
    )
  }

  /// Cancels the effects of a child identified by its call site (an `ifCaseLet` whose case
  /// changed).
  @usableFromInline
  static func _cancelChild(at location: CodeLocation) -> Self {
    .cancelScope(EffectID(location))
  }
}

/// The path component of one element of a `forEach` collection.
struct ElementID<ID: Hashable & Sendable>: Hashable, Sendable {
  let keyPath: KeyPathID
  let id: ID
}
