import Loom
import Observation
import Testing

/// A store tells a reader only of changes to what it read: field by field, store by store, row
/// by row (`withObservationTracking`, armed again after each change, as SwiftUI does).
@MainActor
struct StoreObservationTests {
  @Test func aFieldsReaderIsToldOfThatFieldOnly() {
    let store = Store(initialState: Board.State()) { Board() }
    let count = Reader { _ = store.count }
    let other = Reader { _ = store.other }
    store.send(.setOther(1))
    #expect(count.changes == 0)
    #expect(other.changes == 1)
    store.send(.setCount(1))
    #expect(count.changes == 1)
    #expect(other.changes == 1)
  }

  @Test func anActionThatChangesNothingTellsNobody() {
    let store = Store(initialState: Board.State()) { Board() }
    let count = Reader { _ = store.count }
    let left = store.scope(state: \.left, action: .left)
    let whole = Reader { _ = left.state }  // a whole state that is Equatable
    let leftCount = Reader { _ = left.count }
    store.send(.nothing)
    store.send(.setCount(0))  // written with the value it had
    store.send(.changeThenRevert)  // changed and changed back within the action
    #expect([count.changes, whole.changes, leftCount.changes] == [0, 0, 0])
  }

  @Test func aWholeStateReaderIsToldOfAnyChange() {
    let store = Store(initialState: Board.State()) { Board() }
    let whole = Reader { _ = store.state }
    store.send(.setOther(1))
    #expect(whole.changes == 1)
    store.send(.left(.increment))
    #expect(whole.changes == 2)
  }

