import Loom
import Testing

/// `merge` of two effects: both run, in order, and a `.none` adds nothing.
@MainActor
struct EffectMergeTests {
  struct Logger: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable { case merge(String?, String?), logged(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .merge(let first, let second):
        return .merge(Self.effect(first), Self.effect(second))
      case .logged(let entry):
        state.log.append(entry)
        return .none
      }
    }

    static func effect(_ entry: String?) -> Effect<Action> {
      entry.map { .send(.logged($0)) } ?? .none
    }
  }

  @Test func twoEffectsMergedRunBothInOrderAndANoneAddsNothing() {
    #expect(Effect<Logger.Action>.merge(.none, .none).isNone)
    #expect(!Effect<Logger.Action>.merge(.send(.logged("a")), .none).isNone)
    #expect(!Effect<Logger.Action>.merge(.none, .send(.logged("b"))).isNone)
    let store = Store(initialState: Logger.State()) { Logger() }
    store.send(.merge("a", "b"))
    #expect(store.state.log == ["a", "b"])
    store.send(.merge("c", nil))
    store.send(.merge(nil, "d"))
    store.send(.merge(nil, nil))
    #expect(store.state.log == ["a", "b", "c", "d"])
    // Three or more, through the variadic form.
    let three = Effect<Logger.Action>.merge(.send(.logged("x")), .none, .send(.logged("y")))
    #expect(!three.isNone)
    #expect(store.inFlightEffectCount == 0)
  }
}
