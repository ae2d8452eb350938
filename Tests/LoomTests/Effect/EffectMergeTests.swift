import Loom
import Testing

/// `merge` of two or three effects: all run, in order, and a `.none` adds nothing.
@MainActor
struct EffectMergeTests {
  struct Logger: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable {
      case merge(String?, String?), mergeThree(String?, String?, String?), logged(String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .merge(let first, let second):
        return .merge(Self.effect(first), Self.effect(second))
      case .mergeThree(let first, let second, let third):
        return .merge(Self.effect(first), Self.effect(second), Self.effect(third))
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
    // Four, through the variadic form.
    let four = Effect<Logger.Action>.merge(.send(.logged("x")), .none, .send(.logged("y")), .none)
    #expect(!four.isNone)
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func threeEffectsMergedRunThoseThatAreSomethingInOrder() {
    let entries: [String?] = [nil, "p", "q"]
    var expected: [String] = []
    let store = Store(initialState: Logger.State()) { Logger() }
    for first in entries {
      for second in entries {
        for third in entries {
          let effect = Effect<Logger.Action>.merge(
            Logger.effect(first), Logger.effect(second), Logger.effect(third))
          #expect(effect.isNone == (first == nil && second == nil && third == nil))
          store.send(.mergeThree(first, second, third))
          expected += [first, second, third].compactMap { $0 }
        }
      }
    }
    #expect(store.state.log == expected)
    #expect(store.inFlightEffectCount == 0)
  }
}
