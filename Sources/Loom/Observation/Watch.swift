import Observation

/// One value a store's readers read: a field, the whole state, which part is there. Armed by a
/// read, it remembers the value read; checked after a batch, it reports whether the value
/// changed: by `==` when the value is `Equatable`, or else whenever it is checked.
///
/// It is the `Observable` subject its readers are registered with, with a registrar of its own:
/// one key path per registrar is what Observation finds fastest.
@MainActor
class Watch<State>: Observable, ChangedWatch {
  let registrar = ObservationRegistrar()
  /// What readers are registered on (the watch's own key path, made once).
  let name: KeyPath<Watch<State>, Int>
  var isArmed = false

  init() {
    self.name = \Watch<State>.readers
  }

  /// The name readers are registered under; it has no value of its own.
  var readers: Int { 0 }

  /// Registers a reader of the value, inside an observation-tracking scope.
  func registerReader() {
    registrar.access(self, keyPath: name)
  }

  /// Tells the readers that the value changed.
  func notify() {
    registrar.withMutation(of: self, keyPath: name) {}
  }

  /// Arms it, remembering the value in `state`.
  func arm(_ state: State) {
    isArmed = true
  }

  /// Whether the value in `state` differs from the one remembered.
  func hasChanged(_ state: State) -> Bool { true }

  /// Disarms it, forgetting the value remembered.
  func disarm() {
    isArmed = false
  }
}

/// A watch of an `Equatable` value, which has changed when it is no longer `==` to the value
/// remembered.
@MainActor
final class EquatableWatch<State, Value: Equatable>: Watch<State> {
  let read: (State) -> Value
  /// The value read when it was armed (kept after, not to pay for an optional's metadata).
  var last: Value

  init(read: @escaping (State) -> Value, state: State) {
    self.read = read
    self.last = read(state)
    super.init()
  }

  override func arm(_ state: State) {
    isArmed = true
    last = read(state)
  }

  override func hasChanged(_ state: State) -> Bool {
    last != read(state)
  }
}

/// A value that says when it was last written: an identified array, whose watch compares
/// stamps and keeps no copy (a copy would make the next write of a row copy every row).
protocol WriteStamped {
  var writeStamp: UInt64 { get }
}

extension IdentifiedArray: WriteStamped {}

/// A watch of an identified array, which has changed when it was written (a row, even with an
/// equal value; rows added, removed or moved).
@MainActor
final class StampWatch<State, Value: WriteStamped>: Watch<State> {
  let read: (State) -> Value
  var last: UInt64

  init(read: @escaping (State) -> Value, state: State) {
    self.read = read
    self.last = read(state).writeStamp
    super.init()
  }

  override func arm(_ state: State) {
    isArmed = true
    last = read(state).writeStamp
  }

  override func hasChanged(_ state: State) -> Bool {
    last != read(state).writeStamp
  }
}

/// A watch of the value `read` returns: a `StampWatch` for an identified array, an
/// `EquatableWatch` for another `Equatable` value, or else one that counts the value as changed
/// whenever it is checked.
@MainActor
func makeWatch<State, Value>(read: @escaping (State) -> Value, state: State) -> Watch<State> {
  if let stamped = Value.self as? any WriteStamped.Type {
    func open<W: WriteStamped>(_: W.Type) -> Watch<State> {
      // As below: `W` is `Value`, so the cast changes only the static type.
      StampWatch(read: unsafeBitCast(read, to: ((State) -> W).self), state: state)
    }
    return open(stamped)
  }
  guard let equatable = Value.self as? any Equatable.Type else { return Watch() }
  func open<E: Equatable>(_: E.Type) -> Watch<State> {
    // `E` is `Value` (it is `Value.self`, cast), so the two function types are one type and
    // the cast changes nothing but the static type: `read` is called as it was made.
    EquatableWatch(read: unsafeBitCast(read, to: ((State) -> E).self), state: state)
  }
  return open(equatable)
}
