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
  public var states: AsyncStream<State> {
    makeStates(removingDuplicates: nil)
  }

  func makeStates(removingDuplicates isDuplicate: ((State, State) -> Bool)?) -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .unbounded)
    let root = core.rootCore
    var last = core.currentState
    continuation.yield(last)
    let token = root.addStateObserver { [weak self] in
      guard let self else { return }
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
