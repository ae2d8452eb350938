/// Groups reducers so that a modifier applies to all of them.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   CombineReducers {
///     Scope(state: \.sidebar, action: .sidebar) { Sidebar() }
///     Reduce { state, action in .none }
///   }
///   .onChange(of: \.sidebar.selection) { _, _ in Reduce { _, _ in .send(.selectionChanged) } }
/// }
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Creates a reducer that runs the built reducers in order.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
