import Loom
import Observation

/// W9: a list of 1,000 rows, a store per row, one observer per row store reading its row, and
/// one observer of a field outside the list, each reading again as soon as it is told of a
/// change (as a SwiftUI view is redrawn).
struct ObservedList: Reducer {
  struct Row: Equatable, Identifiable {
    let id: Int
    var value = 0
  }
  enum RowAction: Sendable { case bump, nothing }

  struct State {
    var rows: IdentifiedArrayOf<Row>
    var title = "Inbox"
  }
  enum Action: Sendable { case rows(IdentifiedAction<Int, RowAction>) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rows(.element(let id, .bump)): state.rows[id: id]?.value += 1
    case .rows(.element(_, .nothing)): break
    }
    return .none
  }
}

extension CasePath where Root == ObservedList.Action {
  static var rows: CasePath<Root, IdentifiedAction<Int, ObservedList.RowAction>> {
    .init(Root.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

/// Counts what `withObservationTracking` tells it about what `read` reads, and reads again.
@MainActor
final class W9Observer {
  let read: @MainActor () -> Void
  var invalidations = 0

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    arm()
  }

  func arm() {
    withObservationTracking {
      read()
    } onChange: {
      // The store tells its readers on the main actor, after the batch of actions.
      MainActor.assumeIsolated {
        self.invalidations += 1
        self.arm()
      }
    }
  }
}

@MainActor
func runW9(scale: Int) {
  let count = 10_000 / scale
  let size = 1_000
  var generator = SeededRandomNumberGenerator(seed: 9)
  let ids = (0..<count).map { _ in Int.random(in: 0..<size, using: &generator) }
  for (name, rowAction) in [("one-row", ObservedList.RowAction.bump), ("no-op", .nothing)] {
    let actions = ids.map { ObservedList.Action.rows(.element(id: $0, action: rowAction)) }
    func makeStore() -> StoreOf<ObservedList> {
      let rows = IdentifiedArray(uniqueElements: (0..<size).map { ObservedList.Row(id: $0) })
      return Store(initialState: ObservedList.State(rows: rows)) { ObservedList() }
    }
    // The same actions on a store nobody observes: the overhead is the difference.
    let plain = makeStore()
    let unobserved = median {
      for action in actions { plain.send(action) }
    }
    let store = makeStore()
    let rowStores = store.scope(state: \.rows, action: .rows)
    let observers = rowStores.map { row in W9Observer { _ = row.state } }
    let outside = W9Observer { _ = store.title }
    let before = observers.reduce(outside.invalidations) { $0 + $1.invalidations }
    var runs = 0
    let observed = median {
      runs += 1
      for action in actions { store.send(action) }
    }
    let after = observers.reduce(outside.invalidations) { $0 + $1.invalidations }
    let perAction = (observed - unobserved).nanoseconds / Double(count)
    let invalidations = Double(after - before) / Double(runs * count)
    report("W9", "\(name) invalidations", invalidations, "per action")
    report("W9", "\(name) observed", observed.nanoseconds / Double(count), "ns/action")
    report("W9", "\(name) overhead", perAction, "ns/action")
  }
  runW9Floor(scale: scale)
}

/// The floor of W9 (a): what Observation itself costs to tell one reader of one change and
/// have it read again, with no store: an `Observable` object whose one field is written
/// through its registrar, read by a `W9Observer`.
@MainActor
final class W9FloorModel: Observable {
  let registrar = ObservationRegistrar()
  private var _value = 0

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) { _value = newValue }
    }
  }
}

@MainActor
func runW9Floor(scale: Int) {
  let count = 10_000 / scale
  let model = W9FloorModel()
  let observer = W9Observer { _ = model.value }
  var runs = 0
  let duration = median {
    runs += 1
    for _ in 0..<count { model.value += 1 }
  }
  let told = Double(observer.invalidations) / Double(runs * count)
  expect(told == 1, "W9 floor told its observer \(told) times per change")
  report("W9", "floor one-change", duration.nanoseconds / Double(count), "ns/action")

  // The same with W9 (a)'s shape: 1,000 objects, each observed, one changed per action at the
  // rows W9 (a) picks. Observation's tables for 1,000 subjects do not stay in cache as one's do.
  let size = 1_000
  let models = (0..<size).map { _ in W9FloorModel() }
  let observers = models.map { model in W9Observer { _ = model.value } }
  var generator = SeededRandomNumberGenerator(seed: 9)
  let picks = (0..<count).map { _ in Int.random(in: 0..<size, using: &generator) }
  var manyRuns = 0
  let many = median {
    manyRuns += 1
    for pick in picks { models[pick].value += 1 }
  }
  let manyTold = Double(observers.reduce(0) { $0 + $1.invalidations }) / Double(manyRuns * count)
  expect(manyTold == 1, "W9 floor told \(manyTold) observers per change of 1,000")
  report("W9", "floor one-change n=1000", many.nanoseconds / Double(count), "ns/action")
}
