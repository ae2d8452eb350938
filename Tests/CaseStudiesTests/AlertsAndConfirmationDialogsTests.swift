@testable import CaseStudies
import Loom
import LoomTesting
import Testing

@MainActor
struct AlertsAndConfirmationDialogsTests {
  typealias Feature = AlertsAndConfirmationDialogs

  @Test func theAlertsButtonIncrementsAndClosesItAndCancelChangesNothing() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    let alert = AlertState<Feature.Action.Alert>(
      title: "Alert!", message: "This is an alert",
      buttons: [
        ButtonState(role: .cancel, label: "Cancel"),
        ButtonState(action: .incrementTapped, label: "Increment"),
      ])
    await store.send(.alertButtonTapped) { $0.alert = alert }
    await store.send(.alert(.presented(.incrementTapped))) {
      $0.count = 1
      $0.alert = AlertState(title: "Incremented!")   // a new alert: it stays
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.alertButtonTapped) { $0.alert = alert }
    await store.send(.alert(.dismiss)) { $0.alert = nil }   // "Cancel"
  }

  @Test func theDialogsButtonsCountAndCloseItAndCancelChangesNothing() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    let dialog = ConfirmationDialogState<Feature.Action.Dialog>(
      title: "Confirmation dialog", message: "This is a confirmation dialog.",
      buttons: [
        ButtonState(role: .cancel, label: "Cancel"),
        ButtonState(action: .incrementTapped, label: "Increment"),
        ButtonState(action: .decrementTapped, label: "Decrement"),
      ])
    await store.send(.dialogButtonTapped) { $0.dialog = dialog }
    await store.send(.dialog(.presented(.incrementTapped))) {
      $0.count = 1
      $0.dialog = nil
      $0.alert = AlertState(title: "Incremented!")
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.dialogButtonTapped) { $0.dialog = dialog }
    await store.send(.dialog(.presented(.decrementTapped))) {
      $0.count = 0
      $0.dialog = nil
      $0.alert = AlertState(title: "Decremented!")
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.dialogButtonTapped) { $0.dialog = dialog }
    await store.send(.dialog(.dismiss)) { $0.dialog = nil }   // "Cancel"
  }
}
