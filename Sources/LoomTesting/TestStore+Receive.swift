import Loom

extension TestStore where Action: Equatable {
  /// Asserts that an effect sent `expectedAction`, and how it changed the state.
  ///
  /// Waits for the action if it has not arrived yet: until an effect sends something, until no
  /// effect can make progress (then it fails at once), or until `timeout` passes.
  ///
  /// ```swift
  /// await store.receive(.factLoaded("1 is a good number.")) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  @inlinable
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: describe(expectedAction),
      matching: { $0 == expectedAction },
      mismatch: { "\(diff(expectedAction, $0))\n\n(Expected: −, Received: +)" },
      timeout: timeout, expectedChange: expectedChange,
      callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Asserts that an effect sent an action of the case `casePath` describes, with any payload.
  ///
  /// ```swift
  /// await store.receive(.pageLoaded) { $0.isLoading = false }
  /// ```
  @inlinable
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the expected case",
      matching: { casePath.extract(from: $0) != nil },
      mismatch: { "Received: \(describe($0))" },
      timeout: timeout, expectedChange: expectedChange,
      callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action of the case `casePath` describes whose payload
  /// equals `value`.
  ///
  /// ```swift
  /// await store.receive(.markedRead, "n1")
  /// ```
  @inlinable
  public func receive<Value: Equatable>(
    _ casePath: CasePath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the expected case with payload \(describe(value))",
      matching: { casePath.extract(from: $0) == value },
      mismatch: { action in
        if let payload = casePath.extract(from: action) {
          return "\(diff(value, payload))\n\n(Expected payload: −, Received: +)"
        }
        return "Received: \(describe(action))"
      },
      timeout: timeout, expectedChange: expectedChange,
      callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action for which `predicate` returns `true`.
  ///
  /// ```swift
  /// await store.receive(where: { if case .failed = $0 { true } else { false } })
  /// ```
  @inlinable
  public func receive(
    where predicate: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: predicate,
      mismatch: { "Received: \(describe($0))" },
      timeout: timeout, expectedChange: expectedChange,
      callSite: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  @inlinable
  func receive(
    description describeExpected: @autoclosure () -> String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String,
    timeout: Duration?,
    expectedChange: ((inout State) throws -> Void)?,
    callSite: CallSite
  ) async {
    reportRuntimeIssues(at: callSite)
    var description: String { describeExpected() }
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    var hasTimedOut = false
    while true {
      if exhaustivity.isExhaustive, let first = received.first {
        removeReceived(first: 1)
        guard matching(first.action) else {
          fail(
            """
            Received unexpected action\(describeOrigin(first.origin)):

            \(mismatch(first.action))
            """,
            at: callSite)
          reference = first.state
          return
        }
        assertState(
          first.state, after: "receiving \(describe(first.action))",
          expectedChange: expectedChange, at: callSite)
        reportRuntimeIssues(at: callSite)
        return
      }
      if !exhaustivity.isExhaustive, let index = received.firstIndex(where: { matching($0.action) }) {
        let skipped = received[..<index]
        if exhaustivity.showsSkippedAssertions, !skipped.isEmpty {
          print(
            "Skipped receiving \(skipped.count) action(s):\n"
              + skipped.map { "  • \(describe($0.action))" }.joined(separator: "\n"))
        }
        if index > 0 { reference = received[index - 1].state }
        let match = received[index]
        removeReceived(first: index + 1)
        assertState(
          match.state, after: "receiving \(describe(match.action))",
          expectedChange: expectedChange, at: callSite)
        reportRuntimeIssues(at: callSite)
        return
      }
      switch await awaitProgress(until: deadline) {
      case .activity:
        reportRuntimeIssues(at: callSite)
      case .noEffects:
        fail(
          """
          Expected to receive \(description), but no effects are in flight\
          \(received.isEmpty ? "" : " (and no received action matches)").
          """,
          at: callSite)
        return
      case .idle:
        fail(
          """
          Expected to receive \(description), but no effect can make progress: every effect \
          in flight is waiting on \(describeWaits()). \(describeWhatToDo()) before receiving.

          Effects in flight:
          \(describeEffectsInFlight())
          """,
          at: callSite)
        return
      case .timedOut where !hasTimedOut:
        // The action may have arrived just as the wait ran out: look once more before failing.
        hasTimedOut = true
      case .timedOut:
        fail(
          """
          Expected to receive \(description), but received nothing after \
          \(timeout ?? self.timeout).

          Effects in flight:
          \(describeEffectsInFlight())
          """,
          at: callSite)
        return
      }
    }
  }

  @usableFromInline
  func describeEffectsInFlight() -> String {
    describeEffects(hooks.effectsInFlight)
  }

  /// What the effects in flight wait on: "a test clock", "a test clock or a test stream".
  @usableFromInline
  func describeWaits() -> String {
    waitReasons().map(\.description).joined(separator: " or ")
  }

  /// What the test can do to move the waiting effects on: "Advance the clock".
  @usableFromInline
  func describeWhatToDo() -> String {
    let actions = waitReasons().map { reason in
      switch reason {
      case .testClock: "advance the clock"
      case .testStream: "yield to the stream (or finish it)"
      case .testContinuation: "resume the continuation"
      }
    }
    let text = actions.joined(separator: ", or ")
    return text.prefix(1).uppercased() + text.dropFirst()
  }

  private func waitReasons() -> [SuspensionReason] {
    var reasons: [SuspensionReason] = []
    for effect in hooks.effectsInFlight {
      if let reason = effect.waitingOn, !reasons.contains(reason) { reasons.append(reason) }
    }
    return reasons
  }
}
