import Loom
import Testing

/// A parent with two children of the same type, an optional child and its own effects, all
/// using the same cancellation id.
struct Family: Reducer {
  struct State: Equatable {
    var left = Sleeper.State()
    var right = Sleeper.State()
    var optional: Sleeper.State?
    var parentLog: [String] = []
  }
  enum Action: Sendable, Equatable {
    case left(Sleeper.Action)
    case right(Sleeper.Action)
    case optional(Sleeper.Action)
    case startParent(id: Int)
    case cancelParent(id: Int)
    case showOptional
    case hideOptional
  }
  let events: Locked<[String]>

  var body: some ReducerOf<Self> {
    Scope(state: \.left, action: .left) { Sleeper(events: events) }
    Scope(state: \.right, action: .right) { Sleeper(events: events) }
    Reduce { state, action in
      switch action {
      case .left(let child), .right(let child), .optional(let child):
        state.parentLog.append("saw \(child)")
        return .none
      case .startParent(let id):
        return .run { [events] _ in
          try? await Task.sleep(for: .seconds(3_600))
          if Task.isCancelled { events.append("cancelled parent \(id)") }
        }
        .cancellable(id: id)
      case .cancelParent(let id):
        return .cancel(id: id)
      case .showOptional:
        state.optional = Sleeper.State()
        return .none
      case .hideOptional:
        state.optional = nil
        return .none
      }
    }
    .ifLet(\.optional, action: .optional) { Sleeper(events: events) }
  }
}

extension CasePath where Root == Family.Action, Value == Sleeper.Action {
  static var left: Self { Self(Family.Action.left) { if case .left(let a) = $0 { a } else { nil } } }
  static var right: Self {
    Self(Family.Action.right) { if case .right(let a) = $0 { a } else { nil } }
  }
  static var optional: Self {
    Self(Family.Action.optional) { if case .optional(let a) = $0 { a } else { nil } }
  }
}

@MainActor
struct ScopeTests {
  @Test func scopeRunsTheChildOnItsStateAndTheParentSeesTheChildAction() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let task = store.send(.left(.start(id: 1)))
    store.send(.left(.cancel(id: 1)))
    await task.finish()
    #expect(store.state.parentLog.count == 2)
    #expect(store.state.left.received == [])
  }

  @Test func siblingScopesUsingTheSameIDAreIndependent() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let left = store.send(.left(.start(id: 1)))
    let right = store.send(.right(.start(id: 1)))
    store.send(.left(.cancel(id: 1)))
    await left.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(store.inFlightEffectCount == 1)
    store.send(.right(.cancel(id: 1)))
    await right.finish()
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func aChildCancellingAnIDNeverCancelsItsParentsEffect() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let parent = store.send(.startParent(id: 1))
    store.send(.left(.cancel(id: 1)))
    #expect(store.inFlightEffectCount == 1)
    store.send(.cancelParent(id: 1))
    await parent.finish()
    #expect(events.value == ["cancelled parent 1"])
  }

  @Test func aParentCancellingAnIDDoesNotCancelAChildsEffect() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let child = store.send(.left(.start(id: 1)))
    store.send(.cancelParent(id: 1))
    #expect(store.inFlightEffectCount == 1)
    store.send(.left(.cancel(id: 1)))
    await child.finish()
    #expect(events.value == ["cancelled 1"])
  }

  @Test func ifLetCancelsTheChildsEffectsWhenItsStateBecomesNil() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    store.send(.showOptional)
    let child = store.send(.optional(.start(id: 1)))
    let other = store.send(.left(.start(id: 1)))
    store.send(.hideOptional)
    await child.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(store.inFlightEffectCount == 1)
    other.cancel()
    await other.finish()
  }

  @Test func ifLetReportsAChildActionWhileTheStateIsNilAndIgnoresIt() {
    let events = Locked<[String]>([])
    let issues = IssueLog()
    let store = Store(initialState: Family.State()) { Family(events: events) } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    store.send(.optional(.woke(1)))
    #expect(store.state.optional == nil)
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("ifLet") == true)
  }

  @Test func scopedStoreReadsChildStateAndSendsThroughTheRoot() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let left = store.scope(state: \.left, action: .left)
    left.send(.woke(3))
    #expect(left.state.received == ["woke 3"])
    #expect(store.state.parentLog == ["saw woke(3)"])
  }

  @Test func scopingTheSamePathTwiceReturnsTheCachedStore() {
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) }
    let first = store.scope(state: \.left, action: .left)
    let second = store.scope(state: \.left, action: .left)
    #expect(first === second)
    let right = store.scope(state: \.right, action: .right)
    #expect(first !== right)
  }
}
