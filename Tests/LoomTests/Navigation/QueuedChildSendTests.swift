import Foundation
import Loom
import Testing

// A child's queued .send under a row (`Pinger` is `AncestorCancellationTests`').

struct RVPingRow: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    @Presents var sheet: Pinger.State?
  }
  enum Action: Sendable, Equatable { case sheet(PresentationAction<Pinger.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.$sheet, action: .rvPingSheet) { Pinger() }
  }
}

struct RVPingRows: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<RVPingRow.State> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedAction<Int, RVPingRow.Action>) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .rows(.element(let id, .sheet(.presented(.ping)))) = action {
        state.rows[id: id]?.sheet = Pinger.State(id: 2)
      }
      return .none
    }
    .forEach(\.rows, action: .rvPingRows) { RVPingRow() }
  }
}

extension CasePath where Root == RVPingRow.Action {
  static var rvPingSheet: CasePath<Root, PresentationAction<Pinger.Action>> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == RVPingRows.Action {
  static var rvPingRows: CasePath<Root, IdentifiedAction<Int, RVPingRow.Action>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}

@MainActor
struct QueuedChildSendTests {
  @Test func anActionASheetInARowQueuedIsDroppedWhenItsParentReplacesTheSheetFirst() async {
    let store = Store(initialState: RVPingRows.State(rows: [RVPingRow.State(id: 1, sheet: Pinger.State(id: 1))])) {
      RVPingRows()
    }
    store.send(.rows(.element(id: 1, action: .sheet(.presented(.ping)))))
    #expect(store.state.rows[id: 1]?.sheet == Pinger.State(id: 2, pongs: 0))
  }
}
