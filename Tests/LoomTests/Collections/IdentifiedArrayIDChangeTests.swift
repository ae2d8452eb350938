import Loom
import Testing

/// An element's id must not change; when a write through `[id:]` changes it anyway, the array
/// reports it and stays consistent. These tests read the issue reporter because the message is
/// what they check.
struct IdentifiedArrayIDChangeTests {
  let log = IssueLog()

  func write(_ change: (inout IdentifiedArrayOf<Item>) -> Void) -> IdentifiedArrayOf<Item> {
    var rows: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    withDependencies {
      $0.issueReporter = log.reporter
    } operation: {
      change(&rows)
    }
    return rows
  }

  @Test func changingAnIDInPlaceMovesTheElementToItsNewID() {
    let rows = write { $0[id: 1]?.id = 3 }
    #expect(rows.ids == [3, 2])
    #expect(rows[id: 3] == Item(id: 3, name: "a"))
    #expect(rows[id: 1] == nil)
    #expect(rows.checkInvariants())
    #expect(
      log.messages.value == [
        """
        An element with id 3 was written to [id: 1] of an IdentifiedArray. An element's id must \
        not change: the element was stored under its own id, 3, in place of the element with \
        id 1.
        """
      ])
  }

  @Test func assigningAnElementWithAnotherIDStoresItUnderItsOwnID() {
    let rows = write { $0[id: 1] = Item(id: 9, name: "z") }
    #expect(rows.elements == [Item(id: 9, name: "z"), Item(id: 2, name: "b")])
    #expect(rows[id: 1] == nil)
    #expect(rows.checkInvariants())
    #expect(log.messages.value.count == 1)
  }

  @Test func assigningToAMissingIDAnElementWithAnotherIDAppendsItUnderItsOwnID() {
    let rows = write { $0[id: 5] = Item(id: 9) }
    #expect(rows.ids == [1, 2, 9])
    #expect(rows.checkInvariants())
    #expect(
      log.messages.value == [
        """
        An element with id 9 was written to [id: 5] of an IdentifiedArray. An element's id must \
        not change: the element was stored under its own id, 9.
        """
      ])
  }

  @Test func changingAnIDToOneAnotherElementHasIsIgnored() {
    let rows = write { $0[id: 1]?.id = 2 }
    #expect(rows.elements == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    #expect(rows.checkInvariants())
    #expect(
      log.messages.value == [
        """
        An element with id 2 was written to [id: 1] of an IdentifiedArray, and another element \
        already has id 2. An element's id must not change: the write was ignored.
        """
      ])
  }

  @Test func changingAnIDThroughItsPositionMovesTheElementToItsNewID() {
    let rows = write { $0[0].id = 3 }
    #expect(rows.ids == [3, 2])
    #expect(rows[id: 3] == Item(id: 3, name: "a"))
    #expect(rows.checkInvariants())
    #expect(log.messages.value.count == 1)
  }

  @Test func changingAnIDThroughItsPositionToOneAnotherElementHasIsIgnored() {
    let rows = write { $0[1] = Item(id: 1, name: "z") }
    #expect(rows.elements == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    #expect(rows.checkInvariants())
    #expect(log.messages.value.count == 1)
  }

  @Test func repeatingAnIDInTheStorageUndoesTheEdit() {
    let rows = write { rows in
      _ = rows.withContiguousMutableStorageIfAvailable { buffer in
        buffer[0].name = "changed"
        buffer[1].id = 1
      }
    }
    #expect(rows.elements == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    #expect(rows.checkInvariants())
    #expect(
      log.messages.value == [
        """
        An element with id 1 was written at position 1 of an IdentifiedArray, and the element \
        at position 0 has id 1 too. An element's id must not change: the edit was undone.
        """
      ])
  }

  /// Through a slice's storage too: the count never changes, so writing the slice back to the
  /// array cannot go out of range.
  @Test func repeatingAnIDInASlicesStorageUndoesTheEdit() {
    let rows = write { rows in
      _ = rows[0..<2].withContiguousMutableStorageIfAvailable { $0[1] = $0[0] }
    }
    #expect(rows.elements == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    #expect(rows.checkInvariants())
    #expect(!log.messages.value.isEmpty)
  }

  /// A slice is edited through the array's positions one element at a time, so permuting it
  /// in place would repeat an id on the way: each such write is reported and ignored, and
  /// the array stays as it was. (Permute the whole array, or build the new order.)
  @Test func permutingASliceInPlaceIsReportedAndChangesNothing() {
    let rows = write { $0[0...].reverse() }
    #expect(rows.ids == [1, 2])
    #expect(rows.checkInvariants())
    #expect(!log.messages.value.isEmpty)
  }

  @Test func writesThatKeepTheIDReportNothing() {
    let rows = write {
      $0[id: 1]?.name = "changed"
      $0[id: 2] = Item(id: 2, name: "replaced")
      $0[id: 3] = Item(id: 3)
      $0[0].name = "again"
      $0.swapAt(0, 1)
      $0.sort { $0.id < $1.id }
    }
    #expect(rows.ids == [1, 2, 3])
    #expect(log.messages.value == [])
  }
}

/// A `forEach` row whose reducer changes its own id goes through the same rules as a write
/// through `[id:]`: moved to a new id, reported; to an id another row has, reported and ignored.
struct ForEachRowIDChangeTests {
  struct Row: Reducer {
    enum Action: Sendable { case renumber(Int), rename(String) }

    func reduce(into state: inout Item, action: Action) -> Effect<Action> {
      switch action {
      case .renumber(let id): state.id = id
      case .rename(let name): state.name = name
      }
      return .none
    }
  }

  struct List: Reducer {
    struct State { var rows: IdentifiedArrayOf<Item> }
    enum Action: Sendable { case rows(IdentifiedAction<Int, Row.Action>) }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .forEach(
          \.rows,
          action: CasePath(Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
        ) { Row() }
    }
  }

  func run(_ actions: [List.Action]) -> (IdentifiedArrayOf<Item>, [String]) {
    let log = IssueLog()
    var state = List.State(rows: [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    withDependencies { $0.issueReporter = log.reporter } operation: {
      for action in actions { _ = List().reduce(into: &state, action: action) }
    }
    return (state.rows, log.messages.value)
  }

  @Test func aRowTakingAnIDNoOtherRowHasMovesToIt() {
    let (rows, messages) = run([.rows(.element(id: 1, action: .renumber(3)))])
    #expect(rows.elements == [Item(id: 3, name: "a"), Item(id: 2, name: "b")])
    #expect(rows.checkInvariants())
    #expect(messages.count == 1)
  }

  @Test func aRowTakingTheIDOfAnotherRowIsIgnored() {
    let (rows, messages) = run([
      .rows(.element(id: 1, action: .renumber(2))), .rows(.element(id: 2, action: .rename("c"))),
    ])
    #expect(rows.elements == [Item(id: 1, name: "a"), Item(id: 2, name: "c")])
    #expect(rows.checkInvariants())
    #expect(messages.count == 1)
  }
}
