// Found by a review of this session's ancestor cancellation and presentation identity: each
// failed before its fix.
import Foundation
import Loom
import LoomTesting
import Testing

// MARK: rows under a presentation an ancestor ends

struct RVList: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<Tick.State> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedAction<Int, Tick.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.rows, action: .rvRows) { Tick() }
  }
}

struct RVMiddle: Reducer {
  struct State: Equatable { @Presents var list: RVList.State? }
  enum Action: Sendable, Equatable { case list(PresentationAction<RVList.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.$list, action: .rvList) { RVList() }
  }
}

struct RVTop: Reducer {
  struct State: Equatable { var middle = RVMiddle.State() }
  enum Action: Sendable, Equatable { case middle(RVMiddle.Action), reset }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .reset = action { state.middle = RVMiddle.State() }
      return .none
    }
    Scope(state: \.middle, action: .rvMiddle) { RVMiddle() }
  }
}

// MARK: a presentation inside a row, replaced by the row's parent

struct RVRow: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    @Presents var sheet: Tick.State?
  }
  enum Action: Sendable, Equatable { case sheet(PresentationAction<Tick.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.$sheet, action: .rvSheet) { Tick() }
  }
}

struct RVRows: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<RVRow.State> = [] }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, RVRow.Action>)
    case replaceSheet(id: Int)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .replaceSheet(let id) = action { state.rows[id: id]?.sheet = Tick.State(id: 99) }
      // As `PingRoot` does, for a row: replaces the sheet that pinged.
      return .none
    }
    .forEach(\.rows, action: .rvRowRows) { RVRow() }
  }
}

// MARK: presentation identity (a76bf39)

enum RVOptionalPayload: Equatable { case item(Tick.State?) }
protocol RVAnyState {}
struct RVItem: RVAnyState, Identifiable { var id: Int }
enum RVEnumState: RVAnyState, Equatable { case a, b }

struct RVOptionalDest: Reducer {
  typealias State = RVOptionalPayload
  typealias Action = Tick.Action
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: return .everySecond(on: clock, send: .tick)
    case .tick:
      if case .item(var tick?) = state { tick.ticks += 1; state = .item(tick) }
      return .none
    }
  }
}

struct RVOptionalHost: Reducer {
  struct State: Equatable { @Presents var dest: RVOptionalPayload? }
  enum Action: Sendable, Equatable {
    case dest(PresentationAction<Tick.Action>)
    case replace
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .replace = action { state.dest = .item(Tick.State(id: 2)) }
      return .none
    }
    .ifLet(\.$dest, action: .rvDest) { RVOptionalDest() }
  }
}

extension CasePath where Root == RVList.Action {
  static var rvRows: CasePath<Root, IdentifiedAction<Int, Tick.Action>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVMiddle.Action {
  static var rvList: CasePath<Root, PresentationAction<RVList.Action>> { .init(Root.list) { if case .list(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVTop.Action {
  static var rvMiddle: CasePath<Root, RVMiddle.Action> { .init(Root.middle) { if case .middle(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVRow.Action {
  static var rvSheet: CasePath<Root, PresentationAction<Tick.Action>> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVRows.Action {
  static var rvRowRows: CasePath<Root, IdentifiedAction<Int, RVRow.Action>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVOptionalHost.Action {
  static var rvDest: CasePath<Root, PresentationAction<Tick.Action>> { .init(Root.dest) { if case .dest(let a) = $0 { a } else { nil } } }
}

@MainActor
struct NestedChildrenCancellationTests {
  let clock = TestClock()

  /// Before ab6b3ed the root walked this path ([presentation, row]) and found the presentation
  /// gone; now a path through a row is never walked, even above the row.
  @Test func rowsUnderAPresentationAnAncestorEndsStop() async {
    let issues = IssueLog()
    var top = RVTop.State()
    top.middle.list = RVList.State(rows: [Tick.State(id: 1)])
    let store = Store(initialState: top) { RVTop() } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.issueReporter = issues.reporter
    }
    store.send(.middle(.list(.presented(.rows(.element(id: 1, action: .start))))))
    await clock.advance(by: .seconds(1))
    #expect(store.state.middle.list?.rows[id: 1]?.ticks == 1)
    store.send(.reset)
    await clock.advance(by: .seconds(5))
    #expect(store.inFlightEffectCount == 0, "5 s later")
    #expect(issues.messages.value.count == 0, "\(issues.messages.value.count) issues")
  }

  /// A sheet in a row, replaced by the row's parent: the old sheet's timer ticks the new sheet.
  @Test func aSheetInARowReplacedByItsParentDoesNotGetTheOldSheetsTicks() async {
    var rows = RVRows.State()
    rows.rows = [RVRow.State(id: 1, sheet: Tick.State(id: 1))]
    let store = Store(initialState: rows) { RVRows() } withDependencies: { [clock] in
      $0.continuousClock = clock
    }
    store.send(.rows(.element(id: 1, action: .sheet(.presented(.start)))))
    store.send(.replaceSheet(id: 1))
    await clock.advance(by: .seconds(1))
    #expect(store.state.rows[id: 1]?.sheet == Tick.State(id: 99, ticks: 0))
    #expect(store.inFlightEffectCount == 0)
  }

  /// The same with an Optional payload (`case item(Tick.State?)`): ids 1 → 2 was a new
  /// presentation before a76bf39 (`as? any Identifiable` looks through Optional).
  @Test func anOptionalIdentifiablePayloadOfAnotherIDIsANewPresentation() async {
    var host = RVOptionalHost.State()
    host.dest = .item(Tick.State(id: 1))
    let store = Store(initialState: host) { RVOptionalHost() } withDependencies: { [clock] in
      $0.continuousClock = clock
    }
    store.send(.dest(.presented(.start)))
    store.send(.replace)
    await clock.advance(by: .seconds(1))
    #expect(store.state.dest == .item(Tick.State(id: 2, ticks: 0)))
    #expect(store.inFlightEffectCount == 0)
  }

  /// An existential state (`any P`): its dynamic type's id counts, and another id is another
  /// presentation, whose predecessor's effects end.
  @Test func anExistentialStatesIDCounts() async {
    var host = RVExistentialHost.State()
    host.dest = RVItem(id: 1)
    let store = Store(initialState: host) { RVExistentialHost() } withDependencies: { [clock] in
      $0.continuousClock = clock
    }
    store.send(.dest(.presented(.start)))
    #expect(store.inFlightEffectCount == 1)
    store.send(.replace)
    await clock.advance(by: .seconds(1))
    #expect(store.inFlightEffectCount == 0)
  }
}


struct RVExistentialChild: Reducer {
  typealias State = any RVAnyState
  typealias Action = Tick.Action
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action == .start ? .everySecond(on: clock, send: .tick) : .none
  }
}

struct RVExistentialHost: Reducer {
  struct State { @Presents var dest: (any RVAnyState)? }
  enum Action: Sendable { case dest(PresentationAction<Tick.Action>), replace }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .replace = action { state.dest = RVItem(id: 2) }
      return .none
    }
    .ifLet(\.$dest, action: CasePath(Action.dest) { if case .dest(let a) = $0 { a } else { nil } }) {
      RVExistentialChild()
    }
  }
}
