/// The identity of a child's state, for an `ifLet` or `ifCaseLet` over an `Identifiable` one:
/// its `id`. Another id in the child's place is another child, whose start ends the effects of
/// the one it replaced, as the child's leaving does (TCA's navigation ids do the same).
@usableFromInline
struct _ChildIdentity: Hashable, @unchecked Sendable {
  // Safe to send: made only from a `Sendable` id (`init`), which `AnyHashable` holds as it is,
  // and never changed.
  @usableFromInline let id: AnyHashable

  @inlinable
  init<ID: Hashable & Sendable>(_ id: ID) {
    self.id = AnyHashable(id)
  }
}

/// Reads the identity of an `Identifiable` child's state.
@usableFromInline
typealias _ChildIdentify<State> = @Sendable (State) -> _ChildIdentity
