/// A type-erased, sendable, hashable value: the identity of a cancellable effect or of one step
/// in a reducer path.
@usableFromInline
struct EffectID: Hashable, Sendable {
  @usableFromInline let base: any Hashable & Sendable
  /// The base's type and hash, computed once: a cancel id is hashed and compared on every effect
  /// registered, cancelled and finished, and going through the existential each time (opening
  /// it, a dynamic cast to compare) cost thousands of instructions per lookup.
  @usableFromInline let baseType: ObjectIdentifier
  @usableFromInline let baseHash: Int

  @inlinable
  init<Base: Hashable & Sendable>(_ base: Base) {
    if let id = base as? EffectID {
      self = id
    } else {
      self.base = base
      self.baseType = ObjectIdentifier(type(of: base))
      self.baseHash = base.hashValue
    }
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.baseHash == rhs.baseHash, lhs.baseType == rhs.baseType else { return false }
    // Both bases have the same type (checked above), so the right one is reinterpreted as the
    // left one's type rather than cast: a cast built `Optional<T>`'s metadata at run time on
    // every comparison.
    func isEqual<T: Hashable>(_ lhs: T) -> Bool {
      func isEqual<U: Hashable>(_ rhs: U) -> Bool { lhs == unsafeBitCast(rhs, to: T.self) }
      return isEqual(rhs.base)
    }
    return isEqual(lhs.base)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(baseType)
    hasher.combine(baseHash)
  }
}

/// The path from the root reducer to the reducer that returned an effect: one `EffectID` per
/// `Scope`, `ifLet`, `forEach` element or `ifCaseLet` crossed on the way down.
@usableFromInline
struct ReducerPath: Hashable, Sendable {
  @usableFromInline var components: [EffectID] = []

  @usableFromInline
  init(components: [EffectID] = []) {
    self.components = components
  }

  @usableFromInline
  func appending(_ component: EffectID) -> ReducerPath {
    ReducerPath(components: components + [component])
  }

  func hasPrefix(_ prefix: ReducerPath) -> Bool {
    components.starts(with: prefix.components)
  }
}

/// An effect id qualified by the reducer path that used it, so that two features using the same
/// id never cancel each other.
@usableFromInline
struct CancelKey: Hashable, Sendable {
  @usableFromInline let path: ReducerPath
  @usableFromInline let id: EffectID

  @usableFromInline
  init(path: ReducerPath, id: EffectID) {
    self.path = path
    self.id = id
  }
}
