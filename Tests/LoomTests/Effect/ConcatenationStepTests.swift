import Loom
import LoomTesting
import Testing

/// A step of a `.concatenate` is finished once its own effect is (a `.send` once its action is
/// processed, a `.run` once its operation returns), as in TCA: the effects of the actions it
/// sent belong to those actions' features. So the next step does not wait for them, and
/// cancelling the sequence (or ending the child it belongs to) does not cancel them.
@MainActor
struct ConcatenationStepTests {
  @Test func theNextStepStartsOnceTheActionASendStepSentIsProcessed() async {
    let clock = TestClock()
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.sendThenNote)
    await store.receive(.startTimer)
    await store.receive(.noted) { $0.log = ["noted"] }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.log = ["noted", "tick"] }
    await store.send(.stopTimer)
  }

  @Test func theNextStepStartsOnceARunStepThatSentAnActionReturns() async {
    let clock = TestClock()
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.runThenNote)
    await store.receive(.startTimer)
    await store.receive(.noted) { $0.log = ["noted"] }
    await store.send(.stopTimer)
  }

  @Test func aStoreNoTestWatchesRunsTheNextStepToo() async {
    let clock = TestClock()
    let store = Store(initialState: Sequencer.State()) { Sequencer() } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.sendThenNote)
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["noted", "tick"])
    store.send(.stopTimer)
  }

  @Test func aStoreTaskStillWaitsForTheEffectsOfTheActionsItsStepsSent() async {
    let clock = TestClock()
    let store = Store(initialState: Sequencer.State()) { Sequencer() } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.sendThenNote)
    #expect(!task.isFinished)
    store.send(.stopTimer)
    await task.finish()
    #expect(store.state.log == ["noted"])
  }

  @Test func cancellingASequenceLeavesTheEffectsOfTheActionsItSent() async {
    let clock = TestClock()
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.sendThenWait)
    await store.receive(.startTimer)
    await store.send(.cancelSequence)
    // The timer is `.startTimer`'s, not the sequence's.
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.log = ["tick"] }
    await store.send(.stopTimer)
  }

  @Test func dismissingAChildLeavesTheEffectItsDelegateActionStartedInTheParent() async {
    let clock = TestClock()
    let store = TestStore(initialState: Delegating.State()) { Delegating() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.present) { $0.child = Delegating.Child.State() }
    await store.send(.child(.presented(.go)))
    await store.receive(.child(.presented(.delegate)))
    await store.send(.close) { $0.child = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stopTimer)
  }

  @Test func theParentsReloadAfterAnEditorSavedAndDismissedItselfRuns() async {
    let clock = TestClock()
    let store = TestStore(initialState: Reloading.State(editor: Reloading.Editor.State())) {
      Reloading()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editor(.presented(.saveTapped)))
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(.reloaded) { $0.reloaded = true }
  }
}

/// Sequences whose first step sends an action that starts a timer of its own.
private struct Sequencer: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Sendable, Equatable {
    case sendThenNote, runThenNote, sendThenWait, startTimer, tick, noted, stopTimer
    case cancelSequence
  }
  enum CancelID { case timer, sequence }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .sendThenNote:
      return .concatenate(.send(.startTimer), .send(.noted))
    case .runThenNote:
      return .concatenate(.run { send in await send(.startTimer) }, .send(.noted))
    case .sendThenWait:
      return .concatenate(
        .send(.startTimer), .run { _ in try await clock.sleep(for: .seconds(100)) },
        .send(.noted)
      )
      .cancellable(id: CancelID.sequence)
    case .startTimer:
      return .everySecond(on: clock, send: .tick).cancellable(id: CancelID.timer)
    case .tick:
      state.log.append("tick")
      return .none
    case .noted:
      state.log.append("noted")
      return .none
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .cancelSequence:
      return .cancel(id: CancelID.sequence)
    }
  }
}

/// A presented child whose sequence's first step tells the parent, which starts a timer of its
/// own in answer.
private struct Delegating: Reducer {
  struct Child: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable { case go, delegate }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .go:
        return .concatenate(
          .run { send in await send(.delegate) },
          .run { _ in try await clock.sleep(for: .seconds(100)) }
        )
      case .delegate:
        return .none
      }
    }
  }

  struct State: Equatable {
    @Presents var child: Child.State?
    var ticks = 0
  }
  enum Action: Sendable, Equatable {
    case child(PresentationAction<Child.Action>)
    case present, close, tick, stopTimer
  }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .present:
        state.child = Child.State()
        return .none
      case .close:
        state.child = nil
        return .none
      case .child(.presented(.delegate)):
        return .everySecond(on: clock, send: .tick).cancellable(id: CancelID.timer)
      case .child:
        return .none
      case .tick:
        state.ticks += 1
        return .none
      case .stopTimer:
        return .cancel(id: CancelID.timer)
      }
    }
    .ifLet(\.$child, action: .child) { Child() }
  }
}

/// An editor that saves, then dismisses itself, in one sequence; its parent reloads when it
/// is dismissed.
private struct Reloading: Reducer {
  struct Editor: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable { case saveTapped }
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      .concatenate(.run { _ in await Task.yield() }, .run { _ in await dismiss() })
    }
  }

  struct State: Equatable {
    @Presents var editor: Editor.State?
    var reloaded = false
  }
  enum Action: Sendable, Equatable {
    case editor(PresentationAction<Editor.Action>)
    case reloaded
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor(.dismiss):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.reloaded)
        }
      case .editor:
        return .none
      case .reloaded:
        state.reloaded = true
        return .none
      }
    }
    .ifLet(\.$editor, action: .editor) { Editor() }
  }
}

extension CasePath where Root == Delegating.Action {
  static var child: CasePath<Root, PresentationAction<Delegating.Child.Action>> {
    .init(Root.child) { if case .child(let action) = $0 { action } else { nil } }
  }
}

extension CasePath where Root == Reloading.Action {
  static var editor: CasePath<Root, PresentationAction<Reloading.Editor.Action>> {
    .init(Root.editor) { if case .editor(let action) = $0 { action } else { nil } }
  }
}
