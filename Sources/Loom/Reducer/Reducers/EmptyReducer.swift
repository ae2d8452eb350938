/// A reducer that does nothing: it leaves the state alone and returns no effect.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   EmptyReducer()
/// }
/// ```
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }
}
