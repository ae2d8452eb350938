// Multiple destinations: a sheet, a popover and a drill-down driven by one optional enum, so at
// most one is shown and the compiler knows it. Each destination is a small feature with a timer
// that runs while it is shown and a "Done" button with which it dismisses itself, through the
// `dismiss` dependency, without knowing who presented it. Whatever ends a destination (the child
// itself, the parent's `.dismiss`, or the parent switching to another case) cancels its timer.
import Loom

struct MultipleDestinations: Reducer {
  /// What each destination shows: the seconds it has been on screen.
  struct Stopwatch: Reducer {
    struct State: Equatable { var seconds = 0 }
    enum Action: Sendable, Equatable { case onAppear, tick, doneTapped }
    @Dependency(\.continuousClock) var clock
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.seconds += 1
        return .none
      case .doneTapped:
        return .run { _ in await dismiss() }
      }
    }
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case sheet(Stopwatch.State), popover(Stopwatch.State), drillDown(Stopwatch.State)
    }
    enum Action: Sendable, Equatable {
      case sheet(Stopwatch.Action), popover(Stopwatch.Action), drillDown(Stopwatch.Action)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.sheet, action: .sheet) { Stopwatch() }
        .ifCaseLet(.popover, action: .popover) { Stopwatch() }
        .ifCaseLet(.drillDown, action: .drillDown) { Stopwatch() }
    }
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
  }
  enum Action: Sendable, Equatable {
    case showSheet, showPopover, showDrillDown
    case destination(PresentationAction<Destination.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showSheet: state.destination = .sheet(Stopwatch.State())
      case .showPopover: state.destination = .popover(Stopwatch.State())
      case .showDrillDown: state.destination = .drillDown(Stopwatch.State())
      case .destination: break
      }
      return .none
    }
    .ifLet(\.$destination, action: .destination) { Destination() }
  }
}

extension CasePath where Root == MultipleDestinations.Action {
  static var destination: CasePath<Root, PresentationAction<MultipleDestinations.Destination.Action>> { .init(Root.destination) { if case .destination(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == MultipleDestinations.Destination.State {
  static var sheet: CasePath<Root, MultipleDestinations.Stopwatch.State> { .init(Root.sheet) { if case .sheet(let s) = $0 { s } else { nil } } }
  static var popover: CasePath<Root, MultipleDestinations.Stopwatch.State> { .init(Root.popover) { if case .popover(let s) = $0 { s } else { nil } } }
  static var drillDown: CasePath<Root, MultipleDestinations.Stopwatch.State> { .init(Root.drillDown) { if case .drillDown(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == MultipleDestinations.Destination.Action {
  static var sheet: CasePath<Root, MultipleDestinations.Stopwatch.Action> { .init(Root.sheet) { if case .sheet(let a) = $0 { a } else { nil } } }
  static var popover: CasePath<Root, MultipleDestinations.Stopwatch.Action> { .init(Root.popover) { if case .popover(let a) = $0 { a } else { nil } } }
  static var drillDown: CasePath<Root, MultipleDestinations.Stopwatch.Action> { .init(Root.drillDown) { if case .drillDown(let a) = $0 { a } else { nil } } }
}