  /// With an `Equatable` state, the whole state is compared: a reader of it is told of a change
  /// anywhere in it, and not of an action that changes nothing (or writes what was there).
  @Test func aWholeEquatableStatesReaderIsToldOfChangesOnly() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let whole = Reader { _ = store.state }
    store.send(.set(first: 1, second: 0))
    #expect(whole.changes == 1)
    store.send(.set(first: 1, second: 0))  // written with what was there
    store.send(.nothing)
    #expect(whole.changes == 1)
    store.send(.set(first: 1, second: 2))
    #expect(whole.changes == 2)
  }

  @Test func aScopedStoresReadersAreToldOnlyOfItsState() {
    let store = Store(initialState: Board.State()) { Board() }
    let left = store.scope(state: \.left, action: .left)
    let right = store.scope(state: \.right, action: .right)
    let leftCount = Reader { _ = left.count }
    let rightCount = Reader { _ = right.count }
    let rootCount = Reader { _ = store.count }
    right.send(.increment)
    #expect([leftCount.changes, rightCount.changes, rootCount.changes] == [0, 1, 0])
    left.send(.increment)
    #expect([leftCount.changes, rightCount.changes, rootCount.changes] == [1, 1, 0])
  }

  @Test func aValueThatIsNotEquatableCountsAsChangedAtEachAction() {
    let store = Store(initialState: Board.State()) { Board() }
    let tag = Reader { _ = store.tag }
    store.send(.nothing)
    #expect(tag.changes == 1)
  }

  @Test func aRowStoresReaderIsToldOnlyWhenItsRowChanges() {
    let store = Store(initialState: Board.State(rows: 1000)) { Board() }
    let rows = store.scope(state: \.rows, action: .rows)
    let readers = rows.map { row in Reader { _ = row.state } }
    let outside = Reader { _ = store.count }
    store.send(.bumpRow(500))
    #expect(readers.map(\.changes) == counts(1000, changed: [500]))
    rows[7].send(.bump)  // a row's own action, through its store
    #expect(readers.map(\.changes) == counts(1000, changed: [7, 500]))
    store.send(.nothing)
    store.send(.rewriteRow(3))  // written with the value it had
    #expect(readers.map(\.changes) == counts(1000, changed: [7, 500]))
    #expect(outside.changes == 0)
  }

  @Test func anElementStoresReaderIsToldOnlyWhenItsElementChanges() {
    let store = Store(initialState: Flow.State()) { Flow() }
    for _ in 0..<3 { store.send(.pushTapped) }
    let screens = store.scope(state: \.path, action: .path)
    let readers = screens.map { screen in Reader { _ = screen.ticks } }
    let list = Reader { _ = store.scope(state: \.path, action: .path) }
    screens[1].send(.tick)
    #expect(readers.map(\.changes) == [0, 1, 0])
    #expect(list.changes == 0)
    screens[1].send(.openPanel)  // a field the readers do not read
    #expect(readers.map(\.changes) == [0, 1, 0])
    #expect(list.changes == 0)
    store.send(.pushTapped)
    #expect(list.changes == 1)
    store.send(.path(.popFrom(id: 3)))
    #expect(list.changes == 2)
    store.send(.path(.popFrom(id: 1)))
    #expect(list.changes == 3)
    store.send(.resetTapped)  // a new stack of one element, 0 too: the same ids
    #expect(list.changes == 4)
    // Elements that left are read as their stores last read them: their readers are not told.
    #expect(readers.map(\.changes) == [0, 1, 0])
  }

  @Test func aRowThatLeftACollectionMadeAnewIsToldToItsReaders() {
    let store = Store(initialState: Board.State(rows: 5)) { Board() }
    let rows = store.scope(state: \.rows, action: .rows)
    let readers = rows.map { row in Reader { _ = row.state } }
    // A collection made anew, without row 2: its writes cannot say which rows changed, so every
    // observed row is looked up in it.
    store.send(.replaceRowsWithout(2))
    #expect(readers.map(\.changes) == counts(5, changed: [2]))
  }

  @Test func aRowStoresReaderIsToldWhenManyRowsOrTheWholeCollectionAreWritten() {
    let store = Store(initialState: Board.State(rows: 50)) { Board() }
    let rows = store.scope(state: \.rows, action: .rows)
    let readers = rows.map { row in Reader { _ = row.state } }
    store.send(.bumpEveryRow)  // more writes than the collection remembers
    #expect(readers.map(\.changes) == Array(repeating: 1, count: 50))
    store.send(.replaceRows(bumping: 9))  // another collection: every row is compared
    #expect(readers.map(\.changes) == counts(50, changed: [9], base: 1))
  }

  @Test func theListsReaderIsToldOfRowsAddedRemovedOrMovedButNotOfARowsChange() {
    let store = Store(initialState: Board.State(rows: 3)) { Board() }
    let list = Reader { _ = store.scope(state: \.rows, action: .rows) }
    let rows = store.scope(state: \.rows, action: .rows)
    let removed = Reader { _ = rows[2].state }
    store.send(.bumpRow(0))
    #expect(list.changes == 0)
    store.send(.removeRow(2))
    #expect(list.changes == 1)
    #expect(removed.changes == 1)  // its row left
    store.send(.appendRow(9))
    #expect(list.changes == 2)
    store.send(.moveFirstRowToEnd)
    #expect(list.changes == 3)
  }

  @Test func aWholeCollectionsReaderIsToldWhenItIsWrittenNotWhenNothingIs() {
    let store = Store(initialState: Board.State(rows: 3)) { Board() }
    let rows = Reader { _ = store.rows }
    store.send(.nothing)
    store.send(.setCount(4))
    #expect(rows.changes == 0)
    store.send(.bumpRow(1))
    #expect(rows.changes == 1)
    store.send(.moveFirstRowToEnd)
    #expect(rows.changes == 2)
    // An identified array is compared by its writes, not its rows (comparing would keep a
    // copy, and make the next write copy every row): a row written with the value it had
    // counts as a change.
    store.send(.rewriteRow(0))
    #expect(rows.changes == 3)
  }

  @Test func anOptionalPartsReaderIsToldWhenItComesOrGoesItsStoresWhenItChanges() {
    let store = Store(initialState: Board.State()) { Board() }
    let presence = Reader { _ = store.scope(state: \.child, action: .child) }
    store.send(.setChild(Board.Counter.State()))
    #expect(presence.changes == 1)
    let child = store.scope(state: \.child, action: .child)
    let childCount = Reader { _ = child?.count }
    child?.send(.increment)
    #expect(presence.changes == 1)
    #expect(childCount.changes == 1)
    store.send(.setChild(nil))
    #expect(presence.changes == 2)
  }

  @Test func aCasePartsReaderIsToldWhenTheCaseChanges() {
    let store = Store(initialState: Board.State()) { Board() }
    let mode = store.scope(state: \.mode, action: .mode)
    let editing = Reader { _ = mode.scope(state: .editing, action: .editing) }
    store.send(.mode(.editing(.increment)))  // the case it is not in: changes nothing
    #expect(editing.changes == 0)
    store.send(.startEditing)
    #expect(editing.changes == 1)
    let counter = mode.scope(state: .editing, action: .editing)
    counter?.send(.increment)
    #expect(editing.changes == 1)
    store.send(.stopEditing)
    #expect(editing.changes == 2)
  }

  @Test func aReaderThatReadsAgainInItsCallbackIsToldOfTheNextChange() {
    let store = Store(initialState: Board.State()) { Board() }
    let rearmed = Reader(rearmsInCallback: true) { _ = store.count }
    store.send(.setCount(1))
    store.send(.setCount(2))
    #expect(rearmed.changes == 2)
    store.send(.setOther(5))
    #expect(rearmed.changes == 2)
  }

  @Test func aReleasedScopedStoreLeavesTheRootWorking() {
    let store = Store(initialState: Board.State(rows: 3)) { Board() }
    do {
      let left = store.scope(state: \.left, action: .left)
      let rows = store.scope(state: \.rows, action: .rows)
      _ = Reader { _ = left.count }
      _ = Reader { _ = rows[1].state }
    }
    store.send(.left(.increment))
    store.send(.bumpRow(1))
    let count = Reader { _ = store.count }
    store.send(.setCount(3))
    #expect(count.changes == 1)
  }

  @Test func aRowsNewStoreIsWatchedBesideAnEndedOneOfTheSameID() {
    let store = Store(initialState: Board.State(rows: 3)) { Board() }
    let old = store.scope(state: \.rows, action: .rows)[1]
    let oldReader = Reader { _ = old.value }
    store.send(.removeRow(1))
    #expect(oldReader.changes == 1)  // read again: the ended store is watched again
    store.send(.replaceRows(bumping: 0))
    store.send(.appendRow(1))  // the row is back: a new store
    let new = store.scope(state: \.rows, action: .rows).first { $0.id == 1 }
    #expect(new != nil && new !== old)
    let newReader = Reader { _ = new?.value }
    _ = oldReader.changes
    store.send(.bumpRow(1))
    #expect(newReader.changes == 1)
  }

  @Test func twoListsOfOneCollectionAreBothWatched() {
    let store = Store(initialState: Board.State(rows: 3)) { Board() }
    let a = Reader { _ = store.scope(state: \.rows, action: .rows)[1].value }
    let b = Reader { _ = store.scope(state: \.rows, action: .otherRows)[1].value }
    store.send(.bumpRow(1))
    #expect(a.changes == 1)
    #expect(b.changes == 1)
  }

  @Test func aCaseWithoutAPayloadIsToldApartFromAnother() {
    let store = Store(initialState: Phased.State()) { Phased() }
    let phase = store.scope(state: \.phase, action: .phase)
    let idle = Reader { _ = phase.scope(state: .idle, action: .identity) }
    store.send(.load)
    #expect(phase.scope(state: .idle, action: .identity) == nil)
    #expect(idle.changes == 1)
  }

  /// A reader of whether a case is there is told when that case comes or goes, not when an enum
  /// inside its payload changes case. (It was: the watch compared the nested cases too.)
  @Test func aReaderOfACaseIsNotToldOfACaseChangeInsideItsPayload() {
    let store = Store(initialState: Loading.State.loaded(.idle)) { Loading() }
    let loaded = Reader { _ = store.scope(state: .loaded, action: .loaded) }
    store.send(.setState(.loaded(.busy(1))))
    #expect(loaded.changes == 0)
    store.send(.setState(.failed))
    #expect(loaded.changes == 1)
  }

  @Test func aComputedCollectionIsComparedByValue() {
    let store = Store(initialState: Board.State(rows: 4)) { Board() }
    let even = Reader { _ = store.evenRows }
    store.send(.setOther(1))
    store.send(.setOther(2))
    store.send(.bumpRow(1))  // not an even row
    #expect(even.changes == 0)
    store.send(.bumpRow(2))
    #expect(even.changes == 1)
  }

  @Test func aReaderThatReadsAgainInItsCallbackIsToldOncePerChange() {
    let store = Store(initialState: Board.State()) { Board() }
    let both = Reader(rearmsInCallback: true) {
      _ = store.left
      _ = store.count
    }
    store.send(.changeLeftAndCount)
    #expect(both.changes == 1)
  }

  @Test func aValueTheStateNoLongerHoldsIsNotKeptByItsWatch() {
    weak var weakResource: Resource?
    let store: Store<Holder.State, Holder.Action>
    do {
      let resource = Resource()
      weakResource = resource
      store = Store(initialState: Holder.State(resource: resource)) { Holder() }
    }
    _ = store.resource  // one read, outside any tracking: arms a watch
    store.send(.drop)
    #expect(weakResource == nil)
  }

  @Test func theStatesStreamSeesEachBatchOnceWhenAReaderSends() async {
    let store = Store(initialState: Board.State()) { Board() }
    let stream = store.states
    let sent = Locked(false)
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated {
        if !sent.value {
          sent.withValue { $0 = true }
          store.send(.setOther(1))
        }
      }
    }
    store.send(.setCount(1))
    store.send(.setOther(2))
    var seen: [[Int]] = []
    for await state in stream {
      seen.append([state.count, state.other])
      if state.other == 2 { break }
    }
    #expect(seen == [[0, 0], [1, 0], [1, 1], [1, 2]])
  }

  @Test func watchesOfValuesNoLongerReadAreDropped() {
    // A reader reading one row after another by id, each told of its row's change in turn (as
    // a view scrolled through the rows): a watch per id read, each disarmed once told.
    let store = Store(initialState: Board.State(rows: 200)) { Board() }
    for id in 0..<200 {
      _ = Reader { _ = store[dynamicMember: \.rows[id: id]] }
      store.send(.bumpRow(id))
    }
    #expect(store.watchCount <= 32)
  }

  @Test func aFieldReadThroughABindingIsWatchedAlone() {
    let store = Store(initialState: ProfileForm.State()) { ProfileForm() }
    // What a `$store.name` binding reads: the store's writable key path to `name`.
    let nameKeyPath: ReferenceWritableKeyPath<StoreOf<ProfileForm>, String> = \.name
    let name = Reader { _ = store[keyPath: nameKeyPath] }
    store.isPublic = true  // sends .binding(.set(\.isPublic, true))
    #expect(name.changes == 0)
    store.name = "Ada"
    #expect(name.changes == 1)
  }

  @Test func aChangeAnEffectSendsLaterTellsItsReaderThen() async {
    let store = Store(initialState: Board.State()) { Board() }
    let count = Reader { _ = store.count }
    let other = Reader { _ = store.other }
    let task = store.send(.loadCount(9))  // the effect answers after a suspension
    #expect(count.changes == 0)
    await task.finish()
    #expect(count.changes == 1)
    #expect(store.count == 9)
    #expect(other.changes == 0)
  }

  @Test func aValueReadThroughAnyKeyPathIsWatchedThere() {
    let store = Store(initialState: Board.State()) { Board() }
    // Stored properties, nested and not first: read where they are stored.
    let nested = Reader { _ = store[dynamicMember: \Board.State.right.count] }
    // A computed property: read by applying the key path.
    let computed = Reader { _ = store.doubledCount }
    store.send(.left(.increment))
    store.send(.setOther(1))
    #expect([nested.changes, computed.changes] == [0, 0])
    store.send(.right(.increment))
    #expect([nested.changes, computed.changes] == [1, 0])
    #expect(store[dynamicMember: \Board.State.right.count] == 1)
    store.send(.setCount(2))
    #expect([nested.changes, computed.changes] == [1, 1])
    #expect(store.doubledCount == 4)
  }

  private func counts(_ total: Int, changed: Set<Int>, base: Int = 0) -> [Int] {
    (0..<total).map { changed.contains($0) ? base + 1 : base }
  }
}

