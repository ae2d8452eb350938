extension Reducer {
  /// Runs a child reducer on each element of an ``IdentifiedArray``, for the element actions
  /// `action` extracts.
  ///
  /// The element's reducer runs in place (the collection is not copied) before this reducer.
  /// When this reducer removes elements, every effect they started is cancelled. An action for
  /// an id that is not in the collection is reported as a runtime issue and ignored.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in .none }
  ///     .forEach(\.rows, action: .rows) { Row() }
  /// }
  /// ```
  ///
  /// - Complexity: O(1) per element action; O(*n*) only when this reducer inserts or removes
  ///   elements.
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(
      parent: self,
      element: element(),
      toElements: toElements,
      toElementAction: toElementAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  // The key path beside one reference to the rest (see `_ChildReducerParts`). W3 (an action to
  // one of 1,000 rows): 1,209 -> 1,058 instructions.
  @usableFromInline
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline
  let parts: _ChildReducerParts<Parent, Element, IdentifiedAction<ID, Element.Action>>

  @inlinable
  init(
    parent: Parent,
    element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    callSite: _CallSite
  ) {
    self.toElements = toElements
    parts = _ChildReducerParts(
      parent: parent, child: element, toChildAction: toElementAction, callSite: callSite)
  }

  @inlinable var parent: Parent { parts.parent }
  @inlinable var element: Element { parts.child }
  @inlinable var callSite: _CallSite { parts.callSite }

  @inlinable
  var toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>> {
    parts.toChildAction
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // One in-place access (through `inout`, so the key path does not copy the collection) runs
    // the element and takes the snapshot of the ids.
    var elementEffect = Effect<Parent.Action>.none
    let idsBefore: [ID]
    if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
      idsBefore = reduceElement(
        id: id, action: elementAction, in: &state[keyPath: toElements], effect: &elementEffect,
        parentAction: action)
    } else {
      idsBefore = Self.ids(of: &state[keyPath: toElements])
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    let idsAfter = Self.ids(of: &state[keyPath: toElements])
    // `ids` keeps its own storage: when no element was inserted or removed both snapshots share
    // one buffer and this comparison is O(1).
    guard idsBefore != idsAfter else {
      return .merge(elementEffect, parentEffect)
    }
    let remaining = Set(idsAfter)
    let removed = idsBefore.filter { !remaining.contains($0) }
    return .merge(
      elementEffect, parentEffect, ._cancelElements(removed, at: toElements))
  }

  @inlinable
  static func ids(of elements: inout IdentifiedArray<ID, Element.State>) -> [ID] {
    elements.ids
  }

  /// Runs the element's reducer in place and returns the ids as they are afterwards.
  @inlinable @inline(__always)
  func reduceElement(
    id: ID,
    action elementAction: Element.Action,
    in elements: inout IdentifiedArray<ID, Element.State>,
    effect: inout Effect<Parent.Action>,
    parentAction: Parent.Action
  ) -> [ID] {
    guard
      let elementEffect = elements._update(id: id, {
        $0._modifyIfPresent({ element.reduce(into: &$0, action: elementAction) })
      })
    else {
      _reportMissingElement(id: id, action: parentAction)
      // Removed without this reducer (an ancestor changed the state; the store does not check
      // rows, see `PathStep.Presence`): effects of the row it ran may still be running, and
      // this action may be theirs.
      effect = ._cancelElements([id], at: toElements)
      return elements.ids
    }
    if !elementEffect.isNone {
      let embed = toElementAction._embed
      effect = ._lift(
        elementEffect, embed: { embed(.element(id: id, action: $0)) }, at: toElements, id: id)
    }
    return elements.ids
  }

  @usableFromInline
  func _reportMissingElement(id: ID, action: Parent.Action) {
    DependencyValues.current.issueReporter(
      """
      A "forEach" at \(callSite.location) received an action for a missing element (id: \(id)):

        \(action)

      Make sure elements are not removed while their effects can still send actions; their \
      effects are cancelled when they are removed, so this usually means the action was sent \
      from outside (a view or a parent effect).\(ActionSource.sentence)
      """,
      at: callSite.location
    )
  }
}

