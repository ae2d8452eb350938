extension Reducer {
  /// Overrides one dependency for this reducer and every effect it returns.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Scope(state: \.preview, action: .preview) {
  ///     Feature().dependency(\.uuid, .incrementing)
  ///   }
  /// }
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyReducer<Self> {
    _DependencyReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes dependencies for this reducer and every effect it returns.
  ///
  /// ```swift
  /// let reducer = Feature().dependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) }
  /// ```
  public func dependencies(
    _ update: @escaping (inout DependencyValues) -> Void
  ) -> _DependencyReducer<Self> {
    _DependencyReducer(base: self, update: update)
  }
}

/// The reducer built by ``Reducer/dependency(_:_:)`` and ``Reducer/dependencies(_:)``.
public struct _DependencyReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    DependencyValues.noteBinding(values)
    let effect = DependencyValues.$current.withValue(values) {
      base.reduce(into: &state, action: action)
    }
    return effect.withDependencies(values)
  }
}
