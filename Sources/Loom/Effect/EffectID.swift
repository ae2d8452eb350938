/// A type-erased, sendable, hashable value: the identity of a cancellable effect or of one step
/// in a reducer path.
struct EffectID: Hashable, Sendable {
  let base: any Hashable & Sendable

  init(_ base: some Hashable & Sendable) {
    if let id = base as? EffectID {
      self = id
    } else {
      self.base = base
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    func isEqual<T: Hashable>(_ lhs: T) -> Bool { (rhs.base as? T) == lhs }
    return isEqual(lhs.base)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    hasher.combine(base)
  }
}

/// A key path wrapped so it can name a place in a reducer path.
///
/// Key paths are immutable once created and the standard library infers `Sendable` for key path
/// literals that capture nothing (SE-0418); the erased `AnyKeyPath` simply lacks the conformance.
/// This wrapper only ever hashes and compares the key path, never reads through it, so sharing it
/// across tasks cannot race.
struct KeyPathID: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
}

/// The path from the root reducer to the reducer that returned an effect: one `EffectID` per
/// `Scope`, `ifLet`, `forEach` element or `ifCaseLet` crossed on the way down.
struct ReducerPath: Hashable, Sendable {
  var components: [EffectID] = []

  func appending(_ component: EffectID) -> ReducerPath {
    ReducerPath(components: components + [component])
  }

  func hasPrefix(_ prefix: ReducerPath) -> Bool {
    components.starts(with: prefix.components)
  }
}

/// An effect id qualified by the reducer path that used it, so that two features using the same
/// id never cancel each other.
struct CancelKey: Hashable, Sendable {
  let path: ReducerPath
  let id: EffectID
}
