/// An action sent to one element of a collection of child features, by the element's id.
///
/// A parent that uses ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)`` has one
/// action case holding an `IdentifiedAction`:
///
/// ```swift
/// enum Action: Sendable {
///   case rows(IdentifiedActionOf<Row>)
/// }
///
/// store.send(.rows(.element(id: row.id, action: .toggled)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// `action` for the element whose id is `id`.
  case element(id: ID, action: Action)

  /// The id of the element the action is for.
  public var id: ID {
    switch self {
    case .element(let id, _): id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case .element(_, let action): action
    }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}

/// The identified action of a child reducer whose state is `Identifiable`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable
