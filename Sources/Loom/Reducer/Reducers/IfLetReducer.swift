extension Reducer {
  /// Runs a child reducer on optional child state while it is present.
  ///
  /// The child runs before this reducer, so the parent sees the child's changes. When the parent
  /// sets the child state to `nil`, every effect the child started is cancelled; for an
  /// `Identifiable` child, also when a child of another `id` takes its place (the effects of the
  /// one replaced are cancelled, after the action, as in TCA). A child action
  /// that arrives while the state is `nil` is reported as a runtime issue (once per call site
  /// outside tests, as a failure under a test store) and ignored.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .showDetail: state.detail = Detail.State(); return .none
  ///     case .detail: return .none
  ///     }
  ///   }
  ///   .ifLet(\.detail, action: .detail) { Detail() }
  /// }
  /// ```
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    _IfLetReducer(
      parent: self,
      child: child(),
      toChildState: toChildState,
      toChildAction: toChildAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  // The key path beside one reference to the rest (see `_ChildReducerParts`).
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let parts: _ChildReducerParts<Parent, Child, Child.Action>

  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
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
    let wasPresent = state[keyPath: toChildState] != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    // Two effects merged, or three only when the child left: the merge of an array costs an
    // allocation, and a look-up of its type, at every action.
    guard wasPresent, state[keyPath: toChildState] == nil else {
      return .merge(childEffect, parentEffect)
    }
    return .merge(.merge(childEffect, parentEffect), ._cancelChild(atOptional: toChildState))
  }

  @inlinable @inline(__always)
  func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard
      let effect = state[keyPath: toChildState]._modifyIfPresent({
        child.reduce(into: &$0, action: childAction)
      })
    else {
      _reportMissingChild(action: action)
      return .none
    }
    if effect.isNone { return .none }
    return ._lift(
      effect, embed: toChildAction._embed, atOptional: toChildState,
      child: state[keyPath: toChildState])
  }

  @usableFromInline
  func _reportMissingChild(action: Parent.Action) {
    DependencyValues.current.issueReporter(
      """
      An "ifLet" at \(callSite.location) received a child action when its state was nil:

        \(action)

      Make sure the parent does not send child actions after setting the child state to nil, \
      and that effects of the child are cancelled when it is dismissed.\(ActionSource.sentence)
      """,
      at: callSite.location
    )
  }
}

extension Optional {
  /// Runs `body` on the wrapped value in place, without copying it, and returns its result; or
  /// returns `nil` when there is no value.
  @inlinable
  mutating func _modifyIfPresent<R>(_ body: (inout Wrapped) -> R) -> R? {
    guard case .some(var wrapped) = self else { return nil }
    self = .none
    defer { self = .some(wrapped) }
    return body(&wrapped)
  }
}

