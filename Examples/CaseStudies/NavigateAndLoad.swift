// Navigate and load: tapping a row shows its detail at once, before there is anything to show,
// and the detail loads its content while it is on screen (a second on the injected clock stands
// in for a request). The load is the detail's own effect, so it belongs to the presentation:
// leaving the detail before the load lands cancels it, with no cancel id to manage. On the way
// out, the parent copies the detail's count back into the row.
import Loom

struct NavigateAndLoad: Reducer {
  struct Row: Equatable, Identifiable {
    let id: Int
    var count: Int
  }

  struct Detail: Reducer {
    struct State: Equatable {
      let row: Row
      var count: Int?   // nil while loading: the view shows a spinner
    }
    enum Action: Sendable, Equatable { case onAppear, loaded(Int), incrementTapped }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { [count = state.row.count] send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded(count))
        }
      case .loaded(let count):
        state.count = count
      case .incrementTapped:
        state.count? += 1
      }
      return .none
    }
  }

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, count: 1), Row(id: 2, count: 42)]
    @Presents var detail: Detail.State?
  }
  enum Action: Sendable, Equatable {
    case rowTapped(Row.ID)
    case detail(PresentationAction<Detail.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rowTapped(let id):
        state.detail = state.rows[id: id].map { Detail.State(row: $0) }
      case .detail(.dismiss):
        // Still presented here: the presentation ends after the parent has seen `.dismiss`.
        if let detail = state.detail, let count = detail.count {
          state.rows[id: detail.row.id]?.count = count
        }
      case .detail:
        break
      }
      return .none
    }
    .ifLet(\.$detail, action: .detail) { Detail() }
  }
}

extension CasePath where Root == NavigateAndLoad.Action {
  static var detail: CasePath<Root, PresentationAction<NavigateAndLoad.Detail.Action>> { .init(Root.detail) { if case .detail(let a) = $0 { a } else { nil } } }
}
