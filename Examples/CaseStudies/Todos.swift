// A todo list. Each row is its own feature, `Todo`, whose fields a view edits through bindings
// (`BindableAction` + `BindingReducer`); the list runs the rows with `forEach` over an
// `IdentifiedArray`, and watches their actions: ticking a todo sorts the completed ones to the
// bottom a second later, on the injected clock. That delay is a debounce, so every tick within it
// starts it again and the list does not reshuffle under a finger ticking several rows. The list
// also adds todos (ids from `@Dependency(\.uuid)`), deletes and moves rows, filters them (a bound
// field), and clears the completed ones. Delete and move get offsets into the rows on screen,
// the filtered ones, and translate them into offsets of the whole list.
import Foundation
import Loom

struct Todo: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var description = ""
    var isComplete = false
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)

    var binding: BindingAction<State>? { if case .binding(let a) = self { a } else { nil } }
  }

  var body: some ReducerOf<Self> { BindingReducer() }
}

struct Todos: Reducer {
  enum Filter: Sendable, CaseIterable { case all, active, completed }

  struct State: Equatable {
    var filter = Filter.all
    var todos: IdentifiedArrayOf<Todo.State> = []

    var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch filter {
      case .all: todos
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }

    /// The offsets in `todos` of the rows at `offsets` in `filteredTodos`.
    func offsets(ofFiltered offsets: IndexSet) -> IndexSet {
      let filtered = filteredTodos
      return IndexSet(offsets.compactMap { todos.index(id: filtered[$0].id) })
    }
  }
  enum Action: BindableAction, Equatable {
    case addTodoButtonTapped
    case binding(BindingAction<State>)
    case clearCompletedButtonTapped
    case delete(IndexSet)
    case move(IndexSet, Int)
    case sortCompletedTodos
    case todos(IdentifiedActionOf<Todo>)

    var binding: BindingAction<State>? { if case .binding(let a) = self { a } else { nil } }
  }
  enum CancelID { case sort }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none
      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none
      case .delete(let offsets):
        state.todos.remove(atOffsets: state.offsets(ofFiltered: offsets))
        return .none
      case .move(let source, let destination):
        // Just before the row now at `destination` on screen, or at the very end.
        let filtered = state.filteredTodos
        let target = filtered.indices.contains(destination)
          ? state.todos.index(id: filtered[destination].id) : nil
        state.todos.move(
          fromOffsets: state.offsets(ofFiltered: source), toOffset: target ?? state.todos.count)
        return .none
      case .sortCompletedTodos:
        state.todos.sort { !$0.isComplete && $1.isComplete }   // stable: each group keeps its order
        return .none
      case .todos(.element(id: _, action: .binding(\.isComplete))):
        return .send(.sortCompletedTodos)
          .debounce(id: CancelID.sort, for: .seconds(1), clock: clock)
      case .binding, .todos:
        return .none
      }
    }
    .forEach(\.todos, action: .todos) { Todo() }
  }
}

extension CasePath where Root == Todos.Action {
  static var todos: CasePath<Root, IdentifiedActionOf<Todo>> { .init(Root.todos) { if case .todos(let a) = $0 { a } else { nil } } }
}
