import Observation

/// One value a store's readers read: a field, the whole state, which part is there. Armed by a
/// read, it remembers the value read; checked after a batch, it reports whether the value
/// changed: by `==` when the value is `Equatable`, or else whenever it is checked. Disarmed, it
/// keeps nothing: a value the state lets go of is not held here.
///
/// It is the `Observable` subject its readers are registered with, with a registrar of its own
/// (one key path per registrar is what Observation finds fastest). Readers are registered
/// under one of two names, which alternate each time the watch changes: a reader that reads
/// again while the change is being told (in its callback) is registered under the next name,
/// so it is told of the next change, not once more of this one.
@MainActor
class Watch<State>: Observable {
  let registrar = ObservationRegistrar()
  private let names: (KeyPath<Watch<State>, Int>, KeyPath<Watch<State>, Int>)
  private var usesSecondName = false
  var isArmed = false

  init() {
    self.names = (\Watch<State>.readers, \Watch<State>.nextReaders)
  }

  /// The names readers are registered under; they have no value of their own.
  var readers: Int { 0 }
  var nextReaders: Int { 0 }

  /// The name readers are registered under now.
  private var name: KeyPath<Watch<State>, Int> { usesSecondName ? names.1 : names.0 }

  /// Registers a reader of the value, inside an observation-tracking scope.
  func registerReader() {
    registrar.access(self, keyPath: name)
  }

  /// Disarms the watch for a change, and returns what tells its readers (after the check):
  /// the readers registered until now, not those registered from now on.
  func change() -> Change {
    disarm()
    let change = Change(watch: self, name: name)
    usesSecondName.toggle()
    return change
  }

  /// Readers to tell of a change.
  struct Change {
    let watch: Watch<State>
    let name: KeyPath<Watch<State>, Int>
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

extension Watch.Change: ChangedWatch {
  func notify() {
    watch.registrar.withMutation(of: watch, keyPath: name) {}
  }
}

/// A value kept by a watch while it is armed (a reference: an optional of a generic value would
/// cost a metadata lookup at each check).
final class Remembered<Value> {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A watch of an `Equatable` value, which has changed when it is no longer `==` to the value
/// remembered.
@MainActor
final class EquatableWatch<State, Value: Equatable>: Watch<State> {
  let read: (State) -> Value
  var last: Remembered<Value>?

  init(read: @escaping (State) -> Value) {
    self.read = read
    super.init()
  }

  override func arm(_ state: State) {
    isArmed = true
    last = Remembered(read(state))
  }

  override func hasChanged(_ state: State) -> Bool {
    guard let last else { return true }
    return last.value != read(state)
  }

  override func disarm() {
    isArmed = false
    last = nil
  }
}

/// A value that says when it was last written: an identified array.
protocol WriteStamped {
  var writeStamp: UInt64 { get }
  /// Whether this value was written from the one that had `stamp` (or is it).
  func descends(from stamp: UInt64) -> Bool
}

extension IdentifiedArray: WriteStamped {
  func descends(from stamp: UInt64) -> Bool {
    _writes.firstWrite(after: stamp) != nil
  }
}

/// A watch of an identified array. While each array read was written from the one before, it
/// compares stamps and keeps no copy (a copy would make the next write of a row copy every
/// row): written is changed (a row, even with an equal value; rows added, removed or moved).
/// When an array is not written from the one before (a computed one, made anew at each read,
/// or one that replaced it), it keeps the array read and compares by `==`, when its elements
/// are `Equatable`.
@MainActor
final class StampWatch<State, Value: WriteStamped>: Watch<State> {
  let read: (State) -> Value
  let isEqual: ((Value, Value) -> Bool)?
  var lastStamp: UInt64 = 0
  /// The array read, kept once arrays are not written from one another.
  var last: Remembered<Value>?
  var comparesValues = false

  init(read: @escaping (State) -> Value) {
    self.read = read
    self.isEqual = equality(of: Value.self)
    super.init()
  }

  override func arm(_ state: State) {
    isArmed = true
    let value = read(state)
    // A computed array is a new array at each read: read again to tell.
    if !comparesValues, isEqual != nil, read(state).writeStamp != value.writeStamp {
      comparesValues = true
    }
    lastStamp = value.writeStamp
    last = comparesValues ? Remembered(value) : nil
  }

  override func hasChanged(_ state: State) -> Bool {
    let value = read(state)
    if value.writeStamp == lastStamp { return false }
    if value.descends(from: lastStamp) {
      comparesValues = false
      last = nil
      return true
    }
    comparesValues = isEqual != nil
    defer {
      lastStamp = value.writeStamp
      last = comparesValues ? Remembered(value) : nil
    }
    guard let isEqual, let last else { return true }
    return !isEqual(last.value, value)
  }

  override func disarm() {
    isArmed = false
    last = nil
  }
}

/// A watch of the value `read` returns: a `StampWatch` for an identified array, an
/// `EquatableWatch` for another `Equatable` value, or else one that counts the value as changed
/// whenever it is checked.
@MainActor
func makeWatch<State, Value>(read: @escaping (State) -> Value) -> Watch<State> {
  if let stamped = Value.self as? any WriteStamped.Type {
    func open<W: WriteStamped>(_: W.Type) -> Watch<State> {
      // As below: `W` is `Value`, so the cast changes only the static type.
      StampWatch(read: unsafeBitCast(read, to: ((State) -> W).self))
    }
    return open(stamped)
  }
  guard let equatable = Value.self as? any Equatable.Type else { return Watch() }
  func open<E: Equatable>(_: E.Type) -> Watch<State> {
    // `E` is `Value` (it is `Value.self`, cast), so the two function types are one type and
    // the cast changes nothing but the static type: `read` is called as it was made.
    EquatableWatch(read: unsafeBitCast(read, to: ((State) -> E).self))
  }
  return open(equatable)
}

/// `==` for values of `type`, when it is `Equatable`.
func equality<Value>(of type: Value.Type) -> ((Value, Value) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  func compare<E: Equatable>(_: E.Type) -> (Value, Value) -> Bool {
    { ($0 as? E) == ($1 as? E) }
  }
  return compare(equatable)
}
