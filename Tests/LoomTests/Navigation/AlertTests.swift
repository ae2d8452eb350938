import Foundation
import Loom
import LoomTesting
import Testing

/// A list that asks before clearing (an alert) and offers more (a dialog).
struct Cleaner: Reducer {
  struct State: Equatable {
    var items = ["a", "b"]
    var archived: [String] = []
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var dialog: ConfirmationDialogState<Action.Dialog>?
  }
  enum Action: Sendable, Equatable {
    case alert(PresentationAction<Alert>)
    case dialog(PresentationAction<Dialog>)
    case clearTapped, moreTapped

    enum Alert: Sendable, Equatable { case confirmClear }
    enum Dialog: Sendable, Equatable { case archive }
  }

  static let clearAlert = AlertState<Action.Alert>(
    title: "Clear the list?",
    message: "This cannot be undone.",
    buttons: [
      ButtonState(role: .destructive, action: .confirmClear, label: "Clear"),
      ButtonState(role: .cancel, label: "Cancel"),
    ])
  static let moreDialog = ConfirmationDialogState<Action.Dialog>(
    titleVisibility: .visible, title: "More",
    buttons: [ButtonState(action: .archive, label: "Archive"), ButtonState(role: .cancel, label: "Cancel")])

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearTapped:
        state.alert = Self.clearAlert
      case .alert(.presented(.confirmClear)):
        state.items = []
      case .moreTapped:
        state.dialog = Self.moreDialog
      case .dialog(.presented(.archive)):
        state.archived = state.items
        state.items = []
      case .alert, .dialog:
        break
      }
      return .none
    }
    .ifLet(\.$alert, action: .alert)
    .ifLet(\.$dialog, action: .dialog)
  }
}

extension CasePath where Root == Cleaner.Action {
  static var alert: CasePath<Root, PresentationAction<Cleaner.Action.Alert>> { .init(Root.alert) { if case .alert(let a) = $0 { a } else { nil } } }
  static var dialog: CasePath<Root, PresentationAction<Cleaner.Action.Dialog>> { .init(Root.dialog) { if case .dialog(let a) = $0 { a } else { nil } } }
}

@MainActor
struct AlertTests {
  @Test func anAlertsButtonReachesTheParentAndDismissesIt() async {
    let store = TestStore(initialState: Cleaner.State()) { Cleaner() }
    await store.send(.clearTapped) { $0.alert = Cleaner.clearAlert }
    await store.send(.alert(.presented(.confirmClear))) {
      $0.alert = nil
      $0.items = []
    }
  }

  @Test func cancellingAnAlertChangesNothingElse() async {
    let store = TestStore(initialState: Cleaner.State()) { Cleaner() }
    await store.send(.clearTapped) { $0.alert = Cleaner.clearAlert }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func aDialogsButtonReachesTheParentAndDismissesIt() async {
    let store = TestStore(initialState: Cleaner.State()) { Cleaner() }
    await store.send(.moreTapped) { $0.dialog = Cleaner.moreDialog }
    await store.send(.dialog(.presented(.archive))) {
      $0.dialog = nil
      $0.archived = ["a", "b"]
      $0.items = []
    }
  }

  @Test func alertsAreEqualByTheirContent() {
    var other = Cleaner.clearAlert
    #expect(other == Cleaner.clearAlert)
    other.buttons[0].role = .cancel
    #expect(other != Cleaner.clearAlert)
  }
}
