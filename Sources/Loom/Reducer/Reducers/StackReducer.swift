extension Reducer {
  /// Runs the elements of a navigation stack: an element's action runs the element reducer on
  /// that element, in place. After the parent's reducer, a ``StackAction/popFrom(id:)`` pops
  /// that element and those above it, and a ``StackAction/push(id:state:)`` pushes. The effects
  /// of every element no longer in the stack afterwards, whoever popped it (a pop action, the
  /// parent emptying the stack, the element dismissing itself), are cancelled, its children's
  /// too, and those of every element of a stack the parent replaced with another
  /// (`state.path = [a]`). An element's effects can dismiss it: `dismiss` (``DismissEffect``)
  /// sends `.popFrom(id:)` with its id; the effects of the element's own children (an `ifLet`
  /// inside it) dismiss the element too.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // …
  ///     return .none
  ///   }
  ///   .forEach(\.path, action: .path) { Path() }
  /// }
  /// ```
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CasePath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> destination element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _StackReducer(
      parent: self,
      element: element(),
      toStack: toStack,
      toStackAction: toStackAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

public struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer {
  // The key path beside one reference to the rest (see `_ChildReducerParts`).
  @usableFromInline let toStack: WritableKeyPath<Parent.State, StackState<Element.State>>
  @usableFromInline
  let parts: _ChildReducerParts<Parent, Element, StackAction<Element.State, Element.Action>>

  @inlinable
  init(
    parent: Parent,
    element: Element,
    toStack: WritableKeyPath<Parent.State, StackState<Element.State>>,
    toStackAction: CasePath<Parent.Action, StackAction<Element.State, Element.Action>>,
    callSite: _CallSite
  ) {
    self.toStack = toStack
    parts = _ChildReducerParts(
      parent: parent, child: element, toChildAction: toStackAction, callSite: callSite)
  }

  @inlinable var parent: Parent { parts.parent }
  @inlinable var element: Element { parts.child }
  @inlinable var callSite: _CallSite { parts.callSite }

  @inlinable
  var toStackAction: CasePath<Parent.Action, StackAction<Element.State, Element.Action>> {
    parts.toChildAction
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let stackAction = toStackAction.extract(from: action)
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction)? = stackAction {
      elementEffect = reduceElement(id: id, action: elementAction, in: &state, parentAction: action)
    }
    // In place (through `inout`, so the key path does not copy the stack).
    let (idsBefore, tokensBefore) = Self.snapshot(of: &state[keyPath: toStack])
    let parentEffect = parent.reduce(into: &state, action: action)
    switch stackAction {
    case .popFrom(let id)?:
      // Held when the action came, it is popped, unless the parent popped it already.
      if idsBefore.contains(id) {
        state[keyPath: toStack].pop(from: id)
      } else {
        _report("a pop of an element it does not hold (id: \(id))", action: action)
      }
    case .push(let id, let pushed)?:
      if !state[keyPath: toStack].append(pushed, id: id) {
        _report("a push with an id it already holds (id: \(id))", action: action)
      }
    case .element?, nil:
      break
    }
    let (_, tokensAfter) = Self.snapshot(of: &state[keyPath: toStack])
    // Elements are told apart by their tokens: an id names an element in one stack's history
    // only (a stack made anew, or a copy put back, gives an id again).
    guard tokensBefore != tokensAfter else { return .merge(elementEffect, parentEffect) }
    let remaining = Set(tokensAfter)
    let popped = zip(idsBefore, tokensBefore).lazy.filter { !remaining.contains($0.1) }.map {
      StackScopeID(element: $0.0, token: $0.1)
    }
    return .merge(elementEffect, parentEffect, ._cancelElements(popped, at: toStack))
  }

  @inlinable
  static func snapshot(
    of stack: inout StackState<Element.State>
  ) -> ([StackElementID], [UInt64]) {
    (stack.ids, stack.tokens)
  }

  @inlinable @inline(__always)
  func reduceElement(
    id: StackElementID, action elementAction: Element.Action, in state: inout Parent.State,
    parentAction: Parent.Action
  ) -> Effect<Parent.Action> {
    guard
      let (effect, token) = state[keyPath: toStack]._update(id: id, {
        element.reduce(into: &$0, action: elementAction)
      })
    else {
      _report("an action for an element it does not hold (id: \(id))", action: parentAction)
      return .none
    }
    if effect.isNone { return .none }
    let embed = toStackAction._embed
    // Named with the element's token: another stack may hold an element `id` that is not this.
    let scope = StackScopeID(element: id, token: token)
    return Effect._lift(
      effect, embed: { embed(.element(id: id, action: $0)) }, at: toStack, id: scope
    )
    ._dismissing(with: embed(.popFrom(id: id)))
  }

  @usableFromInline
  func _report(_ what: String, action: Parent.Action) {
    DependencyValues.current.issueReporter(
      """
      A "forEach" over a stack at \(callSite.location) received \(what):

        \(action)\(ActionSource.sentence)
      """,
      at: callSite.location
    )
  }
}

