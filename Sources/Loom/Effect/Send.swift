/// Sends actions back into the store from an effect.
///
/// A `Send` is handed to the operation of ``Effect/run(priority:operation:catch:fileID:line:)``.
/// Call it like a function from any task; the action is processed on the main actor before the
/// call returns. Actions sent after the effect was cancelled are dropped.
///
/// ```swift
/// return .run { send in
///   let page = try await client.fetchPage(limit: 50)
///   await send(.pageLoaded(page))
/// }
/// ```
@MainActor
public struct Send<Action: Sendable>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a `Send` from a closure. Useful to test effect operations directly.
  ///
  /// ```swift
  /// let send = Send<Feature.Action> { received.append($0) }
  /// ```
  nonisolated public init(_ send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends an action to the store, unless the current task has been cancelled.
  ///
  /// Asynchronous so that `await send(action)` reads the same from any context: an effect's
  /// operation is isolated to the main actor, where this runs without suspending.
  public func callAsFunction(_ action: Action) async {
    guard !Task.isCancelled else { return }
    send(action)
  }

  /// Returns a `Send` that transforms each action before sending it here.
  nonisolated func map<Child: Sendable>(
    _ transform: @escaping @Sendable (Child) -> Action
  ) -> Send<Child> {
    let send = self.send
    return Send<Child> { send(transform($0)) }
  }
}
