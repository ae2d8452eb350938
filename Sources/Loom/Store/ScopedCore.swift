/// The core of a scoped store: reads its state out of the root's state and sends its actions
/// through the root reducer, so parents see their children's actions.
///
/// Scoping a scoped store composes the key path and the embedding and points at the root
/// directly, so a store scoped ten levels down reads and sends in one step, not ten.
@MainActor
@usableFromInline
final class ScopedCore<Root: StoreCore, State, Action: Sendable>: StoreCore {
  let root: Root
  let toState: KeyPath<Root.State, State>
  let embed: @Sendable (Action) -> Root.Action

  init(root: Root, toState: KeyPath<Root.State, State>, embed: @escaping @Sendable (Action) -> Root.Action) {
    self.root = root
    self.toState = toState
    self.embed = embed
  }

  @usableFromInline
  var currentState: State { root.currentState[keyPath: toState] }
  @usableFromInline
  var stateVersion: UInt64 { root.stateVersion }
  @usableFromInline
  var rootCore: any RootStoreCore { root.rootCore }

  @usableFromInline
  func send(_ action: Action) -> StoreTask {
    root.send(embed(action))
  }

  /// A core for a child of this scope that talks to the root directly.
  @usableFromInline
  func scoped<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, embed childEmbed: @escaping @Sendable (ChildAction) -> Action
  ) -> any StoreCore<ChildState, ChildAction> {
    let embed = embed
    return ScopedCore<Root, ChildState, ChildAction>(
      root: root, toState: toState.appending(path: state), embed: { embed(childEmbed($0)) })
  }
}

extension RootCore {
  @usableFromInline
  func scoped<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, embed: @escaping @Sendable (ChildAction) -> Action
  ) -> any StoreCore<ChildState, ChildAction> {
    ScopedCore<RootCore, ChildState, ChildAction>(root: self, toState: state, embed: embed)
  }
}
