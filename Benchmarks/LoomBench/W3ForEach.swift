import Loom

/// W3: an identified array of rows whose action toggles `isOn`.
struct ToggleRow: Reducer {
  struct State: Identifiable {
    let id: Int
    var isOn = false
  }
  enum Action: Sendable { case toggle }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isOn.toggle()
    return .none
  }
}

struct RowsFeature: Reducer {
  struct State { var rows: IdentifiedArrayOf<ToggleRow.State> = [] }
  enum Action: Sendable { case rows(IdentifiedAction<Int, ToggleRow.Action>) }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.rows, action: .rows) { ToggleRow() }
  }
}

extension CasePath where Root == RowsFeature.Action, Value == IdentifiedAction<Int, ToggleRow.Action> {
  static var rows: Self {
    Self(RowsFeature.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

@MainActor
func runW3(scale: Int) {
  let count = 100_000 / scale
  for size in [1_000, 10_000, 100_000] {
    let rows = IdentifiedArray(uniqueElements: (0..<size).map { ToggleRow.State(id: $0) })
    let store = Store(initialState: RowsFeature.State(rows: rows)) { RowsFeature() }
    var generator = SeededRandomNumberGenerator(seed: 42)  // every run picks the same ids
    let actions = (0..<count).map { _ in
      RowsFeature.Action.rows(.element(id: Int.random(in: 0..<size, using: &generator), action: .toggle))
    }
    let duration = median {
      for action in actions { store.send(action) }
    }
    report("W3", "forEach n=\(size)", duration.nanoseconds / Double(count), "ns/action")
  }
}
