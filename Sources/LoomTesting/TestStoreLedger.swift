import Loom

/// What a test store still expects of its test, and the end-of-test checks, reachable from any
/// thread.
///
/// A test ends by releasing its test store, and the store checks that nothing was left
/// unasserted from its deinit. That deinit is not isolated to the main actor on purpose: a deinit
/// isolated to an actor runs without the task-local values of the task that released the store,
/// and Swift Testing finds the running test through one of them, so a failure reported there
/// reached no test and the test passed. A nonisolated deinit runs where the last reference goes
/// away, which in a test is the end of the test function, in the test's own task: the failures
/// are recorded against that test. Everything the checks need lives here, behind a lock, so they
/// can run wherever that is.
@usableFromInline
final class TestStoreLedger<State, Action: Sendable>: Sendable {
  @usableFromInline
  struct Entries: Sendable {
    var exhaustivity: Exhaustivity = .on
    var failureReporter: TestFailureReporter = .testFramework
    /// Actions effects sent that the test has not asserted yet, oldest first.
    @usableFromInline var unreceived: [(action: Action, origin: EffectOrigin<Action>)] = []
    /// Where the test sent each action whose effects may still be in flight, by send.
    var sendSites: [ObjectIdentifier: (task: StoreTask, callSite: CallSite)] = [:]
    /// Whether the end-of-test checks have run.
    var isComplete = false
  }

  @usableFromInline let entries = LockedState(Entries())
  let hooks: any StoreTestingHooks<State, Action>
  let runtimeIssues: RuntimeIssues
  /// Where the test created the store; end-of-test failures with no better place point here.
  let creation: CallSite
  /// The framework of the test that created the store.
  let framework: TestFramework

  @usableFromInline
  init(
    hooks: any StoreTestingHooks<State, Action>, runtimeIssues: RuntimeIssues,
    creation: CallSite, framework: TestFramework
  ) {
    self.hooks = hooks
    self.runtimeIssues = runtimeIssues
    self.creation = creation
    self.framework = framework
  }

  /// Reports a failure to the store's failure reporter.
  @usableFromInline
  func fail(_ message: String, at callSite: CallSite) {
    let reporter = entries.withLock { $0.failureReporter }
    reporter.record(TestFailure(message: message, at: callSite, framework: framework))
  }

  /// Reports the runtime issues the store raised since the last check, as failures at `callSite`.
  @usableFromInline
  func reportRuntimeIssues(at callSite: CallSite) {
    for issue in runtimeIssues.drain() {
      fail("The store reported a runtime issue: \(issue.message)", at: callSite)
    }
  }

  /// Remembers where the test sent the action that started `task`'s effects, so an effect still
  /// running at the end is reported there. Forgets the sends whose effects all finished.
  @usableFromInline
  func recordSend(_ task: StoreTask, at callSite: CallSite) {
    entries.withLock { entries in
      entries.sendSites = entries.sendSites.filter { !$0.value.task.isFinished }
      if let id = task.id, !task.isFinished {
        entries.sendSites[id] = (task, callSite)
      }
    }
  }

  /// The end-of-test checks, run once: runtime issues, actions received but not asserted, and
  /// effects still running. Then cancels every effect.
  ///
  /// An effect that was cancelled never counts as running: it is stopping, can no longer send
  /// anything, and how quickly its task unwinds must not decide whether the test passes.
  func completeTest() {
    let entries = entries.withLock { entries in
      defer { entries.isComplete = true }
      return entries
    }
    guard !entries.isComplete else { return }
    hooks.setActivityHandler(nil)
    defer { hooks.cancelAllEffects() }
    reportRuntimeIssues(at: creation)
    guard entries.exhaustivity.isExhaustive else { return }
    if !entries.unreceived.isEmpty {
      fail(Self.unreceivedActionsMessage(entries.unreceived, when: "by the end of the test"), at: creation)
    }
    // An open throttle window sends nothing (what it holds back is listed on its own).
    let running = hooks.effectsInFlight.filter { !$0.isCancelled && !$0.isThrottleWindow }
    var sends: [ObjectIdentifier] = []
    var effectsBySend: [ObjectIdentifier: [InFlightEffect<Action>]] = [:]
    for effect in running {
      if effectsBySend[effect.sendID] == nil { sends.append(effect.sendID) }
      effectsBySend[effect.sendID, default: []].append(effect)
    }
    for send in sends {
      let effects = effectsBySend[send] ?? []
      let one = effects.count == 1
      fail(
        """
        \(effects.count) \(one ? "effect is" : "effects are") still running at the end of the \
        test. Assert what \(one ? "it sends" : "they send"), cancel \(one ? "it" : "them") (for \
        example with "await task.cancel()" on the task "send" returned), or end the test with \
        "await store.skipInFlightEffects()".

        Effects in flight:
        \(describeEffects(effects))
        """,
        at: entries.sendSites[send]?.callSite ?? creation)
    }
  }

  /// "The store received 2 unexpected actions by the end of the test: …"
  static func unreceivedActionsMessage(
    _ unreceived: [(action: Action, origin: EffectOrigin<Action>)], when: String
  ) -> String {
    """
    The store received \(unreceived.count) unexpected \
    \(unreceived.count == 1 ? "action" : "actions") \(when):

    \(describeReceived(unreceived))
    """
  }
}
