import Foundation
import Loom
import LoomTesting
import Testing

/// A flow of screens on a navigation stack. A screen ticks while its timer runs, may open a
/// panel with a timer of its own, and can close itself.
struct Flow: Reducer {
  struct Panel: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Sendable, Equatable { case start, tick }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .everySecond(on: clock, send: .tick)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  struct Screen: Reducer {
    struct State: Equatable {
      var ticks = 0
      var panel: Panel.State?
    }
    enum Action: Sendable, Equatable {
      case startTimer, tick, openPanel, closeTapped
      case panel(Panel.Action)
    }
    @Dependency(\.continuousClock) var clock
    @Dependency(\.dismiss) var dismiss

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .startTimer:
          return .everySecond(on: clock, send: .tick)
        case .tick:
          state.ticks += 1
          return .none
        case .openPanel:
          state.panel = Panel.State()
          return .none
        case .closeTapped:
          return .run { _ in await dismiss() }
        case .panel:
          return .none
        }
      }
      .ifLet(\.panel, action: .panel) { Panel() }
    }
  }

  struct State: Equatable { var path = StackState<Screen.State>() }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<Screen>)
    case pushTapped
    case popToRootTapped
    case resetTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pushTapped:
        state.path.append(Screen.State())
      case .popToRootTapped:
        state.path.removeAll()
      case .resetTapped:
        state.path = [Screen.State()]
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: .path) { Screen() }
  }
}

/// A flow that can save its stack and put the saved copy back.
struct Restoring: Reducer {
  struct State: Equatable {
    var path = StackState<Flow.Screen.State>()
    var saved = StackState<Flow.Screen.State>()
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<Flow.Screen>)
    case pushTapped, saveTapped, restoreAndPushTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pushTapped:
        state.path.append(Flow.Screen.State())
      case .saveTapped:
        state.saved = state.path
      case .restoreAndPushTapped:
        state.path = state.saved
        state.path.append(Flow.Screen.State(ticks: 100))
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: .path) { Flow.Screen() }
  }
}

extension CasePath where Root == Restoring.Action {
  static var path: CasePath<Root, StackActionOf<Flow.Screen>> {
    .init(Root.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CasePath where Root == Flow.Action {
  static var path: CasePath<Root, StackActionOf<Flow.Screen>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
}
/// A parent that pops the element itself when asked to.
struct SelfPoppingFlow: Reducer {
  struct State: Equatable { var path = StackState<Flow.Screen.State>() }
  enum Action: Sendable, Equatable { case path(StackActionOf<Flow.Screen>) }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .path(.popFrom(let id)) = action { state.path.pop(from: id) }
      return .none
    }
    .forEach(\.path, action: .path) { Flow.Screen() }
  }
}

extension CasePath where Root == SelfPoppingFlow.Action {
  static var path: CasePath<Root, StackActionOf<Flow.Screen>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == Flow.Screen.Action {
  static var panel: CasePath<Root, Flow.Panel.Action> { .init(Root.panel) { if case .panel(let a) = $0 { a } else { nil } } }
}

@MainActor
struct StackTests {
  @Test func theStackGivesEachElementANewIdAndNeverReusesOne() {
    var stack = StackState<Int>([10, 20, 30])
    #expect(stack.ids == [0, 1, 2])
    stack.pop(from: 1)
    #expect(stack.ids == [0])
    #expect(Array(stack) == [10])
    stack.append(40)
    #expect(stack.ids == [0, 3])
    let pushedHeldID = stack.append(50, id: 3)
    let pushedNewID = stack.append(50, id: 7)
    #expect(!pushedHeldID && pushedNewID)
    stack.append(60)
    #expect(stack.ids == [0, 3, 7, 8])
    stack.pop(to: 3)
    #expect(stack.ids == [0, 3])
    stack[id: 3] = 41
    stack[0] += 1
    #expect(Array(stack) == [11, 41])
    let last = stack.popLast()
    #expect(last == 41)
    stack.removeLast(5)
    #expect(stack.isEmpty)
  }

  @Test func anIdTheStackGaveOrCouldHaveGivenIsNotTakenAgain() {
    var stack = StackState<Int>([1])
    stack.removeAll()
    let reused = stack.append(2, id: 0)
    let last = stack.append(3, id: StackElementID(integerLiteral: .max))
    let negative = stack.append(4, id: -1)
    #expect(!reused && !last && !negative)
    #expect(stack.isEmpty)
    let beyond = stack.append(5, id: StackElementID(integerLiteral: .max - 1))
    #expect(beyond)
    let reports = LockedState(0)
    withDependencies {
      $0.issueReporter = IssueReporter { _, _ in reports.withLock { $0 += 1 } }
    } operation: {
      stack.append(6)
    }
    #expect(Array(stack) == [5])
    #expect(reports.withLock { $0 } == 1)
  }

  @Test func aStackMadeAnewStopsTheOldElementsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.path(.element(id: 0, action: .startTimer)))
    // The new stack's element has id 0 too, and no timer.
    await store.send(.resetTapped)
    await clock.advance(by: .seconds(3))
  }

