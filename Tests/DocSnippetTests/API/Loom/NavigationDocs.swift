// The doc-comment snippets of Sources/Loom/Navigation, the stack's forEach and DismissEffect.

import Foundation
import Loom
import LoomTesting
import Testing

enum NavigationDocs {
  struct Detail: Reducer {
    struct State: Equatable { var text = "" }
    enum Action: Sendable, Equatable { case saveTapped }
    // snippet: DismissEffect
    @Dependency(\.dismiss) var dismiss
    // snippet: hide
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
    // snippet: show
    // …
    case .saveTapped:
      return .run { _ in await dismiss() }
    // snippet: hide
      }
    }
    // snippet: end
  }

  struct Path: Reducer {
    enum State: Equatable { case detail(Detail.State) }
    enum Action: Sendable, Equatable { case detail(Detail.Action) }
    var body: some ReducerOf<Self> {
      EmptyReducer().ifCaseLet(.detail, action: .detail) { Detail() }
    }
  }

  struct Flow: Reducer {
    // snippet: StackState
    struct State: Equatable {
      var path = StackState<Path.State>()
    }
    // snippet: hide
    enum Action: Sendable, Equatable { case path(StackActionOf<Path>), pushTapped, rootTapped }

    func push(_ state: inout State) {
    // snippet: show
    // …
    state.path.append(.detail(Detail.State()))   // pushed with id 0
    // snippet: hide
    }

    func popToRoot(_ state: inout State) {
    // snippet: show
    state.path.removeAll()                       // pop to root
    // snippet: hide
    }
    // snippet: end

    // snippet: StackReducer
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        // …
        // snippet: hide
        switch action {
        case .pushTapped: push(&state)
        case .rootTapped: popToRoot(&state)
        case .path: break
        }
        // snippet: show
        return .none
      }
      .forEach(\.path, action: .path) { Path() }
    }
    // snippet: end
  }

  /// A screen that presents one destination.
  struct Screen: Reducer {
    typealias Destination = Path
    // snippet: PresentationState
    struct State: Equatable {
      @Presents var destination: Destination.State?
    }
    // snippet: end
    enum Action: Sendable, Equatable {
      case destination(PresentationAction<Destination.Action>)
      case showTapped
    }

    // snippet: PresentationReducer
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        // …
        // snippet: hide
        if case .showTapped = action { state.destination = .detail(Detail.State()) }
        // snippet: show
        return .none
      }
      .ifLet(\.$destination, action: .destination) { Destination() }
    }
    // snippet: end
  }

  @MainActor
  @Test static func aScreenPresentsAndTheChildDismissesItself() async {
    let store = TestStore(initialState: Screen.State()) { Screen() }
    await store.send(.showTapped) { $0.destination = .detail(Detail.State()) }
    await store.send(.destination(.presented(.detail(.saveTapped))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
  }

  /// A screen that asks before deleting everything.
  struct Deleter: Reducer {
    struct State: Equatable {
      var items = ["a"]
      @Presents var alert: AlertState<Action.Alert>?
    }
    enum Action: Sendable, Equatable {
      case alert(PresentationAction<Alert>)
      case deleteTapped
      enum Alert: Sendable, Equatable { case confirmDeletion }
    }

    // snippet: Reducer.ifLet.alert
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        // …
        // snippet: hide
        switch action {
        case .deleteTapped:
          // snippet: AlertState
          state.alert = AlertState(
            title: "Delete everything?",
            message: "This cannot be undone.",
            buttons: [
              ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete"),
              ButtonState(role: .cancel, label: "Cancel"),
            ])
          // snippet: end
        case .alert(.presented(.confirmDeletion)):
          state.items = []
        case .alert:
          break
        }
        // snippet: show
        return .none
      }
      .ifLet(\.$alert, action: .alert)
    }
    // snippet: end
  }

  @MainActor
  @Test static func anAlertAsksBeforeDeleting() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await store.send(.deleteTapped) {
      $0.alert = AlertState(
        title: "Delete everything?", message: "This cannot be undone.",
        buttons: [
          ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete"),
          ButtonState(role: .cancel, label: "Cancel"),
        ])
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.alert = nil
      $0.items = []
    }
  }

  @MainActor
  @Test static func aStackPushesDismissesAndPopsToRoot() async {
    let store = TestStore(initialState: Flow.State()) { Flow() }
    await store.send(.pushTapped) { $0.path.append(.detail(Detail.State())) }
    await store.send(.pushTapped) { $0.path.append(.detail(Detail.State())) }
    await store.send(.path(.element(id: 1, action: .detail(.saveTapped))))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await store.send(.rootTapped) { $0.path.removeAll() }
  }
}

extension CasePath where Root == NavigationDocs.Path.State {
  static var detail: CasePath<Root, NavigationDocs.Detail.State> { .init(Root.detail) { if case .detail(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == NavigationDocs.Path.Action {
  static var detail: CasePath<Root, NavigationDocs.Detail.Action> { .init(Root.detail) { if case .detail(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == NavigationDocs.Flow.Action {
  static var path: CasePath<Root, StackActionOf<NavigationDocs.Path>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == NavigationDocs.Screen.Action {
  static var destination: CasePath<Root, PresentationAction<NavigationDocs.Path.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == NavigationDocs.Deleter.Action {
  static var alert: CasePath<Root, PresentationAction<NavigationDocs.Deleter.Action.Alert>> { .init(Root.alert) { if case .alert(let a) = $0 { a } else { nil } } }
}
