/// Stores for the parts of a state that come and go: an optional child, a presented one, one case
/// of an enum, each row of a collection, each element of a stack. Each is `nil` (or missing)
/// while its part is not there, and is cached by the store it is scoped from like any scoped
/// store, so a view gets the same store while the part stays.
///
/// A store ends once it sees its part gone (it is read, scoped again or sent to while the part
/// is not there) or another part in its place (another id, for an identified part; another
/// element, for a stack's, whatever its id): the part there later gets a store of its own. A
/// store that was not used while its part was away cannot tell that the part there now came
/// back: it is the store of that place again, as a row's store is for its id.
extension Store {
  /// A store for an optional child, or `nil` while it is `nil`.
  ///
  /// ```swift
  /// if let detail = store.scope(state: \.detail, action: .detail) {
  ///   detail.send(.textChanged("Hi"))   // sends .detail(.textChanged("Hi"))
  /// }
  /// ```
  ///
  /// Kept after the child is gone (and used since), the store reads the child as it last read
  /// it, and what it sends reaches a reducer that reports it (an action for a child that is not
  /// there).
  public func scope<ChildState, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let embed = toChildAction._embed
    let extract = { (state: State) in state[keyPath: toChildState] }
    let key = ScopeCacheKey(keyPath: toChildState, actionType: ObjectIdentifier(ChildAction.self))
    observePresence(of: key, extract)
    return partStore(key: key, extract: extract, embed: embed)
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
    let extract = { (state: State) in state[keyPath: toChildState] }
    let key = ScopeCacheKey(keyPath: toChildState, actionType: ObjectIdentifier(ChildAction.self))
    observePresence(of: key, extract)
    return partStore(key: key, extract: extract, embed: { embed(.presented($0)) })
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
    // A case path is not Hashable: the case is named by its labels, read from the state.
    let state = core.currentState
    guard toCase.extract(from: state) != nil else {
      // Told when any case, at any depth, changes: which one would be this case is unknown.
      observation.access(observation.watch(CaseKey(depth: nil)) { CaseIdentity($0) })
      endCaseStores(awayFrom: state)
      return nil
    }
    let scope = CaseScope(state, payload: ChildState.self)
    // Told when the case, down to this store's depth, or its payload's id changes: not when an
    // enum inside the payload changes case.
    let depth = scope.labels.count
    observation.access(
      observation.watch(CaseKey(depth: depth)) { CaseIdentity($0, depth: depth) })
    let key = ScopeCacheKey(path: scope, actionType: ObjectIdentifier(ChildAction.self))
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
  @inlinable
  public func scope<ID: Hashable & Sendable, ChildState, ChildAction: Sendable>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action toRowAction: CasePath<Action, IdentifiedAction<ID, ChildAction>>
  ) -> [Store<ChildState, ChildAction>] {
    // The readers are made here, where the types are known (this function is inlined where it
    // is called): the row stores read their rows after every change, and the observation the
    // ids, and code generic over the app's types would look up the collection's metadata, and
    // hash ids, generically at each read.
    let rows = StoredPathReader(toRows)
    // The ids are read at their own offset when they have one: no copy of the collection.
    let ids = StoredPathReader(toRows.appending(path: \IdentifiedArray<ID, ChildState>._ids))
    let readRow: (State, ID) -> ChildState? = { rows.read($0)[id: $1] }
    let table = RowTable<ID>()
    let access = RowsAccess<State, ID, ChildState>(
      written: { state, seen, visit, left in
        // In place: a copy of the collection would retain (and release) each of its buffers.
        rows.withValue(in: state) { collection in
          let writes = collection.pointee._writes
          guard let first = writes.firstWrite(after: seen) else { return (writes.stamp, false) }
          for position in first..<writes.ids.count {
            let id = writes.ids[position]
            // A row nobody reads has nothing to check.
            guard let stores = table.entries[id] else { continue }
            if let row = collection.pointee[id: id] { visit(id, row, stores) } else { left(id) }
          }
          return (writes.stamp, true)
        }
      },
      table: table,
      row: readRow,
      stamp: { rows.read($0)._writes.stamp })
    return _scope(
      rows: toRows, action: toRowAction, readIDs: { ids.read($0) },
      readRow: readRow,
      readRowInto: { state, id, row in
        guard let found = rows.read(state)[id: id] else { return false }
        row = found
        return true
      },
      access: access)
  }

  @usableFromInline
  func _scope<ID: Hashable & Sendable, ChildState, ChildAction: Sendable>(
    rows toRows: KeyPath<State, IdentifiedArray<ID, ChildState>>,
    action toRowAction: CasePath<Action, IdentifiedAction<ID, ChildAction>>,
    readIDs: @escaping (State) -> [ID],
    readRow: @escaping (State, ID) -> ChildState?,
    readRowInto: @escaping (State, ID, inout ChildState) -> Bool,
    access: RowsAccess<State, ID, ChildState>
  ) -> [Store<ChildState, ChildAction>] {
    // The list is read again when its ids change; each row store's readers, when its row does.
    observation.access(observation.watch(RowsKey(rows: toRows), read: readIDs))
    let embed = toRowAction._embed
    return readIDs(core.currentState).compactMap { id in
      partStore(
        key: ScopeCacheKey(
          path: RowScope(rows: toRows, id: id), actionType: ObjectIdentifier(ChildAction.self)),
        extract: { readRow($0, id) },
        readInto: { readRowInto($0, id, &$1) },
        embed: { embed(.element(id: id, action: $0)) },
        attach: { [weak self] in
          self?.observation.attach(row: $0, id: id, of: toRows, access: access)
        },
        isFoundByID: true)
    }
  }

  /// A store for each element of a navigation stack, bottom first: one per element, the same
  /// one for as long as the element is in the stack (for the screens of a `NavigationStack`).
  ///
  /// ```swift
  /// for screen in store.scope(state: \.path, action: .path) {
  ///   screen.send(.closeTapped)   // sends .path(.element(id: …, action: .closeTapped))
  /// }
  /// ```
  ///
  /// An element is told from another given its id (by a stack made anew,
  /// `state.path = StackState([a, b])`, which numbers its elements from 0 again, or by a copy
  /// of the stack put back): each gets a store of its own, and a kept store of the element that
  /// left sends nothing to the one there now (it is reported and dropped).
  public func scope<Element: Sendable, ElementAction: Sendable>(
    state toStack: KeyPath<State, StackState<Element>>,
    action toStackAction: CasePath<Action, StackAction<Element, ElementAction>>
  ) -> [Store<Element, ElementAction>] {
    // The screens are read again when the stack's elements change (their tokens tell).
    observation.access(
      observation.watch(StackKey(stack: toStack)) { state in state[keyPath: toStack].tokens })
    let embed = toStackAction._embed
    let stack = core.currentState[keyPath: toStack]
    return zip(stack.ids, stack.tokens).compactMap { id, token in
      partStore(
        key: ScopeCacheKey(
          path: StackScope(stack: toStack, token: token),
          actionType: ObjectIdentifier(ElementAction.self)),
        extract: { state in
          let stack = state[keyPath: toStack]
          return stack.token(of: id) == token ? stack[id: id] : nil
        },
        embed: { embed(.element(id: id, action: $0)) },
        isAnotherPartThere: { state in
          let stack = state[keyPath: toStack]
          return stack.token(of: id).map { $0 != token } ?? false
        },
        isFoundByID: true)
    }
  }

  /// Ends the cached stores of the cases `state` is not in (this case, which is not there, may be
  /// one of them: which is not known without its labels), so that a case that comes back gets a
  /// store of its own.
  private func endCaseStores(awayFrom state: State) {
    let labels = CaseIdentity(state).labels
    for (key, entry) in scopedStores.stores {
      guard let scope = key.path.base as? CaseScope, !labels.starts(with: scope.labels) else {
        continue
      }
      (entry.store as? any PartStore)?.endPart()
      scopedStores.remove(key)
    }
  }

  /// Registers a read of whether the part `extract` reads is there, and which one it is.
  private func observePresence<ChildState>(
    of key: ScopeCacheKey, _ extract: @escaping (State) -> ChildState?
  ) {
    observation.access(
      observation.watch(PresenceKey(scope: key)) { extract($0).map { partIdentity(of: $0) } })
  }

  /// The cached store of a part, or a new one while the part is there; `nil` while it is not.
  /// A part that left (or came back as another one: another id) ends its store, and the part
  /// there now gets a store of its own.
  private func partStore<ChildState, ChildAction: Sendable>(
    key: ScopeCacheKey,
    extract: @escaping (State) -> ChildState?,
    readInto: ((State, inout ChildState) -> Bool)? = nil,
    embed: @escaping @Sendable (ChildAction) -> Action,
    attach: ((StoreObservation<ChildState>) -> Void)? = nil,
    isAnotherPartThere: ((State) -> Bool)? = nil,
    isFoundByID: Bool = false
  ) -> Store<ChildState, ChildAction>? {
    let cached = scopedStores.store(for: key) as? Store<ChildState, ChildAction>
    let cachedPart = cached?.core as? PartCore<State, Action, ChildState, ChildAction>
    guard let value = extract(core.currentState) else {
      cachedPart?.end()
      scopedStores.remove(key)
      return nil
    }
    if let cached, let cachedPart, cachedPart.isStill(value) { return cached }
    cachedPart?.end()
    let part = PartCore(
      parent: core, extract: extract, readInto: readInto, embed: embed, last: value,
      isAnotherPartThere: isAnotherPartThere, isFoundByID: isFoundByID)
    let child = Store<ChildState, ChildAction>(
      core: part, send: { part.send($0) }, parent: self)
    child.attachObservation = attach
    if isFoundByID { child.rememberState = { part.remember($0) } }
    child.cacheKey = key
    scopedStores.insert(child, for: key)
    return child
  }
}

