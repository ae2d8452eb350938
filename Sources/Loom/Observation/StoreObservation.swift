import Observation

/// What a store's readers read, watched value by value (see `ObservedPart`): a reader is
/// registered with the watches of the values it read, and told of their changes only.
@MainActor
final class StoreObservation<State>: ObservedPart {
  /// The store's state now, without observing it.
  let currentState: () -> State
  /// Attaches this observation to the store it was scoped from, or, for a root, to its core.
  let attach: (StoreObservation<State>) -> Void
  /// The store, to notice that it is gone.
  weak var store: AnyObject?
  /// For a row's store: gives the store the row as its parent's check read it, so that its
  /// readers, reading again, do not look it up once more.
  let remember: ((State) -> Void)?

  // The stored properties below are accessed on the main actor only, and no access to one is
  // open while other code runs: each is read or written in one step (`check` reads an element,
  // or swaps two, then calls the watch or the part with no access open; it iterates a copy of
  // `rowGroups`), so the run-time exclusivity check, ~80 instructions an access in this code
  // generic over the app's types, would only cost.
  @exclusivity(unchecked) var watches: [AnyHashable: Watch<State>] = [:]
  /// The watch of the whole state (`store.state`).
  var wholeState: Watch<State> {
    if let wholeStateWatch { return wholeStateWatch }
    let watch = watch(WholeStateKey()) { $0 }
    wholeStateWatch = watch
    return watch
  }
  @exclusivity(unchecked) private var wholeStateWatch: Watch<State>?
  /// The number of watches at which the next new one sweeps the disarmed ones.
  @exclusivity(unchecked) private var sweepAt = 16
  /// The armed watches, each a `Watch<State>`: kept as their non-generic base, because code
  /// generic over `State` (not specialized: it is instantiated with the app's types) looks up
  /// the metadata of `[Watch<State>]` at run time for every use of such an array (~500
  /// instructions each); an array of a class that is not generic costs nothing of the kind.
  @exclusivity(unchecked) var armed: [WatchReaders] = []
  /// The observations of plain scoped stores, and of optional, presented and case parts, that
  /// have armed watches.
  @exclusivity(unchecked) var parts: [any ObservedPart] = []
  /// The observations of row stores with armed watches, by the collection they are rows of.
  ///
  /// Each a `RowGroup<State>`, kept as their non-generic base (as `armed` is).
  @exclusivity(unchecked) var rowGroups: [AnyKeyPath: RowGroupBase] = [:]
  @exclusivity(unchecked) var isAttached = false

  init(
    store: AnyObject, currentState: @escaping () -> State,
    remember: ((State) -> Void)? = nil,
    attach: @escaping (StoreObservation<State>) -> Void
  ) {
    self.store = store
    self.currentState = currentState
    self.remember = remember
    self.attach = attach
  }

  /// Registers a read of the value at `keyPath`.
  func access<Value>(_ keyPath: KeyPath<State, Value>) {
    if let watch = watches[keyPath] { return access(watch) }
    let reader = StoredPathReader(keyPath)
    access(watch(keyPath, read: reader.read))
  }

  /// The watch named `key` of the value `read` returns, made the first time.
  func watch<Value>(_ key: AnyHashable, read: @escaping (State) -> Value) -> Watch<State> {
    if let watch = watches[key] { return watch }
    if watches.count >= sweepAt { sweepDisarmedWatches() }
    let watch = makeWatch(read: read)
    watches[key] = watch
    return watch
  }

  /// Drops the watches that are not armed (their readers were told, or never read in a
  /// tracking scope), so values read once (`store[dynamicMember: \.rows[id: id]]` for many
  /// ids) do not pile up: the watches are at most about twice what is armed (and a few).
  private func sweepDisarmedWatches() {
    let whole = wholeStateWatch
    watches = watches.filter { $0.value.isArmed || $0.value === whole }
    sweepAt = max(16, 2 * watches.count)
  }

  /// Registers a read of what `watch` watches: arms it, and attaches this observation.
  func access(_ watch: Watch<State>) {
    if !watch.isArmed {
      watch.arm(currentState())
      armed.append(watch)
      attachIfNeeded()
    }
    watch.registerReader()
  }

  func attachIfNeeded() {
    guard !isAttached else { return }
    isAttached = true
    attach(self)
  }

  /// Attaches the observation of a store scoped from this one.
  func attach(part: any ObservedPart) {
    parts.append(part)
    attachIfNeeded()
  }

