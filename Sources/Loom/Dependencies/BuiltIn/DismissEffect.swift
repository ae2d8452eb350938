/// Dismisses the feature whose effect calls it: a presented child sends its parent
/// `PresentationAction.dismiss`, and an element of a navigation stack pops itself (and every
/// element above it). The effects of the feature's own children dismiss it too.
///
/// Read it inside the effect, where the `ifLet` or the stack binds it for the feature's
/// effects:
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
/// // …
/// case .saveTapped:
///   return .run { _ in await dismiss() }
/// ```
public struct DismissEffect: Sendable {
  @usableFromInline let dismiss: (@MainActor @Sendable () async -> Void)?

  @usableFromInline
  init(_ dismiss: (@MainActor @Sendable () async -> Void)?) {
    self.dismiss = dismiss
  }

  /// Dismisses the feature. Outside the effect of a presented child or a stack's element it does
  /// nothing and reports an issue (a failure under a test store).
  @MainActor
  public func callAsFunction(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismiss else {
      reportIssue(
        """
        dismiss() was called from an effect that is not one of a presented child's or a stack \
        element's (it was read outside the effect, or the feature is neither presented nor an \
        element of a stack): nothing was dismissed.
        """,
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
      return
    }
    await dismiss()
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(nil)
  static let testValue = DismissEffect(nil)
}

extension DependencyValues {
  /// Dismisses the feature whose effect calls it. See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

extension Effect {
  /// The effect with `dismiss` bound, for its operations, to sending `action`.
  @usableFromInline
  func _dismissing(with action: Action) -> Self {
    Effect(operation: operation._dismissing(with: action))
  }
}

extension Effect.Operation {
  func _dismissing(with action: Action) -> Self {
    switch self {
    case .none, .send, .cancel, .cancelScope:
      return self
    case .run(let run):
      return .run(run._dismissing(with: action))
    case .merge(let effects):
      return .merge(effects.map { $0._dismissing(with: action) })
    case .concatenate(let effects):
      return .concatenate(effects.map { $0._dismissing(with: action) })
    case .cancellable(let id, let cancelInFlight, let effect):
      return .cancellable(id: id, cancelInFlight: cancelInFlight, effect._dismissing(with: action))
    case .scoped(let component, let effect):
      return .scoped(component, effect._dismissing(with: action))
    case .dependencies(let values, let effect):
      return .dependencies(values, effect._dismissing(with: action))
    case .throttle(let throttle):
      return .throttle(
        Effect.Throttle(
          id: throttle.id, latest: throttle.latest, sleep: throttle.sleep,
          effect: throttle.effect._dismissing(with: action)))
    }
  }
}

extension Effect.Run {
  func _dismissing(with action: Action) -> Self {
    let operation = self.operation
    let dismissing: Operation = { send in
      try await withDependencies {
        $0.dismiss = DismissEffect { await send(action) }
      } operation: {
        try await operation(send)
      }
    }
    var handled: Handler?
    if let handler {
      handled = { error, send in
        await withDependencies {
          $0.dismiss = DismissEffect { await send(action) }
        } operation: {
          await handler(error, send)
        }
      }
    }
    return Effect.Run(
      priority: priority, operation: dismissing, handler: handled, fileID: fileID, line: line)
  }
}
