// Composition: a small feature, `Counter`, is written once and embedded twice in a bigger one.
// `TwoCounters` has no logic of its own: each `Scope` hands one counter its slice of the state
// and the actions tagged for it, so the two count independently.
import Loom

struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case decrementButtonTapped, incrementButtonTapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .decrementButtonTapped: state.count -= 1
    case .incrementButtonTapped: state.count += 1
    }
    return .none
  }
}

struct TwoCounters: Reducer {
  struct State: Equatable {
    var counter1 = Counter.State()
    var counter2 = Counter.State()
  }
  enum Action: Sendable, Equatable {
    case counter1(Counter.Action)
    case counter2(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter1, action: .counter1) { Counter() }
    Scope(state: \.counter2, action: .counter2) { Counter() }
  }
}

extension CasePath where Root == TwoCounters.Action {
  static var counter1: CasePath<Root, Counter.Action> { .init(Root.counter1) { if case .counter1(let a) = $0 { a } else { nil } } }
  static var counter2: CasePath<Root, Counter.Action> { .init(Root.counter2) { if case .counter2(let a) = $0 { a } else { nil } } }
}
