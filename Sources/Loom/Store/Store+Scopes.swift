/// Stores for the parts of a state that come and go: an optional child, a presented one, one case
/// of an enum, each row of a collection. Each is `nil` (or missing) while its part is not there,
/// and is cached by the store it is scoped from like any scoped store, so a view gets the same
/// store while the part stays.
extension Store {
  /// A store for an optional child, or `nil` while it is `nil`.
  ///
  /// ```swift
  /// if let detail = store.scope(state: \.detail, action: .detail) {
  ///   detail.send(.textChanged("Hi"))   // sends .detail(.textChanged("Hi"))
  /// }
  /// ```
  ///
  /// Kept after the child is gone, the store reads the child as it last read it, and what it
  /// sends reaches a reducer that reports it (an action for a child that is not there).
  public func scope<ChildState, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let embed = toChildAction._embed
    return partStore(
      key: ScopeCacheKey(keyPath: toChildState, actionType: ObjectIdentifier(ChildAction.self)),
      extract: { $0[keyPath: toChildState] }, embed: embed)
  }

  /// A store for a presented child (`@Presents var destination`), or `nil` while none is
  /// presented: its actions are sent as `.presented(action)`.
  ///
  /// ```swift
  /// if let destination = store.scope(state: \.destination, action: .destination) {
  ///   destination.send(.detail(.closeTapped))   // sends .destination(.presented(.detail(…)))
  /// }
  /// ```
  public func scope<ChildState, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    let embed = toChildAction._embed
    return partStore(
      key: ScopeCacheKey(keyPath: toChildState, actionType: ObjectIdentifier(ChildAction.self)),
      extract: { $0[keyPath: toChildState] }, embed: { embed(.presented($0)) })
  }

  /// A store for one case of an enum state, or `nil` while the state is another case.
  ///
  /// ```swift
  /// if let detail = destination.scope(state: .detail, action: .detail) {
  ///   detail.send(.onAppear)   // sends .detail(.onAppear) to the destination's store
  /// }
  /// ```
  public func scope<ChildState, ChildAction: Sendable>(
    state toCase: CasePath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    // A case path is not Hashable: the case is named by its label, read from the state.
    let state = core.currentState
    guard toCase.extract(from: state) != nil else {
      core.registerAccess()
      return nil
    }
    let label = Mirror(reflecting: state).children.first?.label ?? "\(state)"
    let key = ScopeCacheKey(
      path: CaseScope(label: label, payload: ObjectIdentifier(ChildState.self)),
      actionType: ObjectIdentifier(ChildAction.self))
    return partStore(key: key, extract: toCase.extract(from:), embed: toChildAction._embed)
  }

  /// A store for each row of a collection, in its order: one per id, the same one for as long
  /// as the row is there (for `ForEach`).
  ///
  /// ```swift
  /// for row in store.scope(state: \.rows, action: .rows) {
  ///   row.send(.toggled)   // sends .rows(.element(id: row.state.id, action: .toggled))
  /// }
  /// ```
  public func scope<ID: Hashable & Sendable, ChildState, ChildAction: Sendable>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action toRowAction: CasePath<Action, IdentifiedAction<ID, ChildAction>>
  ) -> [Store<ChildState, ChildAction>] {
    core.registerAccess()
    let rows = core.currentState[keyPath: toRows]
    let embed = toRowAction._embed
    return rows.ids.compactMap { id in
      partStore(
        key: ScopeCacheKey(
          path: RowScope(rows: toRows, id: id), actionType: ObjectIdentifier(ChildAction.self)),
        extract: { $0[keyPath: toRows][id: id] },
        embed: { embed(.element(id: id, action: $0)) })
    }
  }

  /// The cached store of a part, or a new one while the part is there; `nil` while it is not.
  private func partStore<ChildState, ChildAction: Sendable>(
    key: ScopeCacheKey,
    extract: @escaping (State) -> ChildState?,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    core.registerAccess()
    guard let value = extract(core.currentState) else { return nil }
    if let cached = scopedStores.store(for: key) as? Store<ChildState, ChildAction> {
      return cached
    }
    let parentSend = sendAction
    let child = Store<ChildState, ChildAction>(
      core: PartCore(parent: core, extract: extract, embed: embed, last: value),
      send: { parentSend(embed($0)) })
    scopedStores.insert(child, for: key)
    return child
  }
}

/// What names a case store in its parent's cache: the case's label and payload type.
private struct CaseScope: Hashable {
  let label: String
  let payload: ObjectIdentifier
}

/// What names a row store in its parent's cache: the collection's key path and the row's id.
private struct RowScope<ID: Hashable>: Hashable {
  let rows: AnyKeyPath
  let id: ID
}

/// The core of a store for a part that may not be there: it reads the part from its parent's
/// state, and the part as it last read it while it is not there (never a trap), and sends
/// through the parent.
@MainActor
final class PartCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: StoreCore {
  let parent: any StoreCore<ParentState, ParentAction>
  let extract: (ParentState) -> State?
  let embed: @Sendable (Action) -> ParentAction
  var last: State

  init(
    parent: any StoreCore<ParentState, ParentAction>, extract: @escaping (ParentState) -> State?,
    embed: @escaping @Sendable (Action) -> ParentAction, last: State
  ) {
    self.parent = parent
    self.extract = extract
    self.embed = embed
    self.last = last
  }

  var currentState: State {
    if let value = extract(parent.currentState) { last = value }
    return last
  }

  var rootCore: any RootStoreCore { parent.rootCore }

  func registerAccess() {
    parent.registerAccess()
  }

  func send(_ action: Action) -> StoreTask {
    parent.send(embed(action))
  }

  func scoped<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, embed childEmbed: @escaping @Sendable (ChildAction) -> Action
  ) -> any StoreCore<ChildState, ChildAction> {
    ScopedCore<PartCore, ChildState, ChildAction>(root: self, toState: state, embed: childEmbed)
  }
}

/// A store of an identified state is identified by its state's id, so SwiftUI's `ForEach` and
/// `sheet(item:)` take row stores and presented stores as they are (on the main actor: the
/// conformance is isolated to it, as the store is).
///
/// ```swift
/// let ids = store.scope(state: \.rows, action: .rows).map(\.id)
/// ```
extension Store: @MainActor Identifiable where State: Identifiable {
  public var id: State.ID { state.id }
}