  /// Attaches the observation of the row `id` of the collection at `rows`.
  func attach<ID, Row>(
    row: StoreObservation<Row>, id: ID, of rows: KeyPath<State, IdentifiedArray<ID, Row>>,
    access: RowsAccess<State, ID, Row>
  ) {
    let group: RowsOf<State, ID, Row>
    if let existing = rowGroups[rows] as? RowsOf<State, ID, Row> {
      group = existing
    } else {
      group = RowsOf(access)
      rowGroups[rows] = group
    }
    group.attach(row, id: id, in: self)
    attachIfNeeded()
  }

  var isAlive: Bool { store != nil }

  func check(into changed: inout [WatchChange]) -> Bool {
    guard store != nil else {
      disarmAll(into: &changed)
      return false
    }
    return check(currentState(), into: &changed)
  }

  /// `check(into:)` for a row's store, given its row as the check of its parent read it;
  /// returns whether the store is alive (a row's store stays attached while it is, armed or not).
  func check(row: State, into changed: inout [WatchChange]) -> Bool {
    guard store != nil else {
      disarmAll(into: &changed)
      return false
    }
    remember?(row)
    _ = check(row, into: &changed)
    return true
  }

  private func check(_ state: State, into changed: inout [WatchChange]) -> Bool {
    // Loops by hand: `removeAll(where:)` is not specialized here, and cost more than the rest.
    var position = 0
    while position < armed.count {
      // Only a `Watch<State>` is ever added (`access(_:)`).
      let watch = unsafeDowncast(armed[position], to: Watch<State>.self)
      if watch.hasChanged(state) {
        changed.append(watch.change())
        armed.swapAt(position, armed.count - 1)
        armed.removeLast()
      } else {
        position += 1
      }
    }
    position = 0
    while position < parts.count {
      let part = parts[position]
      if part.check(into: &changed) {
        position += 1
      } else {
        part.isAttached = false
        parts.swapAt(position, parts.count - 1)
        parts.removeLast()
      }
    }
    if !rowGroups.isEmpty {
      for (rows, group) in rowGroups
      where !unsafeDowncast(group, to: RowGroup<State>.self).check(state, into: &changed) {
        rowGroups[rows] = nil
      }
    }
    return !armed.isEmpty || !parts.isEmpty || !rowGroups.isEmpty
  }

  func disarmAll(into changed: inout [WatchChange]) {
    for watch in armed { changed.append(watch.change()) }
    armed.removeAll()
    for part in parts {
      part.disarmAll(into: &changed)
      part.isAttached = false
    }
    parts.removeAll()
    for group in rowGroups.values { group.disarmAll(into: &changed) }
    rowGroups.removeAll()
    isAttached = false
  }

  /// What names the watch of the whole state.
  private struct WholeStateKey: Hashable {}
}

/// The row stores of one collection that have armed watches, by id. After a batch only the rows
/// the collection's writes name are checked (all of them when its writes cannot tell).
@MainActor
class RowGroupBase {
  func disarmAll(into changed: inout [WatchChange]) {}
}

@MainActor
class RowGroup<State>: RowGroupBase {
  func check(_ state: State, into changed: inout [WatchChange]) -> Bool { false }
}

@MainActor
final class RowsOf<State, ID: Hashable & Sendable, Row>: RowGroup<State> {
  let access: RowsAccess<State, ID, Row>
  /// The row stores' observations, by id (see `RowTable`): the table `access.written` looks
  /// ids up in.
  var table: RowTable<ID> { access.table }
  /// The stamp of the collection as last checked.
  // Unchecked as `StoreObservation`'s are, and for the same reasons.
  @exclusivity(unchecked) var seen: UInt64 = 0

  init(_ access: RowsAccess<State, ID, Row>) {
    self.access = access
  }

  func attach(_ row: StoreObservation<Row>, id: ID, in parent: StoreObservation<State>) {
    if table.entries.isEmpty { seen = access.stamp(parent.currentState()) }
    if let stores = table.entries[id] {
      stores.observations.append(row)
    } else {
      table.entries[id] = RowStores(row)
    }
  }

  override func disarmAll(into changed: inout [WatchChange]) {
    for stores in table.entries.values {
      for row in stores.observations {
        row.disarmAll(into: &changed)
        row.isAttached = false
      }
    }
    table.entries.removeAll()
  }

  override func check(_ state: State, into changed: inout [WatchChange]) -> Bool {
    let (stamp, isTold) = access.written(
      state, seen, { id, row, stores in check(id, row: row, stores, into: &changed) },
      { id in removeRows(id, into: &changed) })
    if !isTold { checkAll(state, into: &changed) }
    seen = stamp
    return !table.entries.isEmpty
  }

