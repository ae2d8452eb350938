/// What one step of a reducer path finds in the state of the step before it.
enum StatePart {
  /// The part the step names, there.
  case present(Any)
  /// The part the step names is not there any more: an optional child set to `nil`, a row
  /// removed, a stack element popped, a presentation ended or replaced, another case of an enum.
  case gone
  /// The step cannot tell from the state (a type it does not know): nothing below it is judged.
  case unknown
}

/// One step of a reducer path: the `Scope`, `ifLet`, `forEach` row or element, or `ifCaseLet`
/// an effect crossed on its way up, which names the child's part of its parent's state.
///
/// A step can find its part in its parent's state, so that the root can tell, after every
/// action, whether the child whose effects run is still there, whoever changed the state (the
/// child's parent, or an ancestor above it). Steps are classes so that the root reaches one in a
/// type-erased path with a class cast: a cast to a protocol looked its conformance up at run time
/// (about 5,000 instructions a step).
///
/// A step is immutable: its subclasses hold only `let`s of immutable values (key paths, ids, a
/// `@Sendable` closure), so sharing one across tasks cannot race.
class PathStep: Hashable, @unchecked Sendable {
  /// What the root checks of the part this step names after each action.
  enum Presence {
    /// Always there (a `Scope`'s child): walked through.
    case always
    /// Can be gone (an optional child, a stack element, a presentation, an enum case): checked.
    case checked
    /// A row of a `forEach`: walked through, and found gone when removed, but not a reason to
    /// check a path: a list can hold thousands of rows with effects, and checking each after
    /// every action would cost O(rows) per action. A row's own effects are left to its
    /// `forEach`, which cancels them when an action for a row it no longer holds arrives.
    case row
  }

  let presence: Presence

  init(presence: Presence) {
    self.presence = presence
  }

  /// The part this step names in `parent`, the state of the step before it.
  func part(of parent: Any) -> StatePart { .unknown }

  /// Whether `other`, of the same class, names the same part.
  func isEqual(to other: PathStep) -> Bool { false }

  func hash(into hasher: inout Hasher) {}

  static func == (lhs: PathStep, rhs: PathStep) -> Bool {
    type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs)
  }
}

extension ReducerPath {
  /// What the root checks of this path after each action: the path up to its last step that
  /// can end other than a row (a presentation, an optional child, a stack element, a case),
  /// rows before it included; `nil` when there is none (see ``PathStep/Presence``). The
  /// effects of a row with nothing of that kind below it are left to the row's `forEach`.
  var checkedPrefix: ReducerPath? {
    var end = 0
    for (index, component) in components.enumerated() {
      switch (component.base as? PathStep)?.presence {
      case .always?, .row?: continue
      case .checked?: end = index + 1
      case nil: return end == 0 ? nil : ReducerPath(components: Array(components[..<end]))
      }
    }
    if end == 0 { return nil }
    return end == components.count ? self : ReducerPath(components: Array(components[..<end]))
  }

  /// The shortest prefix of this path that names a part `root` no longer holds, or `nil` when
  /// every part is there (or a step cannot tell).
  ///
  /// - Complexity: O(*d*) key path reads and casts for a path *d* steps deep.
  func prefixGone(in root: Any) -> ReducerPath? {
    var value = root
    for (index, component) in components.enumerated() {
      guard let step = component.base as? PathStep else { return nil }
      switch step.part(of: value) {
      case .present(let part): value = part
      case .gone: return ReducerPath(components: Array(components[...index]))
      case .unknown: return nil
      }
    }
    return nil
  }
}

// MARK: - Steps

// Restated, as the language requires; safe as `PathStep` is: only immutable `let`s.
/// A `Scope`'s step: its child is always there.
final class ScopeStep<Parent, Child>: PathStep, @unchecked Sendable {
  let keyPath: KeyPath<Parent, Child>

  init(_ keyPath: KeyPath<Parent, Child>) {
    self.keyPath = keyPath
    super.init(presence: .always)
  }

  override func part(of parent: Any) -> StatePart {
    guard let parent = parent as? Parent else { return .unknown }
    return .present(parent[keyPath: keyPath])
  }

  override func isEqual(to other: PathStep) -> Bool {
    keyPath == unsafeDowncast(other, to: Self.self).keyPath
  }

  override func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }
}

// Restated, as the language requires; safe as `PathStep` is: only immutable `let`s.
/// An `ifLet`'s step over an optional child: gone when the child is `nil`.
final class OptionalStep<Parent, Child>: PathStep, @unchecked Sendable {
  let keyPath: KeyPath<Parent, Child?>
  /// The identity of the child whose effects the step names, for an `Identifiable` child: one
  /// of another id there is another child, and this one is gone (see `_ChildIdentity`).
  let identity: _ChildIdentity?

