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
    let cancelGroup = cancelGroup
    await withTaskCancellationHandler {
      await group.wait()
    } onCancel: {
      cancelGroup?(group)
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