/// Counts the changes `withObservationTracking` reports for what `read` reads, reading again
/// after each one (at once, in the callback, when `rearmsInCallback`; else at the next count).
@MainActor
private final class Reader {
  let read: @MainActor () -> Void
  let rearmsInCallback: Bool
  let reported = Locked(0)
  private var armedAt = 0

  init(rearmsInCallback: Bool = false, _ read: @escaping @MainActor () -> Void) {
    self.read = read
    self.rearmsInCallback = rearmsInCallback
    arm()
  }

  /// The changes reported so far; reading them arms the reader again, as a view redrawn.
  var changes: Int {
    let count = reported.value
    if count != armedAt { arm() }
    return count
  }

  private func arm() {
    armedAt = reported.value
    withObservationTracking {
      read()
    } onChange: { [reported, rearmsInCallback] in
      reported.withValue { $0 += 1 }
      if rearmsInCallback {
        MainActor.assumeIsolated { self.arm() }
      }
    }
  }
}

/// A state with fields, two children, rows, an optional child, an enum part and a value that
/// is not `Equatable`.
/// Two numbers, `Equatable`.
private struct Pair: Reducer {
  struct State: Equatable {
    var first = 0
    var second = 0
  }
  enum Action: Sendable { case set(first: Int, second: Int), nothing }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .set(let first, let second) = action {
      state.first = first
      state.second = second
    }
    return .none
  }
}

