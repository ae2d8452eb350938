import Loom
import Testing

/// The queue of actions a store has yet to process: first in, first out whatever its size, and
/// every queued action is processed (and released) exactly once.
@MainActor
struct StoreQueueTests {
  /// Each `.node(n)` below `limit` sends its children `2n + 1` and `2n + 2`, so processing in
  /// first-in, first-out order visits 0, 1, 2, 3, … in order; each `.node` also carries a token
  /// that counts how many copies of it are alive.
  struct Tree: Reducer {
    struct State: Equatable { var visited: [Int] = [] }
    enum Action: Sendable { case node(Int, Token) }
    let limit: Int
    let tokens: Locked<Int>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .node(let index, _):
        state.visited.append(index)
        let children: [Effect<Action>] = [2 * index + 1, 2 * index + 2]
          .filter { $0 < limit }
          .map { .send(.node($0, Token(tokens))) }
        return .merge(children)
      }
    }
  }

  /// Counts its live instances.
  final class Token: Sendable {
    let live: Locked<Int>
    init(_ live: Locked<Int>) {
      self.live = live
      live.withValue { $0 += 1 }
    }
    deinit { live.withValue { $0 -= 1 } }
  }

  @Test(arguments: [1, 3, 17, 100, 5_000])
  func aTreeOfSendsIsProcessedBreadthFirst(size: Int) {
    let tokens = Locked(0)
    let store = Store(initialState: Tree.State()) { Tree(limit: size, tokens: tokens) }
    store.send(.node(0, Token(tokens)))
    #expect(store.state.visited == Array(0..<size))
    #expect(tokens.value == 0)
  }

  /// Two chains sending one action each: the queue never empties and never holds more than
  /// two actions while its position moves, so the queue slides its elements back instead of
  /// growing.
  @Test func twoInterleavedChainsAlternate() {
    let tokens = Locked(0)
    struct Chains: Reducer {
      struct State: Equatable { var log: [String] = [] }
      enum Action: Sendable { case start, step(String, Int, Token) }
      let tokens: Locked<Int>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .merge(.send(.step("a", 0, Token(tokens))), .send(.step("b", 0, Token(tokens))))
        case .step(let name, let step, _):
          state.log.append("\(name)\(step)")
          return step < 100 ? .send(.step(name, step + 1, Token(tokens))) : .none
        }
      }
    }
    let store = Store(initialState: Chains.State()) { Chains(tokens: tokens) }
    store.send(.start)
    let expected: [String] = (0...100).flatMap { ["a\($0)", "b\($0)"] }
    #expect(store.state.log == expected)
    #expect(tokens.value == 0)
  }

  /// A chain where each action sends two and one of them ends: the queue stays short while its
  /// position moves, so the queue slides its elements back instead of growing.
  @Test func aQueueThatStaysShortWhileItMovesKeepsItsOrder() {
    let tokens = Locked(0)
    struct Fan: Reducer {
      struct State: Equatable { var log: [String] = [] }
      enum Action: Sendable { case fan(Int, Token), leaf(Int, Token) }
      let tokens: Locked<Int>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .fan(let step, _):
          state.log.append("fan \(step)")
          guard step < 50 else { return .none }
          return .merge(
            .send(.leaf(step, Token(tokens))), .send(.leaf(step, Token(tokens))),
            .send(.fan(step + 1, Token(tokens))))
        case .leaf(let step, _):
          state.log.append("leaf \(step)")
          return .none
        }
      }
    }
    let store = Store(initialState: Fan.State()) { Fan(tokens: tokens) }
    store.send(.fan(0, Token(tokens)))
    var expected: [String] = ["fan 0"]
    for step in 0..<50 { expected += ["leaf \(step)", "leaf \(step)", "fan \(step + 1)"] }
    #expect(store.state.log == expected)
    #expect(tokens.value == 0)
  }
}
