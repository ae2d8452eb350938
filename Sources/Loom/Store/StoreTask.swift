/// The effects started by one `send`, and by every action those effects send, transitively.
///
/// ```swift
/// await store.send(.refresh).finish()   // waits until the refresh and its follow-ups are done
/// let task = store.send(.startTimer)
/// task.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline let group: EffectGroup?
  @usableFromInline let cancelGroup: (@Sendable (EffectGroup) -> Void)?

  @usableFromInline
  init(group: EffectGroup?, cancel: (@Sendable (EffectGroup) -> Void)?) {
    self.group = group
    self.cancelGroup = cancel
  }

  /// Waits until every effect of the task has finished.
  ///
  /// If the task awaiting `finish()` is cancelled, the effects are cancelled too.
  nonisolated(nonsending) public func finish() async {
    guard let group, !group.isEmpty else { return }
    await Self.wait(for: group, cancel: cancelGroup)
  }

  /// Waits for `group` on the caller's actor, so the caller resumes there as soon as the last
  /// effect ends, ahead of work that starts after it.
  ///
  /// The operation of `withTaskCancellationHandler` is isolated only when it captures an
  /// isolated parameter: written directly in `finish()`, it ran on the global executor and the
  /// caller came back one hop later. The cancellation handler runs on whichever thread cancels
  /// the caller; all it does is cancel the effects, which then end on the main actor.
  private static func wait(
    for group: EffectGroup, cancel: (@Sendable (EffectGroup) -> Void)?,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await withTaskCancellationHandler {
      _ = isolation
      await group.wait()
    } onCancel: {
      cancel?(group)
    }
  }

  /// Cancels every effect of the task that is still in flight.
  public func cancel() {
    guard let group else { return }
    cancelGroup?(group)
  }

  /// Whether every effect of the task has finished (or was cancelled and has stopped).
  public var isFinished: Bool {
    group?.isEmpty ?? true
  }

  /// Identifies the `send` that started the effects, as ``InFlightEffect/sendID`` does; `nil`
  /// when the send started none.
  package var id: ObjectIdentifier? {
    group.map(ObjectIdentifier.init)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}
