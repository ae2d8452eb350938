// Alerts and confirmation dialogs: the reducer decides what to ask, as plain values
// (`AlertState`, `ConfirmationDialogState`) held in presentation state, and hears each button as
// an action. A button's action reaches the parent and then closes what was shown; a cancel
// button sends nothing but `.dismiss`. Counting answers with another alert, presented from the
// button's action: a new alert, which stays. Everything a person can do with them is testable.
import Loom

struct AlertsAndConfirmationDialogs: Reducer {
  struct State: Equatable {
    var count = 0
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var dialog: ConfirmationDialogState<Action.Dialog>?
  }
  enum Action: Sendable, Equatable {
    case alertButtonTapped
    case dialogButtonTapped
    case alert(PresentationAction<Alert>)
    case dialog(PresentationAction<Dialog>)

    enum Alert: Sendable, Equatable { case incrementTapped }
    enum Dialog: Sendable, Equatable { case incrementTapped, decrementTapped }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alertButtonTapped:
        state.alert = AlertState(
          title: "Alert!", message: "This is an alert",
          buttons: [
            ButtonState(role: .cancel, label: "Cancel"),
            ButtonState(action: .incrementTapped, label: "Increment"),
          ])
      case .dialogButtonTapped:
        state.dialog = ConfirmationDialogState(
          title: "Confirmation dialog", message: "This is a confirmation dialog.",
          buttons: [
            ButtonState(role: .cancel, label: "Cancel"),
            ButtonState(action: .incrementTapped, label: "Increment"),
            ButtonState(action: .decrementTapped, label: "Decrement"),
          ])
      case .alert(.presented(.incrementTapped)), .dialog(.presented(.incrementTapped)):
        state.count += 1
        state.alert = AlertState(title: "Incremented!")
      case .dialog(.presented(.decrementTapped)):
        state.count -= 1
        state.alert = AlertState(title: "Decremented!")
      case .alert(.dismiss), .dialog(.dismiss):
        break
      }
      return .none
    }
    .ifLet(\.$alert, action: .alert)
    .ifLet(\.$dialog, action: .dialog)
  }
}

extension CasePath where Root == AlertsAndConfirmationDialogs.Action {
  static var alert: CasePath<Root, PresentationAction<Root.Alert>> { .init(Root.alert) { if case .alert(let a) = $0 { a } else { nil } } }
  static var dialog: CasePath<Root, PresentationAction<Root.Dialog>> { .init(Root.dialog) { if case .dialog(let a) = $0 { a } else { nil } } }
}
