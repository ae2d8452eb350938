import Foundation
import Loom
import LoomTesting
import Testing

@testable import CaseStudies

/// A list of todos with ids `UUID(0)`, `UUID(1)`…, each complete or not as its flag says.
private func list(_ complete: Bool...) -> Todos.State {
  let todos = complete.enumerated().map { Todo.State(id: UUID(UInt64($0)), isComplete: $1) }
  return Todos.State(todos: IdentifiedArray(uniqueElements: todos))
}

@MainActor
struct TodosTests {
  @Test func addingATodoPutsItOnTop() async {
    let store = TestStore(initialState: Todos.State()) { Todos() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(0))] }
    await store.send(.addTodoButtonTapped) { $0.todos.insert(Todo.State(id: UUID(1)), at: 0) }
  }

  @Test func aRowEditsItsDescriptionThroughABinding() async {
    let store = TestStore(initialState: list(false)) { Todos() }
    await store.send(.todos(.element(id: UUID(0), action: .set(\.description, "Buy milk")))) {
      $0.todos[id: UUID(0)]?.description = "Buy milk"
    }
  }

  @Test func completedTodosSinkASecondAfterTheTick() async {
    let clock = TestClock()
    let store = TestStore(initialState: list(false, false)) { Todos() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.todos(.element(id: UUID(0), action: .set(\.isComplete, true)))) {
      $0.todos[0].isComplete = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) { $0.todos.swapAt(0, 1) }
  }

  // Each tick restarts the delay: the list sorts once, a second after the last one.
  @Test func tickingAgainWithinTheDelayRestartsIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: list(false, false, false)) { Todos() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.todos(.element(id: UUID(0), action: .set(\.isComplete, true)))) {
      $0.todos[0].isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.todos(.element(id: UUID(1), action: .set(\.isComplete, true)))) {
      $0.todos[1].isComplete = true
    }
    // The first delay would have ended here: a sort received now would fail the next send.
    await clock.advance(by: .milliseconds(900))
    await store.send(.todos(.element(id: UUID(1), action: .set(\.isComplete, false)))) {
      $0.todos[1].isComplete = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) { $0.todos.move(from: 0, to: 2) }
  }

  @Test func clearCompletedRemovesTheCompletedTodos() async {
    let store = TestStore(initialState: list(true, false, true)) { Todos() }
    await store.send(.clearCompletedButtonTapped) { $0.todos = [$0.todos[1]] }
  }

  @Test func deleteRemovesTheRowsOnScreen() async {
    let store = TestStore(initialState: list(false, true, false, true)) { Todos() }
    await store.send(.delete([1])) { $0.todos.remove(at: 1) }
    // Filtered, the rows on screen are the completed ones: the second is the last todo.
    await store.send(.set(\.filter, .completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos.ids == [UUID(3)])
    await store.send(.delete([0])) { $0.todos.remove(id: UUID(3)) }
  }

  @Test func moveMovesTheRowsOnScreen() async {
    let store = TestStore(initialState: list(false, true, false, false)) { Todos() }
    await store.send(.move([0], 2)) { $0.todos.move(from: 0, to: 1) }   // ids 1, 0, 2, 3
    // Filtered, the rows on screen are the active ones: 0, 2, 3.
    await store.send(.set(\.filter, .active)) { $0.filter = .active }
    #expect(store.state.filteredTodos.ids == [UUID(0), UUID(2), UUID(3)])
    // Active 3 goes before active 0 (after the completed 1), then to the very end.
    await store.send(.move([2], 0)) { $0.todos.move(from: 3, to: 1) }   // ids 1, 3, 0, 2
    await store.send(.move([0], 3)) { $0.todos.move(from: 1, to: 3) }   // ids 1, 0, 2, 3
  }
}
