/// The identity of an `Identifiable` child's state, kept in the path step of the effects an
/// `ifLet` or `ifCaseLet` lifts from it: a child of another `id` in its place is another child,
/// and the store ends the effects of the one it replaced after the action that replaced it, as
/// when it leaves (TCA's navigation ids do the same).
///
/// Read at run time, and only where a child's effect is lifted or the store checks a child
/// whose effects run: an overload of `ifLet` for an `Identifiable` child made a chain of ten
/// `ifLet`s take over a second to type-check.
///
/// Kept as the child's type and its id's hash value, which are `Sendable` whatever the id is (a
/// step travels with its effect, and an id need not be `Sendable`): two ids with equal hashes
/// count as one, so a replacement whose new id collides with the old one (one chance in 2^64)
/// leaves the replaced child's effects to end when it leaves.
struct _ChildIdentity: Hashable, Sendable {
  let childType: ObjectIdentifier
  let hash: Int

  /// The identity of `child`, or `nil` when it is not `Identifiable`.
  init?(of child: Any) {
    let type = Swift.type(of: child)
    guard isIdentifiable(type), let identifiable = child as? any Identifiable else {
      return nil
    }
    self.childType = ObjectIdentifier(type)
    self.hash = Self.hash(of: identifiable)
  }

  private static func hash<Value: Identifiable>(of value: Value) -> Int {
    value.id.hashValue
  }
}
