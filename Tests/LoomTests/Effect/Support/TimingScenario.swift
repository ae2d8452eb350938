import Loom
import LoomTesting
import Testing

/// One step of a timing scenario.
enum TimingStep: Sendable {
  /// The test sends a command.
  case send(Timeline.Command)
  /// The test advances the clock.
  case advance(Duration)
  /// The events effects sent since the previous `expect`, in order: right after the step
  /// before, with no waiting.
  case expect([Timeline.Action])
}

/// A script of commands and clock advances for one effect kind, with exactly which events must
/// have arrived after each step. Every scenario ends with no effect in flight.
struct TimingScenario: Sendable, CustomTestStringConvertible {
  let name: String
  let steps: [TimingStep]

  var testDescription: String { name }

  static func seconds(_ value: Int) -> TimingStep { .advance(.seconds(value)) }
  static func milliseconds(_ value: Int) -> TimingStep { .advance(.milliseconds(value)) }
}

extension TimingScenario {
  /// One scenario per effect kind the runtime interprets, and the sequences that combine them.
  static let all: [TimingScenario] = [
    TimingScenario(
      name: "run",
      steps: [
        .send(.run), .expect([]),
        seconds(1), .expect([.tick(1)]),
        seconds(1), .expect([.tick(2)]),
      ]),
    TimingScenario(
      name: "run: a timer, five ticks in one advance",
      steps: [
        .send(.timer), .expect([]),
        seconds(5), .expect([.tick(1), .tick(2), .tick(3), .tick(4), .tick(5)]),
      ]),
    TimingScenario(
      name: "send",
      steps: [
        .send(.send), .expect([]),
        seconds(1), .expect([.relay(1), .tick(1)]),
        seconds(1), .expect([.tick(2)]),
      ]),
    TimingScenario(
      name: "merge",
      steps: [
        .send(.merge), .expect([.tick(0)]),
        seconds(1), .expect([.tick(1)]),
        seconds(1), .expect([.tick(2)]),
      ]),
    // The sequence the issue reported: [1] at 3 s instead of [1, 2] when the second step's
    // sleeper was registered after the advance had returned.
    TimingScenario(
      name: "concatenate",
      steps: [
        .send(.concatenate), .expect([]),
        seconds(3), .expect([.tick(1), .tick(2)]),
        seconds(3), .expect([.tick(3)]),
      ]),
    TimingScenario(
      name: "concatenate, second by second",
      steps: [
        .send(.concatenate), .expect([]),
        seconds(1), .expect([.tick(1)]),
        seconds(1), .expect([]),
        seconds(1), .expect([.tick(2)]),
        seconds(2), .expect([]),
        seconds(1), .expect([.tick(3)]),
      ]),
    TimingScenario(
      name: "concatenate of send, merge and concatenate, step by step",
      steps: [
        .send(.nestedConcatenate), .expect([]),
        seconds(1), .expect([.tick(1), .tick(2)]),
        seconds(1), .expect([.tick(3)]),
        seconds(1), .expect([.tick(4)]),
        seconds(1), .expect([.tick(5), .tick(6)]),
        seconds(1), .expect([.tick(7)]),
      ]),
    TimingScenario(
      name: "concatenate of send, merge and concatenate, in one advance",
      steps: [
        .send(.nestedConcatenate), .expect([]),
        seconds(5),
        .expect([.tick(1), .tick(2), .tick(3), .tick(4), .tick(5), .tick(6), .tick(7)]),
      ]),
    TimingScenario(
      name: "map",
      steps: [
        .send(.map), .expect([]),
        seconds(1), .expect([.child(.tick(1))]),
        seconds(1), .expect([.child(.tick(2))]),
      ]),
    TimingScenario(
      name: "cancellable and cancel",
      steps: [
        .send(.startCancellable), .expect([]),
        milliseconds(500), .expect([]),
        // Cancels the first timer in flight and starts again at 0.5 s.
        .send(.startCancellable), .expect([]),
        milliseconds(500), .expect([]),
        milliseconds(500), .expect([.tick(1)]),
        .send(.cancel),
        seconds(5), .expect([]),
      ]),
    TimingScenario(
      name: "cancel of a concatenate between steps",
      steps: [
        .send(.startCancellableSequence), .expect([]),
        seconds(1), .expect([.tick(1)]),
        .send(.cancelSequence),
        seconds(5), .expect([]),
      ]),
    TimingScenario(
      name: "cancel of a concatenate inside a step",
      steps: [
        .send(.startCancellableSequence), .expect([]),
        milliseconds(1_500), .expect([.tick(1)]),
        .send(.cancelSequence),
        seconds(5), .expect([]),
      ]),
    TimingScenario(
      name: "debounce of a run",
      steps: [
        .send(.debouncedRun(1)), milliseconds(200), .expect([]),
        .send(.debouncedRun(2)), milliseconds(200), .expect([]),
        milliseconds(100), .expect([.tick(2)]),
        seconds(1), .expect([]),
      ]),
    TimingScenario(
      name: "debounce of a send",
      steps: [
        .send(.debouncedSend(1)), milliseconds(200), .expect([]),
        .send(.debouncedSend(2)), milliseconds(200), .expect([]),
        milliseconds(100), .expect([.tick(2)]),
        seconds(1), .expect([]),
      ]),
    TimingScenario(
      name: "throttle, latest",
      steps: [
        .send(.throttled(1)), .expect([.tick(1)]),
        milliseconds(200), .send(.throttled(2)),
        milliseconds(300), .send(.throttled(3)), .expect([]),
        milliseconds(500), .expect([.tick(3)]),
        seconds(1), .expect([]),
        .send(.throttled(4)), .expect([.tick(4)]),
        seconds(1), .expect([]),
      ]),
    TimingScenario(
      name: "throttle of a run, first",
      steps: [
        .send(.throttledRun(1)), .expect([]),
        milliseconds(200), .send(.throttledRun(2)), .send(.throttledRun(3)), .expect([]),
        milliseconds(300), .expect([.tick(1)]),
        milliseconds(500), .expect([]),
        milliseconds(500), .expect([.tick(2)]),
        milliseconds(500), .expect([]),
      ]),
    TimingScenario(
      name: "dependencies",
      steps: [
        .send(.dependencies), .expect([.overridden(.startTimer)]),
        seconds(1), .expect([.overridden(.tick(1))]),
        seconds(2), .expect([.overridden(.tick(2))]),
      ]),
    TimingScenario(
      name: "scoped",
      steps: [
        .send(.scoped), .expect([.child(.startTimer)]),
        seconds(1), .expect([.child(.tick(1))]),
        seconds(2), .expect([.child(.tick(2))]),
      ]),
    TimingScenario(
      name: "scoped: an optional child dismissed in the middle of its timer",
      steps: [
        .send(.presentOptional), .expect([.optional(.startTimer)]),
        seconds(1), .expect([.optional(.tick(1))]),
        .send(.dismissOptional),
        seconds(5), .expect([]),
      ]),
    TimingScenario(
      name: "scoped: rows, one removed in the middle of its timer",
      steps: [
        .send(.addRows),
        .expect([
          .rows(.element(id: 1, action: .startTimer)), .rows(.element(id: 2, action: .startTimer)),
        ]),
        seconds(1),
        .expect([
          .rows(.element(id: 1, action: .tick(1))), .rows(.element(id: 2, action: .tick(1))),
        ]),
        .send(.removeRow2),
        seconds(2), .expect([.rows(.element(id: 1, action: .tick(2)))]),
      ]),
  ]

