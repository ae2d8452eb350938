import Foundation
import Loom
import LoomTesting
import Testing

/// A profile form: its fields are set by binding actions; a change of name unsaves it; saving
/// records what was saved.
struct ProfileForm: Reducer {
  struct State: Equatable {
    var name = ""
    var isPublic = false
    var age = 0
    var isSaved = true
    var saved: [String] = []
    var nameEdits = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case saveTapped

    var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.name) { _, _ in
        Reduce { state, _ in
          state.isSaved = false
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding(\.name):
        state.nameEdits += 1
        return .none
      case .binding:
        return .none
      case .saveTapped:
        state.saved.append(state.name)
        state.isSaved = true
        return .none
      }
    }
  }
}

@MainActor
struct BindingTests {
  @Test func bindingActionsSetTheirFieldAndTheFeatureSeesThem() async {
    let store = TestStore(initialState: ProfileForm.State()) { ProfileForm() }
    await store.send(.binding(.set(\.name, "Ada"))) {
      $0.name = "Ada"
      $0.isSaved = false
      $0.nameEdits = 1
    }
    await store.send(.set(\.isPublic, true)) { $0.isPublic = true }
    await store.send(.saveTapped) {
      $0.saved = ["Ada"]
      $0.isSaved = true
    }
    // The same value again: the field does not change, so `onChange` does nothing, but the
    // feature still sees the action.
    await store.send(.set(\.name, "Ada")) { $0.nameEdits = 2 }
  }

  @Test func twoBindingActionsAreEqualWhenTheySetOneFieldToOneValue() {
    typealias Binding = BindingAction<ProfileForm.State>
    #expect(Binding.set(\.name, "Ada") == .set(\.name, "Ada"))
    #expect(Binding.set(\.name, "Ada") != .set(\.name, "Grace"))
    #expect(Binding.set(\.age, 3) != .set(\.nameEdits, 3))
    #expect(String(describing: Binding.set(\.name, "Ada")).hasSuffix(#", "Ada")"#))
  }

  @Test func aKeyPathPatternMatchesTheBindingsOfItsFieldOnly() {
    func field(of action: ProfileForm.Action) -> String {
      switch action {
      case .binding(\.name): "name"
      case .binding(\.age): "age"
      case .binding: "another"
      case .saveTapped: "none"
      }
    }
    #expect(
      [.set(\.name, "Ada"), .set(\.age, 3), .set(\.isPublic, true), .saveTapped].map(field)
        == ["name", "age", "another", "none"])
  }

  @Test func writingAFieldOfTheStoreSendsItsBindingAction() {
    let store = Store(initialState: ProfileForm.State()) { ProfileForm() }
    store.name = "Grace"
    store.isPublic = true
    #expect(store.name == "Grace")
    #expect(store.saved.isEmpty)
    #expect(
      store.state
        == ProfileForm.State(name: "Grace", isPublic: true, isSaved: false, nameEdits: 1))
    // What SwiftUI's `@Bindable` writes through: a reference-writable key path of the store.
    let name: ReferenceWritableKeyPath<StoreOf<ProfileForm>, String> = \.name
    store[keyPath: name] = "Ada"
    #expect(store.state.name == "Ada")
    #expect(store.state.nameEdits == 2)
  }

  @Test func aFieldWrittenThroughATestStoreIsAnActionToAssert() async {
    let store = TestStore(initialState: ProfileForm.State()) { ProfileForm() }
    let failures = LockedState<[String]>([])
    store.failureReporter = .collecting { failure in
      failures.withLock { $0.append(failure.message) }
    }
    await store.send(.set(\.age, 41)) { $0.age = 40 }
    let messages = failures.withLock { $0 }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("age: 41") == true)
  }
}
