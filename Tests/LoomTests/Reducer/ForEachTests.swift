import Loom
import Testing

struct Rows: Reducer {
  struct Row: Identifiable, Equatable {
    var id: Int
    var sleeper = Sleeper.State()
  }
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row> = []
    var seen: [String] = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, Sleeper.Action>)
    case remove(Int)
  }
  let events: Locked<[String]>

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows(.element(let id, let action)):
        state.seen.append("\(id): \(action)")
        return .none
      case .remove(let id):
        state.rows.remove(id: id)
        return .none
      }
    }
    .forEach(\.rows, action: .rows) { SleeperRow(events: events) }
  }
}

/// Runs the sleeper on a row's own state.
struct SleeperRow: Reducer {
  typealias State = Rows.Row
  typealias Action = Sleeper.Action
  let events: Locked<[String]>
  var body: some Reducer<Rows.Row, Sleeper.Action> {
    Scope(state: \.sleeper, action: CasePath<Sleeper.Action, Sleeper.Action>.identity) {
      Sleeper(events: events)
    }
  }
}

extension CasePath where Root == Rows.Action, Value == IdentifiedAction<Int, Sleeper.Action> {
  static var rows: Self { Self(Rows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } } }
}

@MainActor
struct ForEachTests {
  @Test func anElementActionChangesThatElementAndTheParentSeesIt() {
    let events = Locked<[String]>([])
    let store = Store(initialState: Rows.State(rows: [Rows.Row(id: 1), Rows.Row(id: 2)])) {
      Rows(events: events)
    }
    store.send(.rows(.element(id: 2, action: .woke(5))))
    #expect(store.state.rows[id: 2]?.sleeper.received == ["woke 5"])
    #expect(store.state.rows[id: 1]?.sleeper.received == [])
    #expect(store.state.seen == ["2: woke(5)"])
  }

  @Test func anActionForAMissingElementIsReportedAndIgnored() {
    let events = Locked<[String]>([])
    let issues = IssueLog()
    let store = Store(initialState: Rows.State()) { Rows(events: events) } withDependencies: {
      $0.issueReporter = issues.reporter
    }
    store.send(.rows(.element(id: 9, action: .woke(1))))
    #expect(issues.messages.value.count == 1)
    #expect(issues.messages.value.first?.contains("missing element (id: 9)") == true)
    // The issue points at the `forEach` call in `Rows.body`, and says so in words.
    let location = issues.locations.value.first
    #expect(location?.fileID == "LoomTests/ForEachTests.swift")
    #expect(location?.filePath.hasSuffix("Tests/LoomTests/Reducer/ForEachTests.swift") == true)
    #expect(location?.line == 30)
    #expect(issues.messages.value.first?.contains("at LoomTests/ForEachTests.swift:30") == true)
  }

  @Test func removingAnElementCancelsItsEffectsButNotItsSiblings() async {
    let events = Locked<[String]>([])
    let store = Store(initialState: Rows.State(rows: [Rows.Row(id: 1), Rows.Row(id: 2)])) {
      Rows(events: events)
    }
    let first = store.send(.rows(.element(id: 1, action: .start(id: 1))))
    let second = store.send(.rows(.element(id: 2, action: .start(id: 1))))
    store.send(.remove(1))
    await first.finish()
    #expect(events.value == ["cancelled 1"])
    #expect(store.inFlightEffectCount == 1)
    store.send(.rows(.element(id: 2, action: .cancel(id: 1))))
    await second.finish()
    #expect(store.inFlightEffectCount == 0)
  }
}
