import Loom
import Testing

/// A reducer composed of 12 scopes and a chain of 10 `ifLet`s. `.ci/run` builds the tests with
/// `-warn-long-expression-type-checking=200` and warnings as errors, so this file failing to
/// type-check fast enough fails CI.
struct WideFeature: Reducer {
  struct State: Equatable {
    var c0 = Leaf.State(), c1 = Leaf.State(), c2 = Leaf.State(), c3 = Leaf.State()
    var c4 = Leaf.State(), c5 = Leaf.State(), c6 = Leaf.State(), c7 = Leaf.State()
    var c8 = Leaf.State(), c9 = Leaf.State(), c10 = Leaf.State(), c11 = Leaf.State()
    var o0: Leaf.State?, o1: Leaf.State?, o2: Leaf.State?, o3: Leaf.State?, o4: Leaf.State?
    var o5: Leaf.State?, o6: Leaf.State?, o7: Leaf.State?, o8: Leaf.State?, o9: Leaf.State?
  }
  enum Action: Sendable, Equatable {
    case child(Int, Leaf.Action)
    case optional(Int, Leaf.Action)
  }

  static func child(_ index: Int) -> CasePath<Action, Leaf.Action> {
    CasePath({ .child(index, $0) }) {
      if case .child(index, let action) = $0 { action } else { nil }
    }
  }

  static func optional(_ index: Int) -> CasePath<Action, Leaf.Action> {
    CasePath({ .optional(index, $0) }) {
      if case .optional(index, let action) = $0 { action } else { nil }
    }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.c0, action: Self.child(0)) { Leaf() }
    Scope(state: \.c1, action: Self.child(1)) { Leaf() }
    Scope(state: \.c2, action: Self.child(2)) { Leaf() }
    Scope(state: \.c3, action: Self.child(3)) { Leaf() }
    Scope(state: \.c4, action: Self.child(4)) { Leaf() }
    Scope(state: \.c5, action: Self.child(5)) { Leaf() }
    Scope(state: \.c6, action: Self.child(6)) { Leaf() }
    Scope(state: \.c7, action: Self.child(7)) { Leaf() }
    Scope(state: \.c8, action: Self.child(8)) { Leaf() }
    Scope(state: \.c9, action: Self.child(9)) { Leaf() }
    Scope(state: \.c10, action: Self.child(10)) { Leaf() }
    Scope(state: \.c11, action: Self.child(11)) { Leaf() }
    EmptyReducer()
      .ifLet(\.o0, action: Self.optional(0)) { Leaf() }
      .ifLet(\.o1, action: Self.optional(1)) { Leaf() }
      .ifLet(\.o2, action: Self.optional(2)) { Leaf() }
      .ifLet(\.o3, action: Self.optional(3)) { Leaf() }
      .ifLet(\.o4, action: Self.optional(4)) { Leaf() }
      .ifLet(\.o5, action: Self.optional(5)) { Leaf() }
      .ifLet(\.o6, action: Self.optional(6)) { Leaf() }
      .ifLet(\.o7, action: Self.optional(7)) { Leaf() }
      .ifLet(\.o8, action: Self.optional(8)) { Leaf() }
      .ifLet(\.o9, action: Self.optional(9)) { Leaf() }
  }
}

struct Leaf: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

@MainActor
struct TypeCheckingTests {
  @Test func aWideCompositionRoutesEachActionToItsChild() {
    var initial = WideFeature.State()
    initial.o9 = Leaf.State()
    let store = Store(initialState: initial) { WideFeature() }
    store.send(.child(11, .increment))
    store.send(.optional(9, .increment))
    #expect(store.state.c11.count == 1)
    #expect(store.state.c0.count == 0)
    #expect(store.state.o9?.count == 1)
  }
}
