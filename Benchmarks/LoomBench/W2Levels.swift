import Loom

// W2: state nested D levels deep, each level a concrete struct holding its child and an
// action enum wrapping the child's, as real features are written. Generated, one type per level.

struct Level1: Reducer {
  struct State { var child = CounterFeature.State() }
  enum Action: Sendable { case child(CounterFeature.Action) }
  static let toChild = CasePath<Action, CounterFeature.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { CounterFeature() }
  }
}

struct Level2: Reducer {
  struct State { var child = Level1.State() }
  enum Action: Sendable { case child(Level1.Action) }
  static let toChild = CasePath<Action, Level1.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level1() }
  }
}

struct Level3: Reducer {
  struct State { var child = Level2.State() }
  enum Action: Sendable { case child(Level2.Action) }
  static let toChild = CasePath<Action, Level2.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level2() }
  }
}

struct Level4: Reducer {
  struct State { var child = Level3.State() }
  enum Action: Sendable { case child(Level3.Action) }
  static let toChild = CasePath<Action, Level3.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level3() }
  }
}

struct Level5: Reducer {
  struct State { var child = Level4.State() }
  enum Action: Sendable { case child(Level4.Action) }
  static let toChild = CasePath<Action, Level4.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level4() }
  }
}

struct Level6: Reducer {
  struct State { var child = Level5.State() }
  enum Action: Sendable { case child(Level5.Action) }
  static let toChild = CasePath<Action, Level5.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level5() }
  }
}

struct Level7: Reducer {
  struct State { var child = Level6.State() }
  enum Action: Sendable { case child(Level6.Action) }
  static let toChild = CasePath<Action, Level6.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level6() }
  }
}

struct Level8: Reducer {
  struct State { var child = Level7.State() }
  enum Action: Sendable { case child(Level7.Action) }
  static let toChild = CasePath<Action, Level7.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level7() }
  }
}

struct Level9: Reducer {
  struct State { var child = Level8.State() }
  enum Action: Sendable { case child(Level8.Action) }
  static let toChild = CasePath<Action, Level8.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level8() }
  }
}

struct Level10: Reducer {
  struct State { var child = Level9.State() }
  enum Action: Sendable { case child(Level9.Action) }
  static let toChild = CasePath<Action, Level9.Action>(Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Self.toChild) { Level9() }
  }
}