private struct Board: Reducer {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable, Equatable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Row: Equatable, Identifiable {
    let id: Int
    var value = 0
  }
  enum RowAction: Sendable, Equatable { case bump }

  enum Mode: Equatable {
    case viewing
    case editing(Counter.State)
  }
  enum ModeAction: Sendable, Equatable { case editing(Counter.Action) }

  /// Not `Equatable`.
  struct Tag { var name = "" }

  struct State {
    var count = 0
    var other = 0
    var left = Counter.State()
    var right = Counter.State()
    var rows: IdentifiedArrayOf<Row> = []
    var child: Counter.State?
    var mode = Mode.viewing
    var tag = Tag()

    init(rows: Int = 0) {
      self.rows = IdentifiedArray(uniqueElements: (0..<rows).map { Row(id: $0) })
    }
  }

  enum Action: Sendable, Equatable {
    case setCount(Int), setOther(Int), nothing, changeThenRevert, changeLeftAndCount
    case loadCount(Int)
    case left(Counter.Action), right(Counter.Action), child(Counter.Action)
    case rows(IdentifiedAction<Int, RowAction>)
    case bumpRow(Int), rewriteRow(Int), bumpEveryRow, replaceRows(bumping: Int)
    case removeRow(Int), appendRow(Int), moveFirstRowToEnd, replaceRowsWithout(Int)
    case setChild(Counter.State?)
    case mode(ModeAction), startEditing, stopEditing
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setCount(let count): state.count = count
    case .setOther(let other): state.other = other
    case .nothing: break
    case .changeThenRevert:
      state.count += 1
      state.left.count += 1
      state.count -= 1
      state.left.count -= 1
    case .loadCount(let count):
      return .run { send in
        await Task.yield()
        await send(.setCount(count))
      }
    case .changeLeftAndCount:
      state.left.count += 1
      state.count += 1
    case .left: state.left.count += 1
    case .right: state.right.count += 1
    case .child: state.child?.count += 1
    case .rows(.element(let id, .bump)), .bumpRow(let id): state.rows[id: id]?.value += 1
    case .rewriteRow(let id): state.rows[id: id] = state.rows[id: id]
    case .bumpEveryRow:
      for id in state.rows.ids { state.rows[id: id]?.value += 1 }
    case .replaceRows(let bumped):
      var rows = IdentifiedArray(uniqueElements: Array(state.rows))
      rows[id: bumped]?.value += 1
      state.rows = rows
    case .removeRow(let id): state.rows.remove(id: id)
    case .replaceRowsWithout(let id):
      state.rows = IdentifiedArray(uniqueElements: Array(state.rows).filter { $0.id != id })
    case .appendRow(let id): state.rows.append(Row(id: id))
    case .moveFirstRowToEnd: state.rows.move(fromOffsets: [0], toOffset: state.rows.count)
    case .setChild(let child): state.child = child
    case .mode(.editing):
      if case .editing(var counter) = state.mode {
        counter.count += 1
        state.mode = .editing(counter)
      }
    case .startEditing: state.mode = .editing(Counter.State())
    case .stopEditing: state.mode = .viewing
    }
    return .none
  }
}

