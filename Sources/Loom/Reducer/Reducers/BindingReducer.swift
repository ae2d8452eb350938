/// Applies the ``BindingAction``s of a feature whose action is a ``BindableAction``: each sets
/// one field of the state. Other actions pass through unchanged.
///
/// Put it before the reducers that react to a field, so they see the field set:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///     .onChange(of: \.name) { _, _ in
///       Reduce { state, _ in
///         state.isSaved = false
///         return .none
///       }
///     }
///   Reduce { state, action in
///     // …
///     return .none
///   }
/// }
/// ```
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.apply(to: &state)
    return .none
  }
}
