import Loom

/// An action that can name the leaf's increment however deep it is nested.
protocol LeafIncrementing: Sendable {
  static var leafIncrement: Self { get }
}

extension CounterFeature.Action: LeafIncrementing {
  static var leafIncrement: Self { .increment }
}

/// One level of nesting: a struct holding its child, an action case wrapping the child's.
struct Nest<Child: Reducer & SendableMetatype>: Reducer where Child.Action: LeafIncrementing {
  struct State { var child: Child.State }
  enum Action: LeafIncrementing {
    case child(Child.Action)
    static var leafIncrement: Self { .child(Child.Action.leafIncrement) }
  }
  static var toChild: CasePath<Action, Child.Action> {
    CasePath(Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { child }
  }
}

typealias Depth1 = Nest<CounterFeature>
typealias Depth5 = Nest<Nest<Nest<Nest<Depth1>>>>
typealias Depth10 = Nest<Nest<Nest<Nest<Nest<Depth5>>>>>

@MainActor
func measureSends<State, Action>(
  _ store: Store<State, Action>, _ action: Action, count: Int
) -> Double {
  let duration = median {
    for _ in 0..<count { store.send(action) }
  }
  return duration.nanoseconds / Double(count)
}

@MainActor
func runW2(scale: Int) {
  let count = 200_000 / scale
  let depth1 = Depth1(child: CounterFeature())
  let depth5 = Depth5(child: .init(child: .init(child: .init(child: depth1))))
  let depth10 = Depth10(
    child: .init(child: .init(child: .init(child: .init(child: depth5)))))

  let store1 = Store(initialState: .init(child: CounterFeature.State())) { depth1 }
  print("W2 scoped-send depth=1: \(figure(measureSends(store1, .leafIncrement, count: count))) ns/action")

  let store5 = Store(initialState: Depth5.State(child: .init(child: .init(child: .init(child: .init(child: .init())))))) { depth5 }
  print("W2 scoped-send depth=5: \(figure(measureSends(store5, .leafIncrement, count: count))) ns/action")

  let state10 = Depth10.State(
    child: .init(child: .init(child: .init(child: .init(child: store5.state)))))
  let store10 = Store(initialState: state10) { depth10 }
  print("W2 scoped-send depth=10: \(figure(measureSends(store10, .leafIncrement, count: count))) ns/action")

  let leaf = store10
    .scope(state: \.child, action: Depth10.toChild)
    .scope(state: \.child, action: Nest<Nest<Nest<Nest<Depth5>>>>.toChild)
    .scope(state: \.child, action: Nest<Nest<Nest<Depth5>>>.toChild)
    .scope(state: \.child, action: Nest<Nest<Depth5>>.toChild)
    .scope(state: \.child, action: Nest<Depth5>.toChild)
    .scope(state: \.child, action: Depth5.toChild)
    .scope(state: \.child, action: Nest<Nest<Nest<Depth1>>>.toChild)
    .scope(state: \.child, action: Nest<Nest<Depth1>>.toChild)
    .scope(state: \.child, action: Nest<Depth1>.toChild)
    .scope(state: \.child, action: Depth1.toChild)
  print("W2 scoped-store depth=10: \(figure(measureSends(leaf, .increment, count: count))) ns/action")
  blackHole(store10.state.child.child.child.child.child.child.child.child.child.child.count)
}
