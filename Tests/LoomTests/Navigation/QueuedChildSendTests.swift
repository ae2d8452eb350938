import Foundation
import Loom
import Testing

struct RVPinger: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var pongs = 0
  }
  enum Action: Sendable, Equatable { case ping, pong }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .send(.pong)
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

// MARK: a child's queued .send under a row (ab6b3ed's fix does not cover it)

struct RVPingRow: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    @Presents var sheet: RVPinger.State?
  }
  enum Action: Sendable, Equatable { case sheet(PresentationAction<RVPinger.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.$sheet, action: .rvPingSheet) { RVPinger() }
  }
}

struct RVPingRows: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<RVPingRow.State> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedAction<Int, RVPingRow.Action>) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .rows(.element(let id, .sheet(.presented(.ping)))) = action {
        state.rows[id: id]?.sheet = RVPinger.State(id: 2)
      }
      return .none
    }
    .forEach(\.rows, action: .rvPingRows) { RVPingRow() }
  }
}

extension CasePath where Root == RVPingRow.Action {
  static var rvPingSheet: CasePath<Root, PresentationAction<RVPinger.Action>> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVPingRows.Action {
  static var rvPingRows: CasePath<Root, IdentifiedAction<Int, RVPingRow.Action>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}

@MainActor
struct QueuedChildSendTests {
  @Test func anActionASheetInARowQueuedIsDroppedWhenItsParentReplacesTheSheetFirst() async {
    let store = Store(initialState: RVPingRows.State(rows: [RVPingRow.State(id: 1, sheet: RVPinger.State(id: 1))])) {
      RVPingRows()
    }
    store.send(.rows(.element(id: 1, action: .sheet(.presented(.ping)))))
    #expect(store.state.rows[id: 1]?.sheet == RVPinger.State(id: 2, pongs: 0))
  }
}
