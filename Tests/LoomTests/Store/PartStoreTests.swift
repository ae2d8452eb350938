import Loom
import Testing

/// Stores for an optional child, a presented destination, one case of it, and each row.
@MainActor
struct PartStoreTests {
  @Test func anOptionalChildsStoreIsThereWhileTheChildIs() {
    let issues = IssueLog()
    let events = Locked<[String]>([])
    let store = Store(initialState: Family.State()) { Family(events: events) } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    #expect(store.scope(state: \.optional, action: .optional) == nil)
    store.send(.showOptional)
    let child = store.scope(state: \.optional, action: .optional)
    #expect(child != nil)
    #expect(store.scope(state: \.optional, action: .optional) === child)
    child?.send(.woke(1))
    #expect(child?.state.received == ["woke 1"])
    store.send(.hideOptional)
    #expect(store.scope(state: \.optional, action: .optional) == nil)
    // Kept after the child left: it reads the child as it last read it, and what it sends is
    // reported, not a trap.
    #expect(child?.state.received == ["woke 1"])
    child?.send(.woke(2))
    #expect(store.state.optional == nil)
    #expect(issues.messages.value.count == 1)
  }

  @Test func aPresentedDestinationsStoreAndItsCasesStores() {
    let store = Store(initialState: Host.State()) { Host() }
    #expect(store.scope(state: \.destination, action: .destination) == nil)
    store.send(.presentA)
    let destination = store.scope(state: \.destination, action: .destination)
    let a = destination?.scope(state: .a, action: .a)
    #expect(destination?.scope(state: .b, action: .b) == nil)
    a?.send(.tick)  // sends .destination(.presented(.a(.tick)))
    #expect(store.state.destination == .a(Host.Ticker.State(ticks: 1)))
    #expect(destination?.scope(state: .a, action: .a) === a)
    store.send(.presentB)
    #expect(destination?.scope(state: .a, action: .a) == nil)
    let b = destination?.scope(state: .b, action: .b)
    b?.send(.tick)
    #expect(store.state.destination == .b(Host.Ticker.State(ticks: 1)))
    #expect(b !== a)
  }

  @Test func eachRowHasAStoreOfItsOwnForAsLongAsItIsThere() {
    let events = Locked<[String]>([])
    var state = Rows.State()
    state.rows = [Rows.Row(id: 1), Rows.Row(id: 2), Rows.Row(id: 3)]
    let store = Store(initialState: state) { Rows(events: events) }
    let rows = store.scope(state: \.rows, action: .rows)
    #expect(rows.map(\.state.id) == [1, 2, 3])
    rows[1].send(.woke(7))
    #expect(store.state.seen == ["2: woke(7)"])
    #expect(store.state.rows[id: 2]?.sleeper.received == ["woke 7"])
    store.send(.remove(2))
    let after = store.scope(state: \.rows, action: .rows)
    #expect(after.map(\.state.id) == [1, 3])
    #expect(after[0] === rows[0] && after[1] === rows[2])
  }
}
