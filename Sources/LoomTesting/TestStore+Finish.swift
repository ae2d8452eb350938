import Loom

extension TestStore {
  /// Waits until every effect in flight has finished; fails if they are still running after
  /// `timeout`, or at once if every one of them waits on a test clock.
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
    while hooks.inFlightEffectCount > 0 {
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
          Expected effects to finish, but every effect in flight is waiting on a test clock.

          Effects in flight:
          \(describeEffectsInFlight())
          """,
          at: callSite)
        return
      case .timedOut where hooks.inFlightEffectCount == 0:
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
        return
      }
    }
    reportRuntimeIssues(at: callSite)
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
    received.removeAll()
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

  /// The end-of-test checks: runtime issues, unasserted actions and effects still in flight.
  func completeTest(at callSite: CallSite) {
    reportRuntimeIssues(at: callSite)
    if !received.isEmpty, exhaustivity.isExhaustive {
      fail(
        """
        The store received \(received.count) unexpected \
        \(received.count == 1 ? "action" : "actions") by the end of the test:

        \(describeReceived())
        """,
        at: callSite)
    }
    if hooks.inFlightEffectCount > 0, exhaustivity.isExhaustive {
      fail(
        """
        \(hooks.inFlightEffectCount) \(hooks.inFlightEffectCount == 1 ? "effect is" : "effects are") \
        still running at the end of the test. Assert what they send, cancel them (for example \
        with "await task.cancel()" on the task "send" returned), or call \
        "skipInFlightEffects()".

        Effects in flight:
        \(describeEffectsInFlight())
        """,
        at: callSite)
    }
    hooks.cancelAllEffects()
  }
}
