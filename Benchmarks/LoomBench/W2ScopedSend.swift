import Loom

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
  let store1 = Store(initialState: Level1.State()) { Level1() }
  let depth1 = measureSends(store1, .child(.increment), count: count)
  report("W2", "scoped-send depth=1", depth1, "ns/action")

  let store5 = Store(initialState: Level5.State()) { Level5() }
  let action5 = Level5.Action.child(.child(.child(.child(.child(.increment)))))
  report("W2", "scoped-send depth=5", measureSends(store5, action5, count: count), "ns/action")

  let store10 = Store(initialState: Level10.State()) { Level10() }
  let action10 = Level10.Action.child(.child(.child(.child(.child(
    .child(.child(.child(.child(.child(.increment))))))))))
  report("W2", "scoped-send depth=10", measureSends(store10, action10, count: count), "ns/action")

  let leaf = store10
    .scope(state: \.child, action: Level10.toChild)
    .scope(state: \.child, action: Level9.toChild)
    .scope(state: \.child, action: Level8.toChild)
    .scope(state: \.child, action: Level7.toChild)
    .scope(state: \.child, action: Level6.toChild)
    .scope(state: \.child, action: Level5.toChild)
    .scope(state: \.child, action: Level4.toChild)
    .scope(state: \.child, action: Level3.toChild)
    .scope(state: \.child, action: Level2.toChild)
    .scope(state: \.child, action: Level1.toChild)
  report("W2", "scoped-store depth=10", measureSends(leaf, .increment, count: count), "ns/action")
  blackHole(leaf.state.count)
}
