@testable import CaseStudies
import Foundation
import Loom
import LoomTesting
import Testing

@MainActor
struct RecursiveTreeTests {
  typealias Node = RecursiveTree.State

  /// The action of the node reached from the root through the rows `UUID(n)` of this path.
  func node(_ path: [UInt64], _ action: RecursiveTree.Action) -> RecursiveTree.Action {
    path.reversed().reduce(action) { .rows(.element(id: UUID($1), action: $0)) }
  }

  @Test func rowsAreAddedRenamedAndDeletedAtAnyDepth() async {
    let store = TestStore(initialState: Node(id: UUID(9))) { RecursiveTree() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addRowTapped) { $0.rows.append(Node(id: UUID(0))) }
    await store.send(node([0], .addRowTapped)) {
      $0.rows[id: UUID(0)]?.rows.append(Node(id: UUID(1)))
    }
    await store.send(node([0, 1], .addRowTapped)) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows.append(Node(id: UUID(2)))
    }
    await store.send(node([0, 1, 2], .nameChanged("Leaf"))) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows[id: UUID(2)]?.name = "Leaf"
    }
    await store.send(node([0], .onDelete([0]))) { $0.rows[id: UUID(0)]?.rows = [] }
  }

  @Test func deletingANodeCancelsTheEffectsOfEveryNodeBelowIt() async {
    let clock = TestClock()
    let tree = Node(
      id: UUID(0), rows: [Node(id: UUID(1), rows: [Node(id: UUID(2))]), Node(id: UUID(3))])
    let store = TestStore(initialState: tree) { RecursiveTree() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(node([1], .startTimerTapped))
    await store.send(node([1, 2], .startTimerTapped))
    await store.send(node([3], .startTimerTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(node([1], .tick)) { $0.rows[id: UUID(1)]?.seconds = 1 }
    await store.receive(node([1, 2], .tick)) {
      $0.rows[id: UUID(1)]?.rows[id: UUID(2)]?.seconds = 1
    }
    await store.receive(node([3], .tick)) { $0.rows[id: UUID(3)]?.seconds = 1 }
    // Deleting the first row stops its timer and its child's; its sibling's ticks on.
    await store.send(.onDelete([0])) { $0.rows.remove(id: UUID(1)) }
    await clock.advance(by: .seconds(1))
    await store.receive(node([3], .tick)) { $0.rows[id: UUID(3)]?.seconds = 2 }
    await store.send(.onDelete([0])) { $0.rows = [] }
    await clock.advance(by: .seconds(5))
  }

  @Test func aDraftPresentsADraftOfItsOwnAndEndingOneCancelsItsTimers() async {
    let clock = TestClock()
    let store = TestStore(initialState: Node(id: UUID(9))) { RecursiveTree() } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
    }
    await store.send(.draftTapped) { $0.draft = Node(id: UUID(0)) }
    await store.send(.draft(.presented(.draftTapped))) { $0.draft?.draft = Node(id: UUID(1)) }
    await store.send(.draft(.presented(.startTimerTapped)))
    await store.send(.draft(.presented(.draft(.presented(.startTimerTapped)))))
    await clock.advance(by: .seconds(1))
    await store.receive(.draft(.presented(.tick))) { $0.draft?.seconds = 1 }
    await store.receive(.draft(.presented(.draft(.presented(.tick))))) {
      $0.draft?.draft?.seconds = 1
    }
    // The inner draft joins the outer one's rows: its presentation ended, so did its timer.
    await store.send(.draft(.presented(.saveDraftTapped))) {
      $0.draft?.rows.append(Node(id: UUID(1), seconds: 1))
      $0.draft?.draft = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.draft(.presented(.tick))) { $0.draft?.seconds = 2 }
    // Dismissed: the outer draft's timer stops too.
    await store.send(.draft(.dismiss)) { $0.draft = nil }
    await clock.advance(by: .seconds(5))
  }
}
