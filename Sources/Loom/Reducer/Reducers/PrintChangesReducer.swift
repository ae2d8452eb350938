import Foundation

extension Reducer {
  /// Prints each action the reducer receives and a minimal diff of the state it changed.
  ///
  /// A debugging aid: leave it out of release builds.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State()) {
  ///   Counter().printChanges()
  /// }
  /// store.send(.incrementTapped)
  /// // received action:
  /// //   .incrementTapped
  /// //     Counter.State(
  /// //   -   count: 0
  /// //   +   count: 1
  /// //     )
  /// ```
  ///
  /// - Parameter printer: Where the text goes; standard output by default.
  public func printChanges(
    to printer: @escaping (String) -> Void = { print($0) }
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// The reducer built by ``Reducer/printChanges(to:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: (String) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = state
    let effect = base.reduce(into: &state, action: action)
    let actionText = loomDump(action).split(separator: "\n").map { "  \($0)" }
      .joined(separator: "\n")
    var text = "received action:\n\(actionText)"
    if let diff = loomDiff(before, state) {
      text += "\n" + diff.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")
    } else {
      text += "\n  (No state changes)"
    }
    printer(text)
    return effect
  }
}