  /// A copy of the stack kept from before a push and put back gives the next element pushed
  /// the id the popped one had: the two are still two elements. The popped one's effects stop,
  /// and its store is not the new one's. (The id alone told them apart: the popped element's
  /// timer went on and ticked into the new one, and its store read the new one.)
  @Test func anElementPushedOnARestoredCopyIsNotTheOneItsIdWasGivenTo() async {
    let clock = TestClock()
    let store = TestStore(initialState: Restoring.State()) { Restoring() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.saveTapped) { $0.saved = $0.path }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.path(.element(id: 1, action: .startTimer)))
    await store.send(.restoreAndPushTapped) {
      $0.path = $0.saved
      $0.path.append(Flow.Screen.State(ticks: 100))
    }
    #expect(store.state.path.ids == [0, 1])
    await clock.advance(by: .seconds(2))
  }

  @Test func aStoreOfAnElementPushedOnARestoredCopyIsItsOwn() {
    let issues = IssueLog()
    let store = Store(initialState: Restoring.State()) { Restoring() }
    store.send(.pushTapped)
    store.send(.saveTapped)
    store.send(.pushTapped)
    let popped = store.scope(state: \.path, action: .path)[1]
    store.send(.restoreAndPushTapped)
    let pushed = store.scope(state: \.path, action: .path)[1]
    #expect(pushed !== popped)
    #expect(pushed.state.ticks == 100)
    #expect(popped.state.ticks == 0)
    withDependencies { $0.issueReporter = issues.reporter } operation: {
      _ = popped.send(.tick)
    }
    #expect(store.state.path[id: 1]?.ticks == 100)
    #expect(issues.messages.value.count == 1)
  }

  @Test func aPopTheParentMadeItselfIsNoIssue() async {
    let store = TestStore(
      initialState: SelfPoppingFlow.State(path: [Flow.Screen.State(), Flow.Screen.State()])
    ) { SelfPoppingFlow() }
    await store.send(.path(.popFrom(id: 1))) { $0.path.removeLast() }
  }

  @Test func stacksAreEqualWithEqualElementsUnderTheSameIds() {
    var popped = StackState<Int>([1, 2])
    popped.removeLast()
    popped.append(2)
    #expect(popped != StackState([1, 2]))
    #expect(popped.ids == [0, 2])
    var same = StackState<Int>([1])
    same.append(2, id: 2)
    #expect(popped == same)
  }

  @Test func aPoppedElementsEffectsAndItsChildrensStop() async {
    let clock = TestClock()
    let store = TestStore(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.path(.element(id: 1, action: .startTimer)))
    await store.send(.path(.element(id: 1, action: .openPanel))) {
      $0.path[id: 1]?.panel = Flow.Panel.State()
    }
    await store.send(.path(.element(id: 1, action: .panel(.start))))
    await store.send(.path(.element(id: 0, action: .startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.ticks = 1 }
    await store.receive(.path(.element(id: 1, action: .panel(.tick)))) {
      $0.path[id: 1]?.panel?.ticks = 1
    }
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    // Popping the top screen stops its timer and its panel's; the screen below ticks on.
    await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 2 }
    // Back to the root: the last timer stops.
    await store.send(.popToRootTapped) { $0.path.removeAll() }
    await clock.advance(by: .seconds(5))
  }

  @Test func anElementDismissesItselfAndWhatIsAboveIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    await store.send(.path(.element(id: 2, action: .startTimer)))
    await store.send(.path(.element(id: 1, action: .closeTapped)))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    #expect(store.state.path.ids == [0])
    await clock.advance(by: .seconds(3))
  }

  @Test func aPushActionPushesWithItsIdAndLaterPushesFollowIt() async {
    let store = TestStore(initialState: Flow.State()) { Flow() }
    await store.send(.path(.push(id: 5, state: Flow.Screen.State(ticks: 7)))) {
      $0.path.append(Flow.Screen.State(ticks: 7), id: 5)
    }
    await store.send(.pushTapped) { $0.path.append(Flow.Screen.State()) }
    #expect(store.state.path.ids == [5, 6])
  }

  @Test func aPushOfAnIdHeldOrAnActionForAMissingElementIsReported() async {
    let reports = LockedState<[String]>([])
    let store = Store(initialState: Flow.State()) { Flow() } withDependencies: {
      $0.issueReporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
    }
    store.send(.pushTapped)
    store.send(.pushTapped)
    store.send(.path(.popFrom(id: 1)))
    let before = store.state
    store.send(.path(.push(id: 0, state: Flow.Screen.State(ticks: 5))))
    // Element 1 was popped; 9 was never pushed.
    store.send(.path(.element(id: 1, action: .tick)))
    store.send(.path(.element(id: 9, action: .tick)))
    store.send(.path(.popFrom(id: 1)))
    #expect(store.state == before)
    #expect(store.state.path.ids == [0])
    let messages = reports.withLock { $0 }
    #expect(messages.count == 4)
    #expect(messages.allSatisfy { $0.contains("\"forEach\" over a stack") })
    // Each names the action it dropped.
    let actions = [
      "push(id: #0", "element(id: #1, action: LoomTests.Flow.Screen.Action.tick)",
      "element(id: #9, action: LoomTests.Flow.Screen.Action.tick)", "popFrom(id: #1)",
    ]
    for (message, action) in zip(messages, actions) {
      #expect(message.contains(action), "\(message)")
    }
  }

  @Test func dismissOutsideAStacksElementReportsAndDoesNothing() async {
    let reports = LockedState<[String]>([])
    await withDependencies {
      $0.issueReporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
    } operation: {
      @Dependency(\.dismiss) var dismiss
      await dismiss()
    }
    let messages: [String] = reports.withLock { $0 }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("dismiss()") == true)
  }
}
