// A recursive tree: each node has a name, a list of child nodes of its own type, as deep as you
// like, and a timer (standing in for any long-living work a screen starts). The reducer runs its
// children with itself (`forEach(\.rows) { Self() }`), so a node at any depth is edited by
// sending its action through each level's `.rows(.element(id:action:))`. Deleting a node cancels
// its effects and those of every node below it.
//
// A node is drafted on a sheet before it joins the rows: the draft is a node too, presented
// (`@Presents var draft: State?`, run by `.ifLet(\.$draft, action: .draft) { Self() }`), so a
// draft can present a draft of its own, as deep as you like. Saving or dismissing a draft ends
// its presentation, and cancels its timers and those of every draft it presents.
//
// The recursion goes through `IdentifiedArray` and `PresentationState`, which both store their
// values out of line.
import Foundation
import Loom

struct RecursiveTree: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var seconds = 0
    var rows: IdentifiedArrayOf<State> = []
    @Presents var draft: State?
  }
  enum Action: Sendable, Equatable {
    case addRowTapped, nameChanged(String), onDelete(IndexSet), startTimerTapped, tick
    case draftTapped, saveDraftTapped
    indirect case rows(IdentifiedActionOf<RecursiveTree>)
    indirect case draft(PresentationAction<RecursiveTree.Action>)
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
      case .draftTapped:
        state.draft = State(id: uuid())
      case .saveDraftTapped:
        guard let draft = state.draft else { break }
        state.rows.append(draft)
        state.draft = nil
      case .rows, .draft:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { Self() }
    .ifLet(\.$draft, action: .draft) { Self() }
  }
}

extension CasePath where Root == RecursiveTree.Action {
  static var rows: CasePath<Root, IdentifiedActionOf<RecursiveTree>> { .init(Root.rows) { if case .rows(let a) = $0 { a } else { nil } } }
  static var draft: CasePath<Root, PresentationAction<RecursiveTree.Action>> { .init(Root.draft) { if case .draft(let a) = $0 { a } else { nil } } }
}
