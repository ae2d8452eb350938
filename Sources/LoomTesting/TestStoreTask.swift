import Loom

/// The effects started by an action sent to a ``TestStore``.
///
/// ```swift
/// let task = await store.send(.onAppear)
/// await store.receive(.loaded(items)) { $0.items = items }
/// await task.cancel()   // the live-updates effect never ends on its own
/// ```
@MainActor
public struct TestStoreTask: Sendable {
  let task: StoreTask
  let timeout: Duration
  let report: @MainActor (String, CallSite) -> Void

  @usableFromInline
  init(task: StoreTask, timeout: Duration, report: @escaping @MainActor (String, CallSite) -> Void) {
    self.task = task
    self.timeout = timeout
    self.report = report
  }

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    task.cancel()
    await task.finish()
  }

  /// Waits for the effects to finish; fails the test if they are still running after
  /// `timeout` (the test store's timeout by default).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let task = task
    let finished = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await task.finish()
        return true
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    if !finished {
      report(
        "Expected the effects of this action to finish, but they were still running after "
          + "\(timeout).",
        CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// Whether the effects have finished.
  public var isFinished: Bool { task.isFinished }
}
