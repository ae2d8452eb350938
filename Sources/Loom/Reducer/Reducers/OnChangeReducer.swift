extension Reducer {
  /// Runs another reducer when a value derived from the state changes after this reducer ran.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     if case .filterTapped(let filter) = action { state.filter = filter }
  ///     return .none
  ///   }
  ///   .onChange(of: \.filter) { oldFilter, newFilter in
  ///     Reduce { state, _ in .send(.filterChanged(newFilter)) }
  ///   }
  /// }
  /// ```
  @inlinable
  public func onChange<Value: Equatable, Change: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ change: @escaping (_ oldValue: Value, _ newValue: Value) ->
      Change
  ) -> _OnChangeReducer<Self, Value, Change> {
    _OnChangeReducer(base: self, toValue: toValue, change: change)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Change: Reducer<Base.State, Base.Action>>:
  Reducer
{
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let change: (Value, Value) -> Change

  @usableFromInline
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    change: @escaping (Value, Value) -> Change
  ) {
    self.base = base
    self.toValue = toValue
    self.change = change
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return effect }
    return .merge(effect, change(oldValue, newValue).reduce(into: &state, action: action))
  }
}
