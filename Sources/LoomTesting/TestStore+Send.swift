import Loom

extension TestStore {
  /// Sends an action and asserts how it changes the state.
  ///
  /// The closure receives the state as it was before the action (as far as the test has
  /// asserted) and must change it into the state expected after the action.
  ///
  /// ```swift
  /// await store.send(.incrementTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// In exhaustive mode, actions received from effects must all be asserted before the next
  /// `send`.
  @inlinable
  @discardableResult
  public func send(
    _ action: Action,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportRuntimeIssues(at: callSite)
    if !received.isEmpty {
      if exhaustivity.isExhaustive {
        fail(
          """
          Must handle \(received.count) received \(received.count == 1 ? "action" : "actions") \
          before sending an action:

          \(describeReceived())
          """,
          at: callSite)
      } else if exhaustivity.showsSkippedAssertions {
        print("Skipped receiving \(received.count) action(s):\n\(describeReceived())")
      }
      if let last = received.last { reference = last.state }
      removeAllReceived()
    }
    stateAfterSentAction = nil
    let task = store.send(action)
    ledger.recordSend(task, at: callSite)
    let actual = stateAfterSentAction ?? store.state
    assertState(
      actual, after: "sending \(describe(action))", expectedChange: expectedChange,
      at: callSite)
    await settleEffects()
    reportRuntimeIssues(at: callSite)
    return TestStoreTask(
      task: task, timeout: timeout,
      report: { [weak self] message, site in self?.fail(message, at: site) })
  }

  /// Sends the action a case path embeds `value` in, and asserts how it changes the state: a
  /// chain names a child's action.
  ///
  /// ```swift
  /// await store.send(.detail.textChanged, "Hi") {
  ///   $0.detail?.text = "Hi"
  /// }
  /// ```
  @inlinable
  @discardableResult
  public func send<Value>(
    _ casePath: CasePath<Action, Value>,
    _ value: Value,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      casePath.embed(value), assert: expectedChange, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Asserts the current state without sending an action.
  ///
  /// ```swift
  /// store.assert { $0.isLoading = false }
  /// ```
  public func assert(
    _ expectedChange: (inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportRuntimeIssues(at: callSite)
    withoutActuallyEscaping(expectedChange) { expectedChange in
      assertState(
        store.state, after: nil, expectedChange: expectedChange, at: callSite,
        requiresChange: false)
    }
  }

  /// Compares the state the test expects with the actual one, reports any difference, and
  /// makes the actual state the new reference.
  @inlinable
  func assertState(
    _ actual: State,
    after describeStep: @autoclosure () -> String?,
    expectedChange: ((inout State) throws -> Void)?,
    at callSite: CallSite,
    requiresChange: Bool = true
  ) {
    defer { reference = actual }
    let previous = reference
    var step: String? { describeStep() }
    var expected = previous
    do {
      try expectedChange?(&expected)
    } catch {
      fail("The state assertion threw an error: \(error)", at: callSite)
      return
    }

    if !exhaustivity.isExhaustive {
      // Non-exhaustive: the assertion may describe the change relative to the previous state
      // or set values on the actual state; either passing is enough.
      var expectedFromActual = actual
      try? expectedChange?(&expectedFromActual)
      if expected == actual || expectedFromActual == actual {
        if exhaustivity.showsSkippedAssertions, expectedChange == nil, previous != actual {
          print("Skipped assertions of state changes:\n\(diff(previous, actual))")
        }
        return
      }
      if expectedChange == nil { return }
      fail(
        """
        A state change does not match expectation\(step.map { " after \($0)" } ?? ""):

        \(diff(expectedFromActual, actual))

        (Expected: −, Actual: +)
        """,
        at: callSite)
      return
    }

    if expected == actual {
      if requiresChange, expectedChange != nil, previous == actual {
        fail(
          """
          Expected state to change, but no change occurred\(step.map { " after \($0)" } ?? "").

          The assertion closure made changes the state did not: if no change is expected, \
          leave out the closure.
          """,
          at: callSite)
      }
      return
    }
    if expectedChange == nil {
      fail(
        """
        State was not expected to change, but a change occurred\
        \(step.map { " after \($0)" } ?? ""):

        \(diff(previous, actual))

        (Expected: −, Actual: +)
        """,
        at: callSite)
      return
    }
    if expected == previous {
      fail(
        """
        The assertion closure changed nothing, but the state did change\
        \(step.map { " after \($0)" } ?? ""):

        \(diff(previous, actual))

        (Expected: −, Actual: +)
        """,
        at: callSite)
      return
    }
    fail(
      """
      A state change does not match expectation\(step.map { " after \($0)" } ?? ""):

      \(diff(expected, actual))

      (Expected: −, Actual: +)
      """,
      at: callSite)
  }

  @usableFromInline
  func describeReceived() -> String {
    LoomTesting.describeReceived(received.map { (action: $0.action, origin: $0.origin) })
  }
}
