import Loom
import Testing

@MainActor
struct StoreEffectTests {
  struct Feature: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable {
      case start, middle, end
      case concatenated
      case merged
      case failing, caught(String)
      case mapped
      case child(String)
    }
    let signal = Signal()

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state.log.append("start")
        return .run { send in await send(.middle) }
      case .middle:
        state.log.append("middle")
        return .run { send in
          await Task.yield()
          await send(.end)
        }
      case .end:
        state.log.append("end")
        return .none
      case .concatenated:
        return .concatenate(
          .run { send in
            for _ in 0..<50 { await Task.yield() }
            await send(.child("1"))
          },
          .send(.child("2")),
          .run { send in await send(.child("3")) }
        )
      case .merged:
        let signal = signal
        return .merge(
          .run { send in
            await signal.wait()
            await send(.child("waited"))
          },
          .run { send in
            signal.fire()
            await send(.child("fired"))
          }
        )
      case .failing:
        return .run { _ in
          throw Failure()
        } catch: { error, send in
          await send(.caught("\(error)"))
        }
      case .caught(let message):
        state.log.append("caught \(message)")
        return .none
      case .mapped:
        return Effect<String>.run { send in await send("mapped") }.map(Action.child)
      case .child(let value):
        state.log.append(value)
        return .none
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String { "Failure" }
  }

  @Test func finishAwaitsEffectsStartedTransitively() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.start).finish()
    #expect(store.state.log == ["start", "middle", "end"])
    #expect(store.inFlightEffectCount == 0)
  }

  @Test func concatenateRunsEffectsStrictlyInOrder() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.concatenated).finish()
    #expect(store.state.log == ["1", "2", "3"])
  }

  @Test func mergeRunsEffectsConcurrently() async {
    // The first effect waits for the second: run one after the other, they would never finish.
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.merged).finish()
    #expect(Set(store.state.log) == ["waited", "fired"])
  }

  @Test func runsThatNeverSuspendEndInsideTheSendThatStartedThem() {
    struct InPlace: Reducer {
      struct State { var log: [String] = [] }
      enum Action: Sendable { case start, logged(String) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .merge(
            .run { send in await send(.logged("first run")) },
            .send(.logged("send")),
            .run { send in await send(.logged("second run")) })
        case .logged(let entry):
          state.log.append(entry)
          return .none
        }
      }
    }
    let store = Store(initialState: InPlace.State()) { InPlace() }
    let task = store.send(.start)
    // Like W8's in-memory clients: each run starts in place and ends before the send returns,
    // its action queued in order with the merge's `.send`, and nothing is left registered.
    #expect(task.isFinished)
    #expect(store.inFlightEffectCount == 0)
    #expect(store.state.log == ["first run", "send", "second run"])
  }

  @Test func catchHandlerReceivesTheError() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.failing).finish()
    #expect(store.state.log == ["caught Failure"])
  }

  @Test func mapTransformsTheActionsAnEffectSends() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.mapped).finish()
    #expect(store.state.log == ["mapped"])
  }

  @Test func anUnhandledErrorIsReportedNamingTheActionThatStartedTheEffect() async {
    struct Throwing: Reducer {
      struct State {}
      enum Action: Sendable { case load }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        .run { _ in throw Failure() }
      }
    }
    let issues = IssueLog()
    let store = Store(initialState: Throwing.State()) {
      Throwing()
    } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    await store.send(.load).finish()
    let messages = issues.messages.value
    #expect(messages.count == 1)
    #expect(
      messages.first?.contains("Throwing.Action.load") == true
        || messages.first?.contains("load") == true)
    #expect(messages.first?.contains("Failure") == true)
  }
}
