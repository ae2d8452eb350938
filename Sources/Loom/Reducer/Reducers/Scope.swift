/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// The child's effects are lifted into the parent's action type, and their cancellation ids are
/// kept apart from the parent's and from sibling scopes'.
///
/// ```swift
/// struct Parent: Reducer {
///   struct State { var counter = Counter.State() }
///   enum Action: Sendable { case counter(Counter.Action) }
///
///   var body: some ReducerOf<Self> {
///     Scope(state: \.counter, action: .counter) { Counter() }
///   }
/// }
///
/// extension CasePath where Root == Parent.Action, Value == Counter.Action {
///   static var counter: Self { Self(Parent.Action.counter) { if case .counter(let a) = $0 { a } else { nil } } }
/// }
/// ```
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Creates a reducer that runs `child` on `state` for the actions `action` extracts.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if effect.isNone { return .none }
    return ._lift(effect, embed: toChildAction._embed, at: toChildState)
  }
}
