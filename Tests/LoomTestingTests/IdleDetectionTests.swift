import Loom
import LoomTesting
import Testing

/// A feature whose effects wait on what only the test moves: a `TestStream` and a
/// `TestContinuation`.
struct Listener: Reducer {
  struct State: Equatable { var heard: [String] = [] }
  enum Action: Sendable, Equatable { case listen, fetch, heard(String) }

  let updates: TestStream<String>
  let answer: TestContinuation<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .listen:
      return .run { [updates] send in
        for await value in updates.stream { await send(.heard(value)) }
      }
    case .fetch:
      return .run { [answer] send in await send(.heard(try await answer.value)) }
    case .heard(let value):
      state.heard.append(value)
      return .none
    }
  }
}

/// `receive` and `finish` fail at once when every effect waits on the test, instead of waiting
/// out the timeout. The failing tests collect the failures because the message is what they
/// check; the passing ones use the default reporter.
@MainActor
struct IdleDetectionTests {
  let updates = TestStream<String>()
  let answer = TestContinuation<String>()

  func makeStore(log: FailureLog? = nil) -> TestStore<Listener.State, Listener.Action> {
    let store = TestStore(initialState: Listener.State()) {
      Listener(updates: updates, answer: answer)
    }
    if let log { store.failureReporter = log.reporter }
    // Far longer than the tests take: only idle detection can end a wait in time.
    store.timeout = .seconds(60)
    return store
  }

  @Test func anEffectWaitingOnATestStreamIsReceivedOnceTheTestYields() async {
    let store = makeStore()
    await store.send(.listen)
    updates.yield("a")
    await store.receive(.heard("a")) { $0.heard = ["a"] }
    updates.yield("b")
    await store.receive(.heard("b")) { $0.heard = ["a", "b"] }
    updates.finish()
    await store.finish()
  }

  @Test func anEffectWaitingOnATestContinuationIsReceivedOnceTheTestResumes() async {
    let store = makeStore()
    await store.send(.fetch)
    answer.resume(returning: "42")
    await store.receive(.heard("42")) { $0.heard = ["42"] }
  }

  @Test func receiveFailsAtOnceWhenTheEffectWaitsOnATestStream() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.listen)
    let started = ContinuousClock.now
    await store.receive(.heard("a"))
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(
      log.messages == [
        """
        Expected to receive .heard("a"), but no effect can make progress: every effect in \
        flight is waiting on a test stream. Yield to the stream (or finish it) before receiving.

        Effects in flight:
          • an effect of .listen at LoomTestingTests/IdleDetectionTests.swift:17 (waiting on a test stream)
        """
      ])
    updates.finish()
    await store.finish()
  }

  @Test func receiveFailsAtOnceWhenTheEffectWaitsOnATestContinuation() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.fetch)
    let started = ContinuousClock.now
    await store.receive(.heard("42"))
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(
      log.messages == [
        """
        Expected to receive .heard("42"), but no effect can make progress: every effect in \
        flight is waiting on a test continuation. Resume the continuation before receiving.

        Effects in flight:
          • an effect of .fetch at LoomTestingTests/IdleDetectionTests.swift:21 (waiting on a test continuation)
        """
      ])
    answer.resume(returning: "late")
    await store.receive(.heard("late")) { $0.heard = ["late"] }
  }

  @Test func finishFailsAtOnceWhenAnEffectWaitsOnATestStream() async {
    let log = FailureLog()
    let store = makeStore(log: log)
    await store.send(.listen)
    let started = ContinuousClock.now
    await store.finish()
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(
      log.messages.first?.hasPrefix(
        """
        Expected effects to finish, but every effect in flight is waiting on a test stream. \
        Yield to the stream (or finish it), or cancel the effects.
        """) == true, "\(log.messages)")
    updates.finish()
    await store.finish()
  }
}
