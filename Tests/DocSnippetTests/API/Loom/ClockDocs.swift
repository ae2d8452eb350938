// The doc-comment snippets of Sources/Loom/Clocks and the clock dependencies.

import Loom
import LoomTesting
import Testing

enum ClockDocs {
  struct Feature: Reducer {
    struct State: Equatable { var results: [String] = [] }
    enum Action: Sendable, Equatable {
      case searchQueryChanged(String)
      case searchResponse([String])
      case remindMeTapped, reminder
    }
    enum CancelID { case search }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .searchQueryChanged(let query):
        return .run { send in await send(.searchResponse(["\(query) 1", "\(query) 2"])) }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .searchResponse(let results):
        state.results = results
        return .none
      case .remindMeTapped:
        return .run { send in
          try await remindLater()
          await send(.reminder)
        }
      case .reminder:
        return .none
      }
    }

    /// Sleeps a second on the clock of the current dependencies.
    nonisolated(nonsending) func remindLater() async throws {
      // snippet: Clock.sleep
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .seconds(1))
      // snippet: end
    }
  }

  @MainActor
  @Test static func aTestClockMovesOnlyWhenAdvanced() async {
    let results = ["loom 1", "loom 2"]
    // snippet: TestClock
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.searchQueryChanged("loom"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse(results)) { $0.results = results }
    // snippet: end
  }

  @MainActor
  @Test static func runPassesEverySleep() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.continuousClock = clock
    }
    // snippet: TestClock.run
    await store.send(.remindMeTapped)
    await clock.run()   // every sleep has passed
    // snippet: end
    await store.receive(.reminder)
  }

  @MainActor
  @Test static func anImmediateClockEndsEverySleepAtOnce() async {
    // snippet: ImmediateClock
    let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    // snippet: end
    await store.send(.remindMeTapped)
    await store.receive(.reminder)
  }

  private enum ReminderClockKey: DependencyKey {
    static let liveValue: any Clock<Duration> = ContinuousClock()
    // snippet: UnimplementedClock
    static var testValue: any Clock<Duration> { UnimplementedClock(name: "MyFeature.clock") }
    // snippet: end
  }

  @Test static func anUnimplementedClockReportsItsName() async {
    let reported = LockedState<[String]>([])
    await withDependencies {
      $0.issueReporter = IssueReporter { message, _ in reported.withLock { $0.append(message) } }
    } operation: {
      try? await ReminderClockKey.testValue.sleep(for: .seconds(1))
    }
    let messages: [String] = reported.withLock { $0 }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("MyFeature.clock") == true)
  }
}

struct EffectMapDocs: Reducer {
  typealias State = CasePathDocsApp.State
  typealias Action = AppAction

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .counter(let action):
      // snippet: Effect.map
      return Counter().reduce(into: &state.counter, action: action).map(AppAction.counter)
      // snippet: end
    case .refresh:
      return .none
    }
  }

  @MainActor
  @Test static func aMappedEffectSendsParentActions() async {
    let store = TestStore(initialState: State()) { EffectMapDocs() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.counter(.delayedIncrementTapped))
    await store.receive(.counter) { $0.counter.count = 1 }
  }
}
