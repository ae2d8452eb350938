import Loom

extension TestStore {
  /// Ends the test explicitly: waits until every effect in flight has finished, then checks
  /// that the test asserted every action the effects sent.
  ///
  /// In exhaustive mode (the default) it fails if effects are still running after `timeout`, at
  /// once if every one of them waits on the test (a `TestClock` not advanced, a `TestStream`
  /// not yielded to, a `TestContinuation` not resumed), and if actions were received that the
  /// test did not assert. These are the checks the store also makes when the test releases it;
  /// calling `finish()` makes them at this line and waits for effects that need a moment to
  /// finish (work off the main actor) instead of failing on them.
  ///
  /// Effects that were cancelled stop on their own, so when only they are left, the wait goes
  /// on for up to ``cancelledEffectsGracePeriod`` more: on a loaded machine a cancelled task
  /// can take a while to be scheduled and unwind.
  ///
  /// ```swift
  /// await store.send(.stopTapped)
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var deadline = ContinuousClock.now + (timeout ?? self.timeout)
    var hasExtendedForCancelledEffects = false
    // An open throttle window sends nothing: only effects that may are waited for.
    while hooks.inFlightWorkCount > 0 {
      switch await awaitProgress(until: deadline) {
      case .activity, .noEffects:
        continue
      case .timedOut
      where !hasExtendedForCancelledEffects && hooks.effectsInFlight.allSatisfy(\.isCancelled):
        hasExtendedForCancelledEffects = true
        deadline = ContinuousClock.now + Self.cancelledEffectsGracePeriod
        continue
      case .idle:
        fail(
          """
          Expected effects to finish, but every effect in flight is waiting on \
          \(describeWaits()). \(describeWhatToDo()), or cancel the effects.

          Effects in flight:
          \(describeEffectsInFlight())
          """,
          at: callSite)
        reportUnassertedActions(at: callSite)
        return
      case .timedOut where hooks.inFlightWorkCount == 0:
        // They finished just as the wait ran out.
        break
      case .timedOut:
        let grace =
          hasExtendedForCancelledEffects
          ? " (and \(Self.cancelledEffectsGracePeriod) more, as they were all cancelled)" : ""
        fail(
          """
          Expected effects to finish, but they were still running after \
          \(timeout ?? self.timeout)\(grace).

          Effects in flight:
          \(describeEffectsInFlight())
          """,
          at: callSite)
        reportUnassertedActions(at: callSite)
        return
      }
    }
    reportUnassertedActions(at: callSite)
  }

  /// Reports runtime issues and, in exhaustive mode, the actions received and not asserted,
  /// which then count as asserted, so they are reported once.
  private func reportUnassertedActions(at callSite: CallSite) {
    reportRuntimeIssues(at: callSite)
    guard exhaustivity.isExhaustive, !received.isEmpty else { return }
    fail(
      TestStoreLedger<State, Action>.unreceivedActionsMessage(
        received.map { (action: $0.action, origin: $0.origin) }, when: "by the end of the test"),
      at: callSite)
    if let last = received.last { reference = last.state }
    removeAllReceived()
  }

  /// How much longer ``finish(timeout:fileID:filePath:line:column:)`` waits when only cancelled
  /// effects are left in flight.
  public static var cancelledEffectsGracePeriod: Duration { .seconds(15) }

  /// Drops the actions received so far without asserting them.
  ///
  /// ```swift
  /// await store.skipReceivedActions()
  /// ```
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportRuntimeIssues(at: callSite)
    if received.isEmpty, strict {
      fail("There were no received actions to skip.", at: callSite)
    }
    if let last = received.last { reference = last.state }
    removeAllReceived()
  }

  /// Cancels every effect in flight, so the test can end without asserting them.
  ///
  /// ```swift
  /// await store.skipInFlightEffects()
  /// ```
  public func skipInFlightEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    hooks.cancelAllEffects()
    await finish(fileID: fileID, filePath: filePath, line: line, column: column)
    reportRuntimeIssues(at: callSite)
  }
}