  /// Runs the scenario on a plain `Store` and returns every disagreement with it.
  @MainActor
  func runOnStore() async -> [String] {
    let clock = TestClock()
    let store = Store(initialState: Timeline.State()) { Timeline(clock: clock) }
    var expected: [Timeline.Action] = []
    var disagreements: [String] = []
    for (index, step) in steps.enumerated() {
      switch step {
      case .send(let command):
        store.send(.command(command))
      case .advance(let duration):
        await clock.advance(by: duration)
      case .expect(let events):
        expected += events
        if store.state.log != expected {
          disagreements.append(
            "\(name), Store, step \(index) at \(clock.now.offset): expected "
              + "\(expected.map(\.label)), got \(store.state.log.map(\.label))")
        }
      }
    }
    if store.inFlightEffectCount != 0 {
      disagreements.append(
        "\(name), Store: \(store.inFlightEffectCount) effects still in flight at the end")
    }
    return disagreements
  }

  /// Runs the scenario on a `TestStore`: each expected event is received with no waiting
  /// (`timeout: .zero`), and the log holds nothing more. Failures go to `failureReporter` (the
  /// test framework by default); disagreements in the log are returned.
  @MainActor
  func runOnTestStore(failureReporter: TestFailureReporter? = nil) async -> [String] {
    let clock = TestClock()
    let store = TestStore(initialState: Timeline.State()) { Timeline(clock: clock) }
    if let failureReporter { store.failureReporter = failureReporter }
    var expected: [Timeline.Action] = []
    var disagreements: [String] = []
    for (index, step) in steps.enumerated() {
      switch step {
      case .send(let command):
        await store.send(.command(command), assert: Timeline.change(for: command))
      case .advance(let duration):
        await clock.advance(by: duration)
      case .expect(let events):
        expected += events
        if store.state.log != expected {
          disagreements.append(
            "\(name), TestStore, step \(index) at \(clock.now.offset): expected "
              + "\(expected.map(\.label)), got \(store.state.log.map(\.label))")
        }
        for event in events {
          await store.receive(event, timeout: .zero) { $0.log.append(event) }
        }
      }
    }
    await store.finish(timeout: .zero)
    return disagreements
  }
}
