/// An alert to present: a title, a message and buttons, each with a role and the action it
/// sends. A value, so a test asserts the alert a feature shows, and sends its buttons' actions.
///
/// Present it through ``PresentationState`` and run it with the `ifLet` that needs no child
/// reducer: a button's action dismisses the alert (after the parent sees it).
///
/// ```swift
/// state.alert = AlertState(
///   title: "Delete everything?",
///   message: "This cannot be undone.",
///   buttons: [
///     ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete"),
///     ButtonState(role: .cancel, label: "Cancel"),
///   ])
/// ```
public struct AlertState<Action> {
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// A confirmation dialog to present (an action sheet): like ``AlertState``, with whether its
/// title shows.
public struct ConfirmationDialogState<Action> {
  /// Whether the dialog shows its title.
  public enum TitleVisibility: Sendable, Hashable { case automatic, visible, hidden }

  public var titleVisibility: TitleVisibility
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(
    titleVisibility: TitleVisibility = .automatic, title: String, message: String? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.titleVisibility = titleVisibility
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// A button of an alert or a dialog: its label, its role, and the action it sends (none: it
/// only dismisses).
public struct ButtonState<Action> {
  /// What a button does, as the system shows it.
  public enum Role: Sendable, Hashable { case cancel, destructive }

  public var role: Role?
  public var action: Action?
  public var label: String

  public init(role: Role? = nil, action: Action? = nil, label: String) {
    self.role = role
    self.action = action
    self.label = label
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// A presented value whose actions need no reducer of their own: an alert or a dialog, which a
/// button's action dismisses (after the parent saw it).
public protocol _DismissedByItsActions {}
extension AlertState: _DismissedByItsActions {}
extension ConfirmationDialogState: _DismissedByItsActions {}

extension Reducer {
  /// Presents an alert or a confirmation dialog: a button's action
  /// (``PresentationAction/presented(_:)``) reaches the parent, which handles it, and then
  /// dismisses the alert; ``PresentationAction/dismiss`` dismisses it too.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // …
  ///     return .none
  ///   }
  ///   .ifLet(\.$alert, action: .alert)
  /// }
  /// ```
  @inlinable
  public func ifLet<Presented: _DismissedByItsActions, PresentedAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<Presented>>,
    action toPresentationAction: CasePath<Action, PresentationAction<PresentedAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, _DismissingReducer<Presented, PresentedAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { _DismissingReducer<Presented, PresentedAction>() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer of an alert or a dialog: it does nothing, and the presentation ends after each
/// of its actions (the presented value is ``_DismissedByItsActions``).
public struct _DismissingReducer<State, Action: Sendable>: Reducer {
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}
