// The snippets of Docs/MigratingFromTCA.md: the guide's package, `Ported`, is the ported
// feature (`Sources/Ported/Tally.swift`) and its test (`Tests/PortedTests/PortedTests.swift`,
// whose imports are in GuidePackageFiles.swift).

// snippet: ported-feature
import Loom

struct Tally: Reducer {                          // TCA: @Reducer struct Tally
  struct State: Equatable {                      // TCA: @ObservableState struct State
    var count = 0
    var note = ""                                // bound to a text field
    @Presents var alert: AlertState<Action.Alert>?
  }
  enum Action: BindableAction, Sendable, Equatable {
    case binding(BindingAction<State>)
    case incrementTapped
    case triviaTapped
    case triviaLoaded(String)
    case alert(PresentationAction<Alert>)

    enum Alert: Sendable, Equatable { case resetTapped }

    // TCA's @CasePathable gives BindableAction this; here it is one line.
    var binding: BindingAction<State>? { if case .binding(let a) = self { a } else { nil } }
  }
  @Dependency(\.trivia) var trivia

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .triviaTapped:
        return .run { [count = state.count] send in
          await send(.triviaLoaded(try await trivia.fact(count)))
        }
      case .triviaLoaded(let fact):
        state.alert = AlertState(
          title: fact,
          buttons: [
            ButtonState(action: .resetTapped, label: "Start again"),
            ButtonState(role: .cancel, label: "OK"),
          ])
        return .none
      case .alert(.presented(.resetTapped)):
        state.count = 0
        return .none
      case .binding, .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: .alert)             // TCA: action: \.alert
  }
}

// TCA's @CasePathable writes these: one line per case that composition names.
extension CasePath where Root == Tally.Action {
  static var alert: CasePath<Root, PresentationAction<Root.Alert>> { .init(Root.alert) { if case .alert(let a) = $0 { a } else { nil } } }
}

// TCA: @DependencyClient struct TriviaClient { var fact: (Int) async throws -> String }
struct TriviaClient: Sendable {
  var fact: @Sendable (Int) async throws -> String
}

extension TriviaClient: DependencyKey {
  static let liveValue = TriviaClient { "\($0) is the number of the day." }
  static let testValue = TriviaClient(fact: unimplemented("TriviaClient.fact"))
}

extension DependencyValues {
  var trivia: TriviaClient {
    get { self[TriviaClient.self] }
    set { self[TriviaClient.self] = newValue }
  }
}
// snippet: end

import LoomTesting
import Testing

extension MigrationGuideTests {
  // snippet: ported-test
  @MainActor
  @Test func aFactAndItsAlert() async {
    let store = TestStore(initialState: Tally.State()) { Tally() } withDependencies: {
      $0.trivia.fact = { "\($0) is small." }
    }
    await store.send(.binding(.set(\.note, "Cups of tea"))) { $0.note = "Cups of tea" }
    await store.send(.incrementTapped) { $0.count = 1 }   // TCA: store.send(.incrementTapped)
    await store.send(.triviaTapped)
    await store.receive(.triviaLoaded("1 is small.")) {   // TCA: store.receive(\.triviaLoaded)
      $0.alert = AlertState(
        title: "1 is small.",
        buttons: [
          ButtonState(action: .resetTapped, label: "Start again"),
          ButtonState(role: .cancel, label: "OK"),
        ])
    }
    await store.send(.alert(.presented(.resetTapped))) {
      $0.count = 0
      $0.alert = nil
    }
  }
  // snippet: end
}

struct MigrationGuideTests {}