/// What names a case store in its parent's cache: the labels of the cases down to its payload
/// (`settings.profile`) and the payload's type.
private struct CaseScope: Hashable {
  let labels: [String]
  let payload: ObjectIdentifier

  /// The labels of the nested cases of `state` down to the first payload of type `Payload`.
  init<Payload>(_ state: Any, payload: Payload.Type) {
    var labels: [String] = []
    var value = state
    while labels.count < 16, Mirror(reflecting: value).displayStyle == .enum {
      guard let child = Mirror(reflecting: value).children.first else {
        // A case without a payload has no child to name it: its description does.
        labels.append(String(describing: value))
        break
      }
      labels.append(child.label ?? "")
      if child.value is Payload { break }
      value = child.value
    }
    self.labels = labels
    self.payload = ObjectIdentifier(Payload.self)
  }
}

/// What names a row store in its parent's cache: the collection's key path and the row's id.
private struct RowScope<ID: Hashable>: Hashable {
  let rows: AnyKeyPath
  let id: ID
}

/// What names an element's store in its parent's cache: the stack's key path and the
/// element's token (its id names an element in one stack's history only).
private struct StackScope: Hashable {
  let stack: AnyKeyPath
  let token: UInt64
}

/// What names the watch of a stack's elements.
private struct StackKey: Hashable {
  let stack: AnyKeyPath
}