extension CasePath where Root == Board.Action {
  fileprivate static var left: CasePath<Root, Board.Counter.Action> { .init(Root.left) { if case .left(let a) = $0 { a } else { nil } } }
  fileprivate static var right: CasePath<Root, Board.Counter.Action> { .init(Root.right) { if case .right(let a) = $0 { a } else { nil } } }
  fileprivate static var child: CasePath<Root, Board.Counter.Action> { .init(Root.child) { if case .child(let a) = $0 { a } else { nil } } }
  fileprivate static var rows: CasePath<Root, IdentifiedAction<Int, Board.RowAction>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
  fileprivate static var mode: CasePath<Root, Board.ModeAction> { .init(Root.mode) { if case .mode(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Board.ModeAction {
  fileprivate static var editing: CasePath<Root, Board.Counter.Action> { .init(Root.editing) { if case .editing(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Board.Mode {
  fileprivate static var editing: CasePath<Root, Board.Counter.State> { .init(Root.editing) { if case .editing(let s) = $0 { s } else { nil } } }
}

extension Board.State {
  /// A computed value.
  fileprivate var doubledCount: Int { count * 2 }

  /// A computed collection: a new array each time it is read.
  fileprivate var evenRows: IdentifiedArrayOf<Board.Row> { rows.filter { $0.id % 2 == 0 } }
}

private enum OtherRowAction: Sendable { case tap }

extension CasePath where Root == Board.Action {
  /// A second list over the rows, with actions of another type (so a store cached apart).
  fileprivate static var otherRows: CasePath<Root, IdentifiedAction<Int, OtherRowAction>> {
    .init({ _ in .nothing }, extract: { _ in nil })
  }
}

/// An enum state whose cases have no payload.
private struct Phased: Reducer {
  enum Phase: Equatable, Sendable { case idle, loading }
  struct State: Equatable { var phase = Phase.idle }
  enum Action: Sendable { case load }
  enum PhaseAction: Sendable { case tick }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.phase = .loading
    return .none
  }
}

extension CasePath where Root == Phased.Phase, Value == Void {
  fileprivate static var idle: Self { Self(.idle) { if case .idle = $0 { () } else { nil } } }
}
extension CasePath where Root == Phased.Action {
  fileprivate static var phase: CasePath<Root, Phased.PhaseAction> { .init({ _ in .load }, extract: { _ in nil }) }
}

/// An enum state whose loaded case holds an enum of its own.
private struct Loading: Reducer {
  enum Inner: Equatable, Sendable { case idle, busy(Int) }
  enum State: Equatable, Sendable { case loaded(Inner), failed }
  enum Action: Sendable { case setState(State), loaded(Never) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .setState(let new) = action { state = new }
    return .none
  }
}

extension CasePath where Root == Loading.State, Value == Loading.Inner {
  fileprivate static var loaded: Self {
    Self(Root.loaded) { if case .loaded(let inner) = $0 { inner } else { nil } }
  }
}
extension CasePath where Root == Loading.Action, Value == Never {
  fileprivate static var loaded: Self { Self(Root.loaded) { _ in nil } }
}

/// A reference the state holds, to tell whether a watch keeps it.
private final class Resource: Equatable, Sendable {
  static func == (lhs: Resource, rhs: Resource) -> Bool { lhs === rhs }
}

private struct Holder: Reducer {
  struct State: Equatable { var resource: Resource? }
  enum Action: Sendable { case drop }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.resource = nil
    return .none
  }
}
