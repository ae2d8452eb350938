import Loom
import Testing

/// A tree with two branches of the same type, each with a leaf.
private struct Grove: Reducer {
  struct Leaf: Reducer {
    struct State: Equatable { var name: String }
    enum Action: Sendable, Equatable { case rename(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case .rename(let name) = action { state.name = name }
      return .none
    }
  }
  struct Branch: Reducer {
    struct State: Equatable { var leaf: Leaf.State }
    enum Action: Sendable, Equatable { case leaf(Leaf.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: \.leaf, action: .leaf) { Leaf() }
    }
  }
  struct State: Equatable {
    var left = Branch.State(leaf: Leaf.State(name: "left"))
    var right = Branch.State(leaf: Leaf.State(name: "right"))
    var sizes = Array(0..<1_000)
  }
  enum Action: Sendable, Equatable { case left(Branch.Action), right(Branch.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.left, action: .left) { Branch() }
    Scope(state: \.right, action: .right) { Branch() }
  }
}

extension CasePath where Root == Grove.Action {
  fileprivate static var left: CasePath<Root, Grove.Branch.Action> { .init(Root.left) { if case .left(let a) = $0 { a } else { nil } } }
  fileprivate static var right: CasePath<Root, Grove.Branch.Action> { .init(Root.right) { if case .right(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Grove.Branch.Action {
  fileprivate static var leaf: CasePath<Root, Grove.Leaf.Action> { .init(Root.leaf) { if case .leaf(let a) = $0 { a } else { nil } } }
}

@MainActor
struct ScopeCacheTests {
  /// Parents are made and released over and over (a new one may be allocated where a dead one
  /// was, with its child: a child keeps its parent), each time scoped to the other branch: a
  /// parent's child always reads and sends to that parent's branch, and no cache keeps what
  /// died.
  @Test func aParentsChildIsNeverAnotherParentsChild() {
    let store = Store(initialState: Grove.State()) { Grove() }
    for index in 0..<2_500 {
      let isLeft = index.isMultiple(of: 2)
      let parent =
        isLeft
        ? store.scope(state: \.left, action: .left) : store.scope(state: \.right, action: .right)
      let leaf = parent.scope(state: \.leaf, action: .leaf)
      let name = isLeft ? "left" : "right"
      #expect(leaf.state.name.hasPrefix(name), "\(index)")
      leaf.send(.rename("\(name) \(index)"))
      #expect((isLeft ? store.state.left : store.state.right).leaf.name == "\(name) \(index)")
      #expect(parent.scopeCacheCount == 1, "\(index)")
    }
    // Each parent, and its leaf, took its entry with it.
    #expect(store.scopeCacheCount == 0)
  }

  /// A store scoped to many paths, each released at once: no entry outlives its store.
  @Test func aCacheDropsTheStoresThatDied() {
    let store = Store(initialState: Grove.State()) { Grove() }
    for index in 0..<1_000 {
      let size = store.scope(state: \.sizes[index], action: .left)
      #expect(size.state == index)
      #expect(store.scopeCacheCount == 1)
    }
    #expect(store.scopeCacheCount == 0)
    let kept = (0..<20).map { store.scope(state: \.sizes[$0], action: .left) }
    for index in 20..<1_000 { _ = store.scope(state: \.sizes[index], action: .left) }
    #expect(store.scopeCacheCount == kept.count)
    #expect(kept.allSatisfy { store.scope(state: \.sizes[$0.state], action: .left) === $0 })
  }

  /// A presented child's store, replaced by the store of the child presented in its place
  /// (another id, the same key), dies later, held by a view: it leaves the new one's entry.
  @Test func aStoreThatDiesAfterAnotherTookItsKeyLeavesThatOnesEntry() {
    var state = Relay.State()
    state.child = Relay.Child.State(id: 1)
    let store = Store(initialState: state) { Relay() }
    var first = store.scope(state: \.child, action: .child)
    store.send(.child(.dismiss))  // Relay presents child 2 in its place
    let second = store.scope(state: \.child, action: .child)
    #expect(second != nil && second !== first)
    #expect(store.scopeCacheCount == 1)
    first = nil
    #expect(first == nil)
    #expect(store.scopeCacheCount == 1)
    #expect(store.scope(state: \.child, action: .child) === second)
  }
}
