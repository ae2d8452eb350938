import Loom

/// A feature with one command per effect kind the runtime interprets, each of which sleeps on a
/// test clock and sends events back. The timing scenarios drive it on a `Store` and on a
/// `TestStore` and check, after every advance of the clock, exactly which events arrived.
///
/// Every action that is not a ``Command`` is an event an effect sent; the reducer logs it, so the
/// log is the whole record of what effects did, in order.
struct Timeline: Reducer {
  struct State: Equatable {
    var log: [Action] = []
    var child = Child.State()
    var overridden = Child.State()
    var optional: Child.State?
    var rows: IdentifiedArray<Int, Child.State> = []
  }

  enum Action: Sendable, Equatable {
    /// What a scenario sends; never logged.
    case command(Command)
    /// Sent by an effect.
    case tick(Int)
    /// Sent by an effect; its reducer answers with `.send(.tick(n))` and a `.run` that sleeps
    /// one second and sends `.tick(n + 1)`.
    case relay(Int)
    case child(Child.Action)
    case overridden(Child.Action)
    case optional(Child.Action)
    case rows(IdentifiedAction<Int, Child.Action>)
  }

  enum Command: Sendable, Equatable {
    /// One `.run` that sleeps 1 s, sends tick 1, sleeps 1 s, sends tick 2.
    case run
    /// One `.run` that sends ticks 1 to 5, one a second.
    case timer
    /// A `.run` that sleeps 1 s and sends `.relay(1)` (which answers with `.send`).
    case send
    /// `.merge` of `.send(tick 0)` and runs sleeping 1 s and 2 s.
    case merge
    /// The sequence: runs that sleep 1, 2 and 3 s and send ticks 1, 2, 3.
    case concatenate
    /// `.concatenate` of a run (1 s, tick 1), a `.send(tick 2)`, a `.merge` of runs (1 s and 2 s,
    /// ticks 3 and 4), a nested `.concatenate` (1 s tick 5, then `.send(tick 6)`), and a run
    /// (1 s, tick 7).
    case nestedConcatenate
    /// A child's `.concatenate` of two runs (1 s each, ticks 1 and 2) mapped into the parent.
    case map
    /// A `.cancellable` run sending tick 1 at 1 s and tick 2 at 2 s, cancelling one in flight.
    case startCancellable
    /// `.cancel` of the effect `startCancellable` started.
    case cancel
    /// A `.cancellable` `.concatenate` of runs (1 s, tick 1; 1 s, tick 2; 1 s, tick 3).
    case startCancellableSequence
    /// `.cancel` of the sequence `startCancellableSequence` started.
    case cancelSequence
    /// A `.run` sending `.tick(n)` at once, debounced by 300 ms.
    case debouncedRun(Int)
    /// A `.send(.tick(n))`, debounced by 300 ms.
    case debouncedSend(Int)
    /// A `.send(.tick(n))`, throttled by 1 s, latest.
    case throttled(Int)
    /// A `.run` that sleeps 500 ms and sends `.tick(n)`, throttled by 1 s, not latest.
    case throttledRun(Int)
    /// A child whose clock is a dependency override starts a 1 s then 2 s timer.
    case dependencies
    /// The scoped child starts a 1 s then 2 s timer.
    case scoped
    /// Presents the optional child and starts its 1 s then 2 s timer.
    case presentOptional
    /// Sets the optional child to nil, which cancels its effects.
    case dismissOptional
    /// Adds rows 1 and 2 and starts the timer of each.
    case addRows
    /// Removes row 2, which cancels its effects.
    case removeRow2
  }

