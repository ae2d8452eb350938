extension Reducer {
  /// Runs a presented child: its ``PresentationAction/presented(_:)`` actions run the child
  /// reducer on the presented value, in place, and ``PresentationAction/dismiss`` sets it to
  /// `nil` after the parent's reducer. The child's effects are cancelled when its presentation
  /// ends, whoever ends it: the child (its effects call `dismiss`, ``DismissEffect``), the
  /// parent (setting the state to `nil` or to a value of another identity), the child
  /// switching its own case, or an ancestor setting the state through a parent of this reducer
  /// (the store sees that after the ancestor's action, and cancels them then).
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // …
  ///     return .none
  ///   }
  ///   .ifLet(\.$destination, action: .destination) { Destination() }
  /// }
  /// ```
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> destination child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    _PresentationReducer(
      parent: self,
      child: child(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

public struct _PresentationReducer<Parent: Reducer, Child: Reducer>: Reducer {
  // The key path beside one reference to the rest (see `_ChildReducerParts`). Where the key
  // path literal is in sight, each access through `\.$destination` (a computed key path: a
  // property wrapper's projection) is a direct call of its accessors, instead of the run time's
  // key-path code (~2,000 instructions a write, ~900 a read); the parts' object is on the stack
  // where `reduce` is inlined (and `reduceChild`, to which it would otherwise escape). In a body
  // whose reducers together hold more than six parts, the run time's key-path code runs, as
  // before. 10 presentations deep (W11 (a)): 36.9k -> 13.4k instructions per action; with five
  // more parts in the body, 36.9k -> 38.4k (the parts object's life on the stack).
  @usableFromInline
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Child.State>>
  @usableFromInline
  let parts: _ChildReducerParts<Parent, Child, PresentationAction<Child.Action>>
  /// Whether each of the child's actions ends the presentation: an alert's or a dialog's.
  @usableFromInline let endsAfterEachAction: Bool

  @inlinable
  init(
    parent: Parent,
    child: Child,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Child.State>>,
    toPresentationAction: CasePath<Parent.Action, PresentationAction<Child.Action>>,
    callSite: _CallSite,
    endsAfterEachAction: Bool = false
  ) {
    self.toPresentationState = toPresentationState
    parts = _ChildReducerParts(
      parent: parent, child: child, toChildAction: toPresentationAction, callSite: callSite)
    self.endsAfterEachAction = endsAfterEachAction
  }

  @inlinable var parent: Parent { parts.parent }
  @inlinable var child: Child { parts.child }

  @inlinable
  var toPresentationAction: CasePath<Parent.Action, PresentationAction<Child.Action>> {
    parts.toChildAction
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let presentationAction = toPresentationAction.extract(from: action)
    // The presentation is changed through the key path only when it changes: the key path of a
    // property wrapper's projection writes back through a buffer it allocates. Reading it
    // copies the presentation state (its value is in a box: one reference).
    var (ended, before, childEffect, isAButton) =
      (PresentationID?.none, PresentationID?.none, Effect<Parent.Action>.none, false)
    var changesIt = presentationAction != nil
    if !changesIt {
      let endedByAnAncestor: Bool
      (before, endedByAnAncestor) = Self.look(at: state[keyPath: toPresentationState])
      changesIt = endedByAnAncestor
    }
    if changesIt {
      (ended, before, childEffect, isAButton) = reduceChild(
        presentationAction, in: &state[keyPath: toPresentationState], parentAction: action)
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    let ends: Bool
    switch presentationAction {
    case .dismiss?:
      ends = true
    case .presented?:
      // An alert's or a dialog's button: handled by the parent, it ends the presentation.
      ends = isAButton
    case nil:
      ends = false
    }
    var cancellations = ended.map { [$0] } ?? []
    if ends || state[keyPath: toPresentationState].presentationID != before,
      let changed = Self.end(&state[keyPath: toPresentationState], if: ends, since: before)
    {
      cancellations.append(changed)
    }
    guard !cancellations.isEmpty else {
      return .merge(childEffect, parentEffect)
    }
    return .merge(
      childEffect, parentEffect, ._cancelElements(cancellations, at: toPresentationState))
  }

  /// After the parent's reducer: ends the presentation if `ends` (unless the parent already
  /// presented another one, which stays), and returns `before` if the presentation is not that
  /// one any more (its effects are to be cancelled).
  @inlinable
  static func end(
    _ presentation: inout PresentationState<Child.State>, if ends: Bool,
    since before: PresentationID?
  ) -> PresentationID? {
    if ends, presentation.presentationID == before { presentation.wrappedValue = nil }
    guard let before, before != presentation.presentationID else { return nil }
    if presentation.runningID == before { presentation.runningID = nil }
    return before
  }

  /// The presentation's identity, and whether effects of a presentation ended without this
  /// reducer still run.
  @inlinable
  static func look(at presentation: PresentationState<Child.State>) -> (
    PresentationID?, endedByAnAncestor: Bool
  ) {
    let running = presentation.runningID
    return (presentation.presentationID, running != nil && running != presentation.presentationID)
  }

  /// The presentation whose effects ran and that is not the one presented any more, if any;
  /// forgotten.
  @inlinable
  static func endedWithoutUs(_ presentation: inout PresentationState<Child.State>)
    -> PresentationID?
  {
    guard let running = presentation.runningID, running != presentation.presentationID else {
      return nil
    }
    presentation.runningID = nil
    return running
  }

  /// Before the parent's reducer: the presentation an ancestor ended whose effects were running
  /// (forgotten; the store cancelled them after the ancestor's action, and cancelling them again
  /// costs nothing), the presentation's identity now, and the child's effects for a
  /// ``PresentationAction/presented(_:)`` action, which runs on the presentation there now.
  @inlinable @inline(__always)
  func reduceChild(
    _ presentationAction: PresentationAction<Child.Action>?,
    in presentation: inout PresentationState<Child.State>, parentAction: Parent.Action
  ) -> (
    ended: PresentationID?, before: PresentationID?, effect: Effect<Parent.Action>,
    isAButton: Bool
  ) {
    let ended = Self.endedWithoutUs(&presentation)
    let before = presentation.presentationID
    guard case .presented(let childAction)? = presentationAction else {
      return (ended, before, .none, false)
    }
    // Read before the child runs: its value is an alert or a dialog, or an enum case of one.
    var isAButton = endsAfterEachAction
    if !isAButton, isEnumType(Child.State.self), let value = presentation.storage {
      isAButton = Self.isAlertCase(value)
    }
    guard let (effect, id) = Self.run(child, childAction, on: &presentation) else {
      Self._reportMissingChild(action: parentAction, at: parts.callSite)
      return (ended, before, .none, false)
    }
    if effect.isNone { return (ended, before, .none, isAButton) }
    let embed = toPresentationAction._embed
    let lifted = Effect._lift(
      effect, embed: { embed(.presented($0)) }, at: toPresentationState, id: id
    )
    ._dismissing(with: embed(.dismiss))
    return (ended, before, lifted, isAButton)
  }

  /// Whether a destination enum's value is the case of an alert or a dialog, whose actions are
  /// its buttons, each of which ends the presentation. (Only an enum is reflected: most
  /// presented features are structs.)
  @usableFromInline
  static func isAlertCase(_ value: Child.State) -> Bool {
    Mirror(reflecting: value).children.first?.value is any _DismissedByItsActions
  }

  /// Runs the child on the presented value in place, and notes that the presentation's effects
  /// run; `nil` when nothing is presented.
  @inlinable
  static func run(
    _ child: Child, _ action: Child.Action, on presentation: inout PresentationState<Child.State>
  ) -> (Effect<Child.Action>, PresentationID)? {
    // Whether the child switched its identity (its case) matters only to effects already
    // running, which a new identity cancels: the identity (a reflection of the value) is read
    // only then. (No copy of the value is held while the child runs: it would share what the
    // value holds, and each write below would copy it.)
    //
    // Reached through a key path (`\.$child`, a computed projection: a getter and a setter,
    // applied directly or by the run time's writeback), the box is also held by the parent's
    // state until the key path writes back, so the child runs on a copy in a box of its own: one
    // allocation per level and action. Taking the presentation out of the state first keeps the
    // box unique, and saves ~450 instructions a level where the key path is applied directly,
    // but costs two more writes (~2,000 instructions each) where the run time applies it (a body
    // of more than six parts, see `_PresentationReducer`): measured, and not done.
    let identity =
      presentation.runningID == nil
      ? nil : presentation.storage.map(PresentationState<Child.State>.identity(of:))
    guard let effect = presentation.modifyPresented({ child.reduce(into: &$0, action: action) })
    else { return nil }
    if let identity { presentation.childDidRun(from: identity) }
    guard let id = presentation.presentationID else { return nil }
    if !effect.isNone { presentation.runningID = id }
    return (effect, id)
  }

  @usableFromInline
  static func _reportMissingChild(action: Parent.Action, at callSite: _CallSite) {
    DependencyValues.current.issueReporter(
      """
      An "ifLet" at \(callSite.location) received an action for a presented child when none was \
      presented:

        \(action)

      Make sure the parent does not send child actions after dismissing the child; the child's \
      effects are cancelled when it is dismissed, so this usually means the action was sent \
      from outside (a view or a parent effect).\(ActionSource.sentence)
      """,
      at: callSite.location
    )
  }
}