/// What names the watch of a part's presence (whether it is there, and which one).
private struct PresenceKey: Hashable {
  let scope: ScopeCacheKey
}

/// What names the watch of the ids of a collection's rows.
private struct RowsKey: Hashable {
  let rows: AnyKeyPath
}

/// What names the watch of which case an enum state is in, down to a depth (`nil`: all).
private struct CaseKey: Hashable {
  let depth: Int?
}

/// Which case an enum state is in: the labels of its nested cases (down to `depth`), and the id
/// of the payload they lead to when it is identified.
private struct CaseIdentity: Equatable {
  let labels: [String]
  let id: AnyHashable?

  init(_ state: Any, depth: Int? = nil) {
    var labels: [String] = []
    var value = state
    let depth = min(depth ?? 16, 16)
    while labels.count < depth, Mirror(reflecting: value).displayStyle == .enum {
      guard let child = Mirror(reflecting: value).children.first else {
        // A case without a payload has no child to name it: its description does.
        labels.append(String(describing: value))
        break
      }
      labels.append(child.label ?? "")
      value = child.value
    }
    self.labels = labels
    self.id = partIdentity(of: value)
  }
}

/// The id of an identified part, which tells one part from another there after it.
func partIdentity(of value: Any) -> AnyHashable? {
  func id(_ value: some Identifiable) -> AnyHashable { AnyHashable(value.id) }
  return (value as? any Identifiable).map { id($0) }
}

/// The core of a store for a part that may not be there: it reads the part from its parent's
/// state, and sends through the parent. Once the part has left (or another part, of another id,
/// is there) the store has ended: it reads the part as it last read it (never a trap), and what
/// it is sent goes to the parent only while no other part is there (whose reducer reports it);
/// with another part there, it is reported and dropped.
@MainActor
final class PartCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: StoreCore {
  let parent: any StoreCore<ParentState, ParentAction>
  let extract: (ParentState) -> State?
  /// For a part found by its id (a row): writes the part into its second argument and returns
  /// `true` while it is there. Made where the types are known, it reads the part without the
  /// `State?` that `extract` returns (whose metadata generic code looks up at each read).
  let readInto: ((ParentState, inout State) -> Bool)?
  let embed: @Sendable (Action) -> ParentAction
  /// Whether, once this store's part has gone, another part is there in its place, to which
  /// what this store is sent must not go; `nil` when whatever `extract` finds is one.
  let isAnotherPartThere: ((ParentState) -> Bool)?
  /// The part's id, for an identified part whose `extract` does not find it by id: another id
  /// is another part. `nil` when whatever `extract` finds is this part (a row, found by its id;
  /// a part that is not identified).
  let identity: AnyHashable?
  // No access to these overlaps another (the core is used on the main actor only, and none is
  // held across a call), so the run-time exclusivity check, ~70 instructions an access (the
  // core runs unspecialized, through `any StoreCore`), would only cost.
  @exclusivity(unchecked) var last: State
  /// The parent's state version `last` was read at.
  @exclusivity(unchecked) var lastVersion: UInt64
  @exclusivity(unchecked) var hasEnded = false