  /// Checks every row's stores, for writes that cannot tell which rows they wrote. A function
  /// of its own: the metadata of `Row?` it needs would be looked up at every check otherwise.
  @inline(never)
  private func checkAll(_ state: State, into changed: inout [WatchChange]) {
    for (id, stores) in Array(table.entries) {
      if let row = access.row(state, id) {
        check(id, row: row, stores, into: &changed)
      } else {
        removeRows(id, into: &changed)
      }
    }
  }

  /// Checks the row `id`'s stores against `row`, the row there now.
  ///
  /// A row's store stays attached when nothing in it is armed any more: its readers are about
  /// to read it again (a row that changed is redrawn), and it costs nothing until its row is
  /// written again.
  private func check(_ id: ID, row: Row, _ stores: RowStores, into changed: inout [WatchChange]) {
    var position = 0
    while position < stores.observations.count {
      let observation = stores.observations[position]
      // A store that is gone has its watches disarmed by its check, and leaves.
      if Self.rowObservation(observation).check(row: row, into: &changed) {
        position += 1
      } else {
        observation.isAttached = false
        stores.observations.remove(at: position)
      }
    }
    if stores.observations.isEmpty { table.entries[id] = nil }
  }

  /// The row `id` left: its stores have their watches notified, and leave.
  private func removeRows(_ id: ID, into changed: inout [WatchChange]) {
    guard let stores = table.entries.removeValue(forKey: id) else { return }
    for observation in stores.observations {
      observation.disarmAll(into: &changed)
      observation.isAttached = false
    }
  }

  /// A row's observation as what it is (only a `StoreObservation<Row>` is attached).
  private static func rowObservation(_ part: any ObservedPart) -> StoreObservation<Row> {
    unsafeDowncast(part, to: StoreObservation<Row>.self)
  }
}

/// The observations of a collection's row stores, by id: an ended row store and the new one of
/// the same id, or the stores of two lists over the collection, share an id. Made where
/// `scope(state:action:)` to the rows is called, so that the check of the rows, made there too,
/// looks an id up specialized (in the observation's generic code, hashing an id and looking it
/// up in a generic dictionary cost ~320 instructions, through the standard library's
/// unspecialized dictionary code).
@usableFromInline
final class RowTable<ID: Hashable> {
  // Main actor only (the observation's), and no access held across a call: unchecked, as
  // `StoreObservation`'s are.
  @exclusivity(unchecked) @usableFromInline var entries: [ID: RowStores] = [:]

  @usableFromInline
  init() {}
}

/// The observations of the stores of one row, each a `StoreObservation<Row>`, kept as
/// `any ObservedPart`: in the observation's generic code an array of a generic class looks up
/// its metadata at each use (~330 instructions each). A class: the check of the rows changes it
/// without writing the table.
@usableFromInline
final class RowStores {
  @exclusivity(unchecked) var observations: [any ObservedPart]

  init(_ observation: any ObservedPart) {
    observations = [observation]
  }
}

/// What the check of a list's rows reads of the collection, made where `scope(state:action:)`
/// to the rows is called, so that it runs specialized (in the observation's generic code each
/// read looked up the collection's metadata and its membership test ran generically).
@usableFromInline
final class RowsAccess<State, ID: Hashable & Sendable, Row> {
  /// Calls its third argument with each id written since the stamp `seen` (oldest first) that
  /// the collection still holds and that has stores in `table`, with the row it holds and the
  /// stores, and its fourth with each such id it no longer holds; returns the collection's
  /// stamp now, and whether its writes could tell (`false`: every row must be checked, with
  /// `row`). No `Row?`: the code that calls it, generic over the app's types, would look up its
  /// metadata at each call.
  let written:
    (State, UInt64, (ID, Row, RowStores) -> Void, (ID) -> Void) -> (stamp: UInt64, isTold: Bool)
  /// The row stores' observations by id, which `written` looks up (it is given the same table).
  let table: RowTable<ID>
  /// The row `id`, when the collection holds one.
  let row: (State, ID) -> Row?
  /// The collection's stamp now.
  let stamp: (State) -> UInt64

  @usableFromInline
  init(
    written:
      @escaping (State, UInt64, (ID, Row, RowStores) -> Void, (ID) -> Void) -> (
        stamp: UInt64, isTold: Bool
      ),
    table: RowTable<ID>,
    row: @escaping (State, ID) -> Row?,
    stamp: @escaping (State) -> UInt64
  ) {
    self.written = written
    self.table = table
    self.row = row
    self.stamp = stamp
  }
}
