import Observation

/// Where a watch's readers are registered: the `Observable` subject, with a registrar of its
/// own (one key path per registrar is what Observation finds fastest).
///
/// Readers are registered under one of two names, which alternate each time the watch
/// changes: a reader that reads again while the change is being told (in its callback) is
/// registered under the next name, so it is told of the next change, not once more of this one.
///
/// Not generic, and the names are `final` stored properties: Observation hashes the key path at
/// every registration and every change, and a key path to a computed property of a generic class
/// hashes its generic arguments (~500 instructions a hash, against ~100 for a stored one).
@MainActor
class WatchReaders: Observable {
  let registrar = ObservationRegistrar()
  /// The names readers are registered under; never written, they have no value of their own.
  /// `final`, so that their key paths are stored-property key paths (an overridable property's
  /// is a computed one, hashed as such).
  final private(set) var readers = 0
  final private(set) var nextReaders = 0
  // Main actor only, and no access held across a call (as `StoreObservation`'s): unchecked.
  @exclusivity(unchecked) private var usesSecondName = false
  @exclusivity(unchecked) var isArmed = false

  /// The name readers are registered under now.
  private var name: KeyPath<WatchReaders, Int> {
    usesSecondName ? Self.nextReadersName : Self.readersName
  }
  // Made once: a key path literal here is instantiated at each use (a call into the run time).
  private static let readersName = \WatchReaders.readers
  private static let nextReadersName = \WatchReaders.nextReaders

  /// Registers a reader of the value, inside an observation-tracking scope.
  final func registerReader() {
    registrar.access(self, keyPath: name)
  }

  /// Disarms the watch for a change, and returns what tells its readers (after the check):
  /// the readers registered until now, not those registered from now on.
  final func change() -> WatchChange {
    disarm()
    let change = WatchChange(readers: self, name: name)
    usesSecondName.toggle()
    return change
  }

  /// Disarms it, forgetting the value remembered.
  func disarm() {
    isArmed = false
  }
}

/// The readers of a watch whose value changed: notifying tells them.
@MainActor
struct WatchChange {
  let readers: WatchReaders
  let name: KeyPath<WatchReaders, Int>

  func notify() {
    readers.registrar.withMutation(of: readers, keyPath: name) {}
  }
}

/// One value a store's readers read: a field, the whole state, which part is there. Armed by a
/// read, it remembers the value read; checked after a batch, it reports whether the value
/// changed: by `==` when the value is `Equatable`, or else whenever it is checked. Disarmed, it
/// keeps nothing: a value the state lets go of is not held here.
@MainActor
class Watch<State>: WatchReaders {
  /// Arms it, remembering the value in `state`.
  func arm(_ state: State) {
    isArmed = true
  }

  /// Whether the value in `state` differs from the one remembered.
  func hasChanged(_ state: State) -> Bool { true }
}

/// A watch of an `Equatable` value, which has changed when it is no longer `==` to the value
/// remembered.
@MainActor
final class EquatableWatch<State, Value: Equatable>: Watch<State> {
  let read: (State) -> Value
  let last = Slot<Value>()

  init(read: @escaping (State) -> Value) {
    self.read = read
    super.init()
  }

  override func arm(_ state: State) {
    isArmed = true
    last.hold(read(state))
  }

  override func hasChanged(_ state: State) -> Bool {
    guard last.holds else { return true }
    return last.value != read(state)
  }

  override func disarm() {
    isArmed = false
    last.empty()
  }
}

/// Where a watch keeps the value it remembers while armed: memory allocated with the watch,
/// initialized while it holds a value and emptied when the watch is disarmed. A box made at each
/// arm would cost an allocation, and a look-up of its metadata, every time a reader reads again
/// (and an optional of a generic value a look-up of its metadata at each use).
final class Slot<Value> {
  private let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  /// Whether it holds a value: `pointer` is initialized exactly while it does. (Not `Sendable`,
  /// a slot is used in one isolation domain, and no access to this is held across a call: the
  /// run-time exclusivity check would only cost.)
  @exclusivity(unchecked) private(set) var holds = false

  deinit {
    empty()
    pointer.deallocate()
  }

  /// The value held. Read only while it `holds` one.
  var value: Value { pointer.pointee }

  func hold(_ value: Value) {
    if holds {
      pointer.pointee = value
    } else {
      pointer.initialize(to: value)
      holds = true
    }
  }

  func empty() {
    guard holds else { return }
    // Marked empty before the value is dropped: its deinit (a class the state held) cannot
    // find this slot holding memory that is being destroyed.
    holds = false
    _ = pointer.move()
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
  let last = Slot<Value>()
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
    remember(value)
  }

  /// Keeps `value` while values are compared, and nothing otherwise.
  private func remember(_ value: Value) {
    if comparesValues { last.hold(value) } else { last.empty() }
  }

  override func hasChanged(_ state: State) -> Bool {
    let value = read(state)
    if value.writeStamp == lastStamp { return false }
    if value.descends(from: lastStamp) {
      comparesValues = false
      last.empty()
      return true
    }
    comparesValues = isEqual != nil
    let changed = if let isEqual, last.holds { !isEqual(last.value, value) } else { true }
    lastStamp = value.writeStamp
    remember(value)
    return changed
  }

  override func disarm() {
    isArmed = false
    last.empty()
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
