import Loom
import Testing

/// What an `ifLet` or an `ifCaseLet` returns when its parent ends the child: the cancellation of
/// the child's effects, and nothing when the child stays or was gone already. (A store also
/// cancels the effects of a child whose state is gone after each action; these check the
/// reducer's own part, which the store's check would otherwise hide.)
struct ChildEndingEffectTests {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case increment }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct OptionalParent: Reducer {
    struct State { var child: Counter.State? = Counter.State() }
    enum Action: Sendable { case child(Counter.Action), end, stay }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .end = action { state.child = nil }
        return .none
      }
      .ifLet(
        \.child,
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { Counter() }
    }
  }

  struct CaseParent: Reducer {
    enum State { case counting(Counter.State), idle }
    enum Action: Sendable { case child(Counter.Action), end, stay }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .end = action { state = .idle }
        return .none
      }
      .ifCaseLet(
        CasePath(State.counting) { if case .counting(let child) = $0 { child } else { nil } },
        action: CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
      ) { Counter() }
    }
  }

  @Test func ifLetReturnsACancellationOnlyWhenTheParentEndsTheChild() {
    var state = OptionalParent.State()
    let reducer = OptionalParent()
    #expect(reducer.reduce(into: &state, action: .child(.increment)).isNone)
    #expect(reducer.reduce(into: &state, action: .stay).isNone)
    #expect(!reducer.reduce(into: &state, action: .end).isNone)
    #expect(state.child == nil)
    #expect(reducer.reduce(into: &state, action: .end).isNone)
  }

  @Test func ifCaseLetReturnsACancellationOnlyWhenTheParentLeavesTheCase() {
    var state = CaseParent.State.counting(Counter.State())
    let reducer = CaseParent()
    #expect(reducer.reduce(into: &state, action: .child(.increment)).isNone)
    #expect(reducer.reduce(into: &state, action: .stay).isNone)
    #expect(!reducer.reduce(into: &state, action: .end).isNone)
    #expect(reducer.reduce(into: &state, action: .end).isNone)
  }
}