  init(_ keyPath: KeyPath<Parent, Child?>, identity: _ChildIdentity? = nil) {
    self.keyPath = keyPath
    self.identity = identity
    super.init(presence: .checked)
  }

  override func part(of parent: Any) -> StatePart {
    guard let parent = parent as? Parent else { return .unknown }
    guard let child = parent[keyPath: keyPath], isSame(child, as: identity) else { return .gone }
    return .present(child)
  }

  override func isEqual(to other: PathStep) -> Bool {
    let other = unsafeDowncast(other, to: Self.self)
    return keyPath == other.keyPath && identitiesMatch(identity, other.identity)
  }

  // Not the identity: a step without one (cancelling a child that left) equals each with one.
  override func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }
}

/// Whether `child` is the child of `identity` (any child, without one).
private func isSame(_ child: Any, as identity: _ChildIdentity?) -> Bool {
  guard let identity else { return true }
  return _ChildIdentity(of: child) == identity
}

/// Whether two steps' identities name the same child: equal, or either unknown (a step with
/// none names every child of its place, as a cancellation of the child that left does).
private func identitiesMatch(_ lhs: _ChildIdentity?, _ rhs: _ChildIdentity?) -> Bool {
  guard let lhs, let rhs else { return true }
  return lhs == rhs
}

// Restated, as the language requires; safe as `PathStep` is: only immutable `let`s.
/// An `ifCaseLet`'s step: gone when the parent's state is in another case. Two steps are the same
/// when the same call site made them.
final class CaseStep<Parent, Child>: PathStep, @unchecked Sendable {
  let location: CodeLocation
  let extract: @Sendable (Parent) -> Child?
  /// The child's identity, for an `Identifiable` child (see `OptionalStep`).
  let identity: _ChildIdentity?

  init(
    _ location: CodeLocation, extract: @escaping @Sendable (Parent) -> Child?,
    identity: _ChildIdentity? = nil
  ) {
    self.location = location
    self.extract = extract
    self.identity = identity
    super.init(presence: .checked)
  }

  override func part(of parent: Any) -> StatePart {
    guard let parent = parent as? Parent else { return .unknown }
    guard let child = extract(parent), isSame(child, as: identity) else { return .gone }
    return .present(child)
  }

  override func isEqual(to other: PathStep) -> Bool {
    let other = unsafeDowncast(other, to: Self.self)
    return location == other.location && identitiesMatch(identity, other.identity)
  }

  // Not the identity (see `OptionalStep`).
  override func hash(into hasher: inout Hasher) { hasher.combine(location) }
}

// Restated, as the language requires; safe as `PathStep` is: only immutable `let`s.
/// A step to one part of a collection of parts found by id (a `forEach` row, a stack element, a
/// presentation): gone when the collection at the key path does not hold it.
final class ElementStep<Parent, Parts: PartsByID>: PathStep, @unchecked Sendable {
  let keyPath: KeyPath<Parent, Parts>
  let id: Parts.PartID

  /// `presence` is `.row` for a `forEach`'s rows.
  init(_ keyPath: KeyPath<Parent, Parts>, id: Parts.PartID, presence: Presence = .checked) {
    self.keyPath = keyPath
    self.id = id
    super.init(presence: presence)
  }

  override func part(of parent: Any) -> StatePart {
    guard let parent = parent as? Parent else { return .unknown }
    return parent[keyPath: keyPath].part(id: id)
  }

  override func isEqual(to other: PathStep) -> Bool {
    let other = unsafeDowncast(other, to: Self.self)
    return id == other.id && keyPath == other.keyPath
  }

  override func hash(into hasher: inout Hasher) {
    hasher.combine(keyPath)
    hasher.combine(id)
  }
}

/// A collection of parts, each found by an id of its own.
protocol PartsByID {
  associatedtype PartID: Hashable & Sendable
  func part(id: PartID) -> StatePart
}

extension IdentifiedArray: PartsByID {
  func part(id: ID) -> StatePart {
    self[id: id].map(StatePart.present) ?? .gone
  }
}

extension StackState: PartsByID {
  func part(id: StackScopeID) -> StatePart {
    guard let position = components.index(id: id.element), tokens[position] == id.token else {
      return .gone
    }
    return .present(components[position].element)
  }
}

extension PresentationState: PartsByID {
  func part(id: PresentationID) -> StatePart {
    guard presentationID == id, let storage else { return .gone }
    return .present(storage)
  }
}

/// A stack element's id in a reducer path: the element's id in its stack, and its token (an id
/// names an element in one stack's history only; see `StackState.tokens`).
@usableFromInline
struct StackScopeID: Hashable, Sendable {
  @usableFromInline let element: StackElementID
  @usableFromInline let token: UInt64

  @inlinable
  init(element: StackElementID, token: UInt64) {
    self.element = element
    self.token = token
  }
}
