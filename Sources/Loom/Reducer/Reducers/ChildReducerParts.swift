/// What a reducer that runs a child on part of its state holds besides its path to that part:
/// its parent, its child, the case path to the child's actions and its call site.
///
/// `ifLet`, `forEach` (rows and stacks) and the presentation `ifLet` keep their key path beside
/// one reference to this, and `ifCaseLet` its case path: few parts, whatever the parent and the
/// child hold. A feature's `body`
/// is built anew at each action and inlined in its `reduce`, and the optimizer turns each access
/// through a key path it sees there into a direct one (a stored property's offset, a computed
/// property's accessors) only if it can take the built body apart, which it does for a value of
/// at most six parts (a stored property's parts counted down to its references, functions and
/// builtin values). Held inline, a case path (two functions) and a call site (two static strings
/// and two numbers) alone are more than that, and the run time's key-path code runs at every
/// action. The reducers' `reduce` is always inlined, so that this object is allocated on the
/// stack there.
@usableFromInline
final class _ChildReducerParts<Parent: Reducer, Child: Reducer, ChildAction> {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildAction: CasePath<Parent.Action, ChildAction>
  @usableFromInline let callSite: _CallSite

  @inlinable
  init(
    parent: Parent, child: Child, toChildAction: CasePath<Parent.Action, ChildAction>,
    callSite: _CallSite
  ) {
    self.parent = parent
    self.child = child
    self.toChildAction = toChildAction
    self.callSite = callSite
  }
}
