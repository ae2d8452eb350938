extension Reducer {
  /// Runs a child reducer while the state enum is in one case, for the child's actions.
  ///
  /// When this reducer moves the state to another case, every effect the child started is
  /// cancelled; for an `Identifiable` child, also when a child of another `id` takes its place
  /// in the case (the effects of the one replaced are cancelled, after the action, as in TCA).
  /// A child action that arrives while the state is in another case is reported as a runtime
  /// issue and ignored.
  ///
  /// ```swift
  /// enum State { case loggedOut(Login.State), loggedIn(Home.State) }
  ///
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in .none }
  ///     .ifCaseLet(.loggedIn, action: .home) { Home() }
  /// }
  /// ```
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: CasePath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    _IfCaseLetReducer(
      parent: self,
      child: child(),
      toChildState: toChildState,
      toChildAction: toChildAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  // The case path beside one reference to the rest (see `_ChildReducerParts`).
  @usableFromInline let toChildState: CasePath<Parent.State, Child.State>
  @usableFromInline let parts: _ChildReducerParts<Parent, Child, Child.Action>

  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: CasePath<Parent.State, Child.State>,
    toChildAction: CasePath<Parent.Action, Child.Action>,
    callSite: _CallSite
  ) {
    self.toChildState = toChildState
    parts = _ChildReducerParts(
      parent: parent, child: child, toChildAction: toChildAction, callSite: callSite)
  }

  @inlinable var parent: Parent { parts.parent }
  @inlinable var child: Child { parts.child }
  @inlinable var toChildAction: CasePath<Parent.Action, Child.Action> { parts.toChildAction }
  @inlinable var callSite: _CallSite { parts.callSite }

  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childEffect = reduceChild(into: &state, action: action)
    let wasInCase = toChildState.extract(from: state) != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    // Two effects merged, or three only when the state left the case: the merge of an array
    // costs an allocation, and a look-up of its type, at every action.
    guard wasInCase, toChildState.extract(from: state) == nil else {
      return .merge(childEffect, parentEffect)
    }
    return .merge(
      .merge(childEffect, parentEffect),
      ._cancelChild(at: callSite.location, case: toChildState._extract))
  }

  @inlinable @inline(__always)
  func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard var childState = toChildState.extract(from: state) else {
      _reportMissingCase(action: action)
      // The case was left without this reducer, and the store could not tell (the child is
      // embedded by hand, not through `Scope`, so its path does not start at the root's state):
      // effects of the child it ran may still be running, and this action may be theirs.
      return ._cancelChild(at: callSite.location, case: toChildState._extract)
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = toChildState.embed(childState)
    if effect.isNone { return .none }
    return ._lift(
      effect, embed: toChildAction._embed, at: callSite.location, case: toChildState._extract,
      child: childState)
  }

  @usableFromInline
  func _reportMissingCase(action: Parent.Action) {
    DependencyValues.current.issueReporter(
      """
      An "ifCaseLet" at \(callSite.location) received a child action when the state was in another \
      case:

        \(action)\(ActionSource.sentence)
      """,
      at: callSite.location
    )
  }
}
