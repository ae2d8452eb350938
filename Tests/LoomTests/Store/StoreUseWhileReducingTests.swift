import Loom
import Testing

#if DEBUG
  /// In a debug build, a reducer that reaches its store (captured through a reference) and
  /// reads it or sends to it while reducing is reported. These tests read the issue reporter
  /// because the message is what they check.
  @MainActor
  struct StoreUseWhileReducingTests {
    /// Lets a reducer reach the store that runs it, which no reducer should do.
    final class StoreBox: Sendable {
      let store = Locked<StoreOf<Reaching>?>(nil)
    }

    struct Reaching: Reducer {
      struct State: Equatable { var count = 0 }
      enum Action: Sendable, Equatable { case read, send, increment }
      let box: StoreBox

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .read:
          MainActor.assumeIsolated { _ = box.store.value?.count }
        case .send:
          MainActor.assumeIsolated { _ = box.store.value?.send(.increment) }
        case .increment:
          state.count += 1
        }
        return .none
      }
    }

    func makeStore(_ log: IssueLog) -> StoreOf<Reaching> {
      let box = StoreBox()
      let store = Store(initialState: Reaching.State()) {
        Reaching(box: box)
      } withDependencies: {
        $0.issueReporter = log.reporter
      }
      box.store.withValue { $0 = store }
      return store
    }

    @Test func aReducerThatReadsItsStoreIsReported() {
      let log = IssueLog()
      let store = makeStore(log)
      store.send(.read)
      #expect(log.messages.value.count == 1)
      #expect(log.messages.value.first?.hasPrefix("A store was read while its reducer") == true)
      _ = store.count  // outside the reducer: nothing to report
      #expect(log.messages.value.count == 1)
    }

    @Test func aReducerThatSendsToItsStoreIsReportedAndTheActionStillRuns() {
      let log = IssueLog()
      let store = makeStore(log)
      store.send(.send)
      #expect(log.messages.value.count == 1)
      #expect(
        log.messages.value.first?.hasPrefix("A store was sent increment while its reducer") == true)
      #expect(store.count == 1)
    }
  }
#endif
