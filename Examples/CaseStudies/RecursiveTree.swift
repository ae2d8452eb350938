// A recursive tree: each node has a name, a list of child nodes of its own type, as deep as you
// like, and a timer (standing in for any long-living work a screen starts). The reducer runs its
// children with itself (`forEach(\.rows) { Self() }`), so a node at any depth is edited by
// sending its action through each level's `.rows(.element(id:action:))`. Deleting a node cancels
// its effects and those of every node below it.
//
// The recursion goes through `IdentifiedArray`, which stores its elements out of line; a node
// can as well present one of its own type (`@Presents var child: State?`, with
// `.ifLet(\.$child, action: .child) { Self() }`): `PresentationState` stores its value out of
// line too.
import Foundation
import Loom

struct RecursiveTree: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var seconds = 0
    var rows: IdentifiedArrayOf<State> = []
  }
  enum Action: Sendable, Equatable {
    case addRowTapped, nameChanged(String), onDelete(IndexSet), startTimerTapped, tick
    indirect case rows(IdentifiedActionOf<RecursiveTree>)
  }
  @Dependency(\.uuid) var uuid
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowTapped:
        state.rows.append(State(id: uuid()))
      case .nameChanged(let name):
        state.name = name
      case .onDelete(let offsets):
        state.rows.remove(atOffsets: offsets)
      case .startTimerTapped:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.seconds += 1
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { Self() }
  }
}

extension CasePath where Root == RecursiveTree.Action {
  static var rows: CasePath<Root, IdentifiedActionOf<RecursiveTree>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}