  init(
    parent: any StoreCore<ParentState, ParentAction>, extract: @escaping (ParentState) -> State?,
    readInto: ((ParentState, inout State) -> Bool)? = nil,
    embed: @escaping @Sendable (Action) -> ParentAction, last: State,
    isAnotherPartThere: ((ParentState) -> Bool)? = nil, isFoundByID: Bool
  ) {
    self.parent = parent
    self.extract = extract
    self.readInto = isFoundByID ? readInto : nil
    self.embed = embed
    self.isAnotherPartThere = isAnotherPartThere
    self.identity = isFoundByID ? nil : Self.identity(of: last)
    self.last = last
    self.lastVersion = parent.stateVersion
  }

  static func identity(of value: State) -> AnyHashable? {
    partIdentity(of: value)
  }

  /// Whether `value` is this store's part (the same id, for an identified part).
  func isStill(_ value: State) -> Bool {
    guard !hasEnded else { return false }
    guard let identity else { return true }
    return Self.identity(of: value) == identity
  }

  func end() {
    hasEnded = true
  }

  /// Takes `value` as the part in the parent's state now: the row the observation of a row's
  /// store was checked with, read from the parent's state now by the row's id (what
  /// `readAgain(into:)` would read).
  func remember(_ value: State) {
    guard !hasEnded, readInto != nil else { return }
    last = value
    lastVersion = parent.stateVersion
  }

  var stateVersion: UInt64 { parent.stateVersion }

  var currentState: State {
    if hasEnded || parent.stateVersion == lastVersion { return last }
    if let readInto { return readAgain(into: readInto) }
    return readAgain()
  }

  /// `readAgain()` for a part found by its id: whatever is there under the id is this part.
  /// A function of its own, which needs no metadata of `State?`.
  @inline(never)
  private func readAgain(into readInto: (ParentState, inout State) -> Bool) -> State {
    lastVersion = parent.stateVersion
    if !readInto(parent.currentState, &last) { end() }
    return last
  }

  /// Reads the part from the parent's state, which changed since it was last read. Apart from
  /// `currentState`, whose common path (nothing changed) then needs no metadata of `State?`
  /// (looked up at run time, ~300 instructions, in this code generic over the app's types).
  @inline(never)
  private func readAgain() -> State {
    lastVersion = parent.stateVersion
    if let value = extract(parent.currentState) {
      guard isStill(value) else {
        end()
        return last
      }
      last = value
    } else {
      end()
    }
    return last
  }

  var rootCore: any RootStoreCore { parent.rootCore }

  func send(_ action: Action) -> StoreTask {
    // Gone (not found, or another part found) unless this store's part is there.
    if hasEnded || extract(parent.currentState).map(isStill) != true {
      end()
      let state = parent.currentState
      if isAnotherPartThere.map({ $0(state) }) ?? (extract(state) != nil) {
        reportIssue(
          """
          A store of a part that is gone was sent an action while another part is there: \
          dropped.

            \(action)

          Scope again to get the store of the part there now.
          """)
        return StoreTask(group: nil, cancel: nil)
      }
    }
    return parent.send(embed(action))
  }

  func scoped<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, embed childEmbed: @escaping @Sendable (ChildAction) -> Action
  ) -> any StoreCore<ChildState, ChildAction> {
    ScopedCore<PartCore, ChildState, ChildAction>(root: self, toState: state, embed: childEmbed)
  }
}

/// A store whose part may leave (a part store), seen without its types.
@MainActor
protocol PartStore: AnyObject {
  /// Ends the store: its part has left.
  func endPart()
}

extension Store: PartStore {
  func endPart() {
    (core as? any PartEnding)?.end()
  }
}

/// The core of a part store, seen without its types.
@MainActor
protocol PartEnding: AnyObject {
  func end()
}

extension PartCore: PartEnding {}

/// A store of an identified state is identified by its state's id, so SwiftUI's `ForEach` and
/// `sheet(item:)` take row stores and presented stores as they are (on the main actor: the
/// conformance is isolated to it, as the store is).
///
/// ```swift
/// let ids = store.scope(state: \.rows, action: .rows).map(\.id)
/// ```
extension Store: @MainActor Identifiable where State: Identifiable {
  public var id: State.ID { read(\.id) }
}
