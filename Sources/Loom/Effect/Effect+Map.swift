extension Effect {
  /// Returns an effect that sends the actions of this effect transformed by `transform`.
  ///
  /// Composition operators use this to lift a child's effects into its parent's action type.
  ///
  /// ```swift
  /// return Counter().reduce(into: &state.counter, action: action).map(AppAction.counter)
  /// ```
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    Effect<NewAction>(operation: operation.map(transform))
  }
}

extension Effect.Operation {
  func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction>.Operation {
    switch self {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      return .run(run.map(transform))
    case .merge(let effects):
      return .merge(effects.map { $0.map(transform) })
    case .concatenate(let effects):
      return .concatenate(effects.map { $0.map(transform) })
    case .cancellable(let id, let cancelInFlight, let effect):
      return .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
    case .cancel(let id):
      return .cancel(id: id)
    case .scoped(let component, let effect):
      return .scoped(component, effect.map(transform))
    case .cancelScope(let component):
      return .cancelScope(component)
    case .dependencies(let values, let effect):
      return .dependencies(values, effect.map(transform))
    case .throttle(let throttle):
      return .throttle(
        Effect<NewAction>.Throttle(
          id: throttle.id,
          latest: throttle.latest,
          sleep: throttle.sleep,
          effect: throttle.effect.map(transform)
        )
      )
    }
  }
}

extension Effect.Run {
  func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction>.Run {
    let operation = self.operation
    // Local functions, not closure literals: they are explicitly `nonisolated(nonsending)`, so
    // the mapped operation still runs on the caller's actor.
    @Sendable nonisolated(nonsending) func mappedOperation(_ send: Send<NewAction>) async throws {
      try await operation(send.map(transform))
    }
    var mappedHandler: Effect<NewAction>.Run.Handler?
    if let handler {
      @Sendable nonisolated(nonsending) func mapped(_ error: any Error, _ send: Send<NewAction>) async {
        await handler(error, send.map(transform))
      }
      mappedHandler = mapped
    }
    return Effect<NewAction>.Run(
      priority: priority,
      operation: mappedOperation,
      handler: mappedHandler,
      fileID: fileID,
      line: line
    )
  }
}
