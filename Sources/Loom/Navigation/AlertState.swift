import Synchronization

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
///
/// Each alert made has an identity of its own (``id``; copies share it), so a parent that
/// answers a button by presenting another alert presents a new one. Two alerts are equal when
/// their content is.
public struct AlertState<Action>: Identifiable {
  public let id: AlertStateID
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = AlertStateID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// The identity of an alert or a confirmation dialog: each one made has its own.
public struct AlertStateID: Hashable, Sendable, CustomStringConvertible {
  let rawValue: UInt64

  init() {
    rawValue = alerts.wrappingAdd(1, ordering: .relaxed).newValue
  }

  public var description: String { "#\(rawValue)" }
}

private let alerts = Atomic<UInt64>(0)

/// A confirmation dialog to present (an action sheet): like ``AlertState``, with whether its
/// title shows.
public struct ConfirmationDialogState<Action>: Identifiable {
  /// Whether the dialog shows its title.
  public enum TitleVisibility: Sendable, Hashable { case automatic, visible, hidden }

  /// The dialog's identity: each one made has its own (copies share it).
  public let id: AlertStateID
  public var titleVisibility: TitleVisibility
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(
    titleVisibility: TitleVisibility = .automatic, title: String, message: String? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.id = AlertStateID()
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

// Equal by content: the identity tells presentations apart, not values a test spells out.
extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(self, children: ["title": title, "message": message as Any, "buttons": buttons])
  }
}
extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(titleVisibility)
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "titleVisibility": titleVisibility, "title": title, "message": message as Any,
        "buttons": buttons,
      ])
  }
}
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
    _PresentationReducer(
      parent: self,
      child: _DismissingReducer<Presented, PresentedAction>(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      endsAfterEachAction: true
    )
  }
}

extension Reducer {
  /// Runs a presented alert or dialog with a reducer of its own (`ifLet(_:action:)`
  /// needs none): each of its actions ends the presentation, after the parent saw it.
  @inlinable
  public func ifLet<ChildState: _DismissedByItsActions, ChildAction, Child: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> destination child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    _PresentationReducer(
      parent: self,
      child: child(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      callSite: _CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      endsAfterEachAction: true
    )
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