  let clock: TestClock

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .child) { Child(clock: clock) }
    Scope(state: \.overridden, action: .overridden) {
      Child(clock: nil).dependency(\.continuousClock, clock)
    }
    Reduce { state, action in
      if case .command(let command) = action {
        Self.change(for: command)?(&state)
        return start(command)
      }
      state.log.append(action)
      if case .relay(let n) = action {
        return .merge(.send(.tick(n)), sleep(1, thenTick: n + 1))
      }
      return .none
    }
    .ifLet(\.optional, action: .optional) { Child(clock: clock) }
    .forEach(\.rows, action: .rows) { Child(clock: clock) }
  }

  enum CancelID { case timer, sequence, debounce, throttle }

  func sleep(_ seconds: Int, thenTick n: Int) -> Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(seconds))
      await send(.tick(n))
    }
  }

  /// The change a command makes to the state, if any (the scenarios' test store asserts it).
  static func change(for command: Command) -> ((inout State) -> Void)? {
    switch command {
    case .presentOptional: { $0.optional = Child.State() }
    case .dismissOptional: { $0.optional = nil }
    case .addRows: { $0.rows = [Child.State(id: 1), Child.State(id: 2)] }
    case .removeRow2: { $0.rows[id: 2] = nil }
    default: nil
    }
  }

  func start(_ command: Command) -> Effect<Action> {
    switch command {
    case .timer:
      return .run { [clock] send in
        for n in 1...5 {
          try await clock.sleep(for: .seconds(1))
          await send(.tick(n))
        }
      }
    case .run:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick(1))
        try await clock.sleep(for: .seconds(1))
        await send(.tick(2))
      }
    case .send:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.relay(1))
      }
    case .merge:
      return .merge(.send(.tick(0)), sleep(1, thenTick: 1), sleep(2, thenTick: 2))
    case .concatenate:
      return .concatenate(sleep(1, thenTick: 1), sleep(2, thenTick: 2), sleep(3, thenTick: 3))
    case .nestedConcatenate:
      return .concatenate(
        sleep(1, thenTick: 1),
        .send(.tick(2)),
        .merge(sleep(1, thenTick: 3), sleep(2, thenTick: 4)),
        .concatenate(sleep(1, thenTick: 5), .send(.tick(6))),
        sleep(1, thenTick: 7)
      )
    case .map:
      return Effect<Child.Action>.concatenate(
        Child(clock: clock).sleep(1, thenTick: 1), Child(clock: clock).sleep(1, thenTick: 2)
      )
      .map(Action.child)
    case .startCancellable:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick(1))
        try await clock.sleep(for: .seconds(1))
        await send(.tick(2))
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .cancel:
      return .cancel(id: CancelID.timer)
    case .startCancellableSequence:
      return .concatenate(sleep(1, thenTick: 1), sleep(1, thenTick: 2), sleep(1, thenTick: 3))
        .cancellable(id: CancelID.sequence)
    case .cancelSequence:
      return .cancel(id: CancelID.sequence)
    case .debouncedRun(let n):
      return .run { send in await send(.tick(n)) }
        .debounce(id: CancelID.debounce, for: .milliseconds(300), clock: clock)
    case .debouncedSend(let n):
      return Effect.send(.tick(n))
        .debounce(id: CancelID.debounce, for: .milliseconds(300), clock: clock)
    case .throttled(let n):
      return Effect.send(.tick(n))
        .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: true)
    case .throttledRun(let n):
      return Effect.run { [clock] send in
        try await clock.sleep(for: .milliseconds(500))
        await send(.tick(n))
      }
      .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: false)
    case .dependencies:
      return .send(.overridden(.startTimer))
    case .scoped:
      return .send(.child(.startTimer))
    case .presentOptional:
      return .send(.optional(.startTimer))
    case .dismissOptional, .removeRow2:
      return .none
    case .addRows:
      return .merge(
        .send(.rows(.element(id: 1, action: .startTimer))),
        .send(.rows(.element(id: 2, action: .startTimer))))
    }
  }
}

/// A child feature: a timer that ticks after 1 s and again 2 s later. With no clock given it
/// reads the `continuousClock` dependency inside its effect, where only the dependencies the
/// store bound for the effect reach it.
struct Child: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
  }
  enum Action: Sendable, Equatable {
    case startTimer
    case tick(Int)
  }

  let clock: TestClock?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .concatenate(sleep(1, thenTick: 1), sleep(2, thenTick: 2))
    case .tick:
      return .none
    }
  }

  func sleep(_ seconds: Int, thenTick n: Int) -> Effect<Action> {
    .run { [clock] send in
      if let clock {
        try await clock.sleep(for: .seconds(seconds))
      } else {
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .seconds(seconds))
      }
      await send(.tick(n))
    }
  }
}

extension CasePath where Root == Timeline.Action, Value == Child.Action {
  static var child: Self {
    Self(Timeline.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
  static var overridden: Self {
    Self(Timeline.Action.overridden) { if case .overridden(let a) = $0 { a } else { nil } }
  }
  static var optional: Self {
    Self(Timeline.Action.optional) { if case .optional(let a) = $0 { a } else { nil } }
  }
}

extension CasePath where Root == Timeline.Action, Value == IdentifiedAction<Int, Child.Action> {
  static var rows: Self {
    Self(Timeline.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension Timeline.Action {
  /// A short name for failure messages: `tick 1`, `rows[2].tick 1`, `optional.startTimer`.
  var label: String {
    switch self {
    case .command(let command): "command \(command)"
    case .tick(let n): "tick \(n)"
    case .relay(let n): "relay \(n)"
    case .child(let action): "child.\(action.label)"
    case .overridden(let action): "overridden.\(action.label)"
    case .optional(let action): "optional.\(action.label)"
    case .rows(.element(let id, let action)): "rows[\(id)].\(action.label)"
    }
  }
}

extension Child.Action {
  var label: String {
    switch self {
    case .startTimer: "startTimer"
    case .tick(let n): "tick \(n)"
    }
  }
}
