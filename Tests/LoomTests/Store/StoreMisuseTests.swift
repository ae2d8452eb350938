import Loom
import Testing

/// Misuse the store reports as a runtime issue. These tests read the issue reporter because the
/// message is what they check.
@MainActor
struct StoreMisuseTests {
  /// An effect that lets its `send` escape and returns at once.
  struct Escaping: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable, Equatable { case start, increment }
    let escaped: Locked<Send<Action>?>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [escaped] send in escaped.withValue { $0 = send } }
      case .increment:
        state.count += 1
        return .none
      }
    }
  }

  @Test func anActionSentAfterItsEffectFinishedIsReportedAndIgnored() async {
    let log = IssueLog()
    let escaped = Locked<Send<Escaping.Action>?>(nil)
    let store = Store(initialState: Escaping.State()) {
      Escaping(escaped: escaped)
    } withDependencies: {
      $0.issueReporter = log.reporter
    }
    await store.send(.start).finish()
    await escaped.value?(.increment)
    #expect(store.state.count == 0)
    #expect(log.messages.value.count == 1)
    #expect(
      log.messages.value.first?.hasPrefix(
        """
        An effect sent an action after it had finished, so the action was ignored:

          Action: increment
          Effect: the .run at LoomTests/StoreMisuseTests.swift:17, returned for start
        """) == true, "\(log.messages.value)")
    #expect(log.locations.value.map(\.line) == [17])
  }
}
