import Loom
import Testing

/// A runtime issue about an action a reducer cannot handle (for a child that is not presented,
/// an element that is not in the stack) names where the action came from: the store, an
/// effect's `.run` (by its line), or a `.send` effect (by the action it was returned for).
@MainActor
struct ActionSourceTests {
  @Test func aChildActionSentToTheStoreSaysSo() {
    let (store, reports) = Courier.store()
    store.send(.child(.presented(.increment)))
    #expect(
      reports.value == [
        message(.child(.presented(.increment)), "It was sent to the store (store.send: from a view, or a test).")
      ])
  }

  @Test func aChildActionAnEffectSentNamesTheEffectsLineAndTheActionThatReturnedIt() {
    let (store, reports) = Courier.store()
    store.send(.pokeChildLater)
    #expect(
      reports.value == [
        message(
          .child(.presented(.increment)),
          """
          It was sent by the effect at LoomTests/ActionSourceTests.swift:\(Courier.runLine), \
          returned for:

            pokeChildLater
          """)
      ])
  }

  @Test func aChildActionASendEffectSentNamesTheActionThatReturnedIt() {
    let (store, reports) = Courier.store()
    store.send(.pokeChildNow)
    #expect(
      reports.value == [
        message(
          .child(.presented(.increment)),
          "It was sent by a .send effect, returned for:\n\n  pokeChildNow")
      ])
  }

  @Test func anActionForAPoppedElementAnEffectSentNamesTheEffect() {
    let (store, reports) = Courier.store()
    store.send(.push)
    store.send(.path(.popFrom(id: 0)))
    store.send(.pokeElementLater(0))
    #expect(reports.value.count == 1)
    #expect(
      reports.value.first?.hasSuffix(
        """
        It was sent by the effect at LoomTests/ActionSourceTests.swift:\(Courier.runLine + 7), \
        returned for:

          pokeElementLater(#0)
        """) == true, "\(reports.value)")
    #expect(store.state == Courier.State())
  }

  @Test func aReducerRunOutsideAStoreNamesNoSource() {
    let reports = LockedState<[String]>([])
    withDependencies {
      $0.issueReporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
    } operation: {
      var state = Courier.State()
      _ = Courier().reduce(into: &state, action: .child(.presented(.increment)))
    }
    #expect(reports.value.count == 1)
    #expect(reports.value.first?.contains("It was sent") == false, "\(reports.value)")
  }

  /// The presentation's report of `action`, ending with `source`.
  private func message(_ action: Courier.Action, _ source: String) -> String {
    """
    An "ifLet" at LoomTests/ActionSourceTests.swift:\(Courier.ifLetLine) received an action for \
    a presented child when none was presented:

      \(action)

    Make sure the parent does not send child actions after dismissing the child; the child's \
    effects are cancelled when it is dismissed, so this usually means the action was sent from \
    outside (a view or a parent effect).

    \(source)
    """
  }
}

/// Presents a counter, and stacks counters, with nothing presented or stacked to begin with;
/// its actions poke a child that is not there.
private struct Courier: Reducer {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable, Equatable { case increment }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct State: Equatable {
    @Presents var child: Counter.State?
    var path = StackState<Counter.State>()
  }
  enum Action: Sendable, Equatable {
    case child(PresentationAction<Counter.Action>)
    case path(StackAction<Counter.State, Counter.Action>)
    case pokeChildLater, pokeChildNow, push
    case pokeElementLater(StackElementID)
  }

  static let runLine = 122
  static let ifLetLine = 134

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pokeChildLater:
        return .run { send in await send(.child(.presented(.increment))) }  // runLine
      case .pokeChildNow:
        return .send(.child(.presented(.increment)))
      case .push:
        state.path.append(Counter.State())
        return .none
      case .pokeElementLater(let id):
        return .run { send in await send(.path(.element(id: id, action: .increment))) }
      case .child, .path:
        return .none
      }
    }
    .ifLet(\.$child, action: .child) { Counter() }  // ifLetLine
    .forEach(\.path, action: .path) { Counter() }
  }

  @MainActor
  static func store() -> (Store<State, Action>, LockedState<[String]>) {
    let reports = LockedState<[String]>([])
    let store = Store(initialState: State()) { Courier() } withDependencies: {
      $0.issueReporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
    }
    return (store, reports)
  }
}

extension CasePath where Root == Courier.Action {
  static var child: CasePath<Root, PresentationAction<Courier.Counter.Action>> {
    .init(Root.child) { if case .child(let action) = $0 { action } else { nil } }
  }
  static var path: CasePath<Root, StackAction<Courier.Counter.State, Courier.Counter.Action>> {
    .init(Root.path) { if case .path(let action) = $0 { action } else { nil } }
  }
}

extension LockedState where Value: Sendable {
  fileprivate var value: Value { withLock { $0 } }
}
