// The doc-comment snippets of Sources/Loom/Bindings, BindingReducer and Store+Bindings, and the
// bindings section of the composition guide.

import Foundation
import Loom
import LoomTesting
import Testing

enum BindingDocs {
  /// A profile form whose name and visibility are bound fields.
  struct Profile: Reducer {
    struct State: Equatable {
      var name = ""
      var isPublic = false
      var isSaved = true
    }

    // snippet: BindableAction
    enum Action: BindableAction {
      case binding(BindingAction<State>)
      case saveTapped

      var binding: BindingAction<State>? { if case .binding(let action) = self { action } else { nil } }
    }
    // snippet: end

    // snippet: BindingReducer
    var body: some ReducerOf<Self> {
      BindingReducer()
        .onChange(of: \.name) { _, _ in
          Reduce { state, _ in
            state.isSaved = false
            return .none
          }
        }
      Reduce { state, action in
        // …
        return .none
      }
    }
    // snippet: end
  }

  /// The same form, reacting to its name in its own reducer.
  struct MatchingProfile: Reducer {
    typealias State = Profile.State
    typealias Action = Profile.Action

    var body: some ReducerOf<Self> {
      BindingReducer()
      // snippet: BindingAction
      Reduce { state, action in
        switch action {
        case .binding(\.name):
          state.isSaved = false
          return .none
        case .binding, .saveTapped:
          return .none
        }
      }
      // snippet: end
    }
  }

  @MainActor
  @Test static func aBindingActionSetsItsField() {
    let store = Store(initialState: Profile.State()) { MatchingProfile() }
    // snippet: BindingAction.set
    store.send(.binding(.set(\.name, "Ada")))
    // snippet: end
    #expect(store.state == Profile.State(name: "Ada", isSaved: false))
  }

  @MainActor
  @Test static func writingAFieldOfTheStoreSendsItsBinding() {
    let store = Store(initialState: Profile.State()) { Profile() }
    // snippet: Store.binding
    store.name = "Ada"   // sends .binding(.set(\.name, "Ada"))
    // snippet: end
    #expect(store.state == Profile.State(name: "Ada", isSaved: false))
  }
}
