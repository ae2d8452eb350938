extension Store where State: Sendable {
  /// The store's states: the current one first, then one after each batch of actions that was
  /// processed, until the stream's consumer stops iterating. None is dropped: the states a
  /// consumer has not taken yet wait in the stream (each a copy of the state, which shares its
  /// storage with the store's until one of them changes).
  ///
  /// For shells that are not SwiftUI, such as a command-line tool:
  ///
  /// ```swift
  /// for await state in store.states {
  ///   render(state)
  /// }
  /// ```
  ///
  /// The stream of a scoped store keeps that store alive until its consumer stops, as a view
  /// holding the store would. The stream of a root store does not keep it: it finishes once the
  /// store is released.
  public var states: AsyncStream<State> {
    makeStates(removingDuplicates: nil)
  }

  func makeStates(removingDuplicates isDuplicate: ((State, State) -> Bool)?) -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .unbounded)
    let root = core.rootCore
    var last = core.currentState
    continuation.yield(last)
    // Finishes the stream when the observer is let go: removed, or with the root's core (which
    // lives as long as the root store and every store scoped from it).
    let end = StreamEnd(continuation)
    // A scoped store is held (nothing else may hold it: `store.scope(…).states`); a root store
    // is not, so that releasing it still ends its effects.
    let held: Store? = parent == nil ? nil : self
    let token = root.addStateObserver { [weak self] in
      _ = end
      guard let self = held ?? self else { return }
      let state = self.core.currentState
      if let isDuplicate, isDuplicate(last, state) { return }
      last = state
      continuation.yield(state)
    }
    continuation.onTermination = { [weak self] _ in
      Task { @MainActor in self?.core.rootCore.removeStateObserver(token) }
    }
    return stream
  }
}

/// Finishes a stream when it is released: the stream of a store's states ends
/// with the observer that feeds it.
private final class StreamEnd<Element: Sendable>: Sendable {
  let continuation: AsyncStream<Element>.Continuation

  init(_ continuation: AsyncStream<Element>.Continuation) {
    self.continuation = continuation
  }

  deinit {
    continuation.finish()
  }
}

extension Store where State: Sendable & Equatable {
  /// The store's distinct states: the current one first, then each new state that differs from
  /// the one before it.
  ///
  /// ```swift
  /// for await state in store.states {
  ///   render(state)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    makeStates(removingDuplicates: ==)
  }
}
