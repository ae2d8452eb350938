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

/// Only the waits of an effect's own task tell that it waits on the test: a task it started (a
/// task group's child) may wait on a test clock while the effect's own task works. (A race of a
/// fetch against a test clock's timeout failed at once: "every effect in flight is waiting on a
/// test clock".)
@MainActor
struct IdleDetectionOfChildTasksTests {
  struct Racer: Reducer {
    struct State: Equatable { var results: [String] = [] }
    enum Action: Sendable, Equatable { case fetch, fetched(String) }
    let clock: TestClock
    let fetch: @Sendable () async throws -> String

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .fetch:
        return .run { [clock, fetch] send in
          let result = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask { try await fetch() }
            group.addTask {
              try await clock.sleep(for: .seconds(10))
              return "timed out"
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
          }
          await send(.fetched(result))
        }
      case .fetched(let result):
        state.results.append(result)
        return .none
      }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aFetchRacingATestClockTimeoutIsReceived() async {
    let store = TestStore(initialState: Racer.State()) {
      Racer(clock: TestClock()) {
        try await Task.sleep(for: .milliseconds(100))  // work off the main actor
        return "answer"
      }
    }
    await store.send(.fetch)
    await store.receive(.fetched("answer")) { $0.results = ["answer"] }
  }

  struct Subscriber: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable { case listen, stop, heard(Int) }
    enum CancelID { case listening }
    let updates: @Sendable () -> AsyncStream<Int>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .listen:
        return .run { [updates] send in
          for await value in updates() { await send(.heard(value)) }
        }
        .cancellable(id: CancelID.listening)
      case .stop:
        return .cancel(id: CancelID.listening)
      case .heard:
        return .none
      }
    }
  }

  /// A client that relays a test stream from a task of its own: cancelled, the effect ends, and
  /// `finish()` waits for it. (It failed at once: the relay's wait on the test stream made the
  /// effect look idle.)
  @Test(.timeLimit(.minutes(1)))
  func finishWaitsForACancelledEffectWhoseClientRelaysATestStream() async {
    let source = TestStream<Int>()
    let store = TestStore(initialState: Subscriber.State()) {
      Subscriber {
        AsyncStream { continuation in
          Task { for await value in source.stream { continuation.yield(value) } }
        }
      }
    }
    await store.send(.listen)
    await store.send(.stop)
    await store.finish()
    source.finish()
  }
}
