// A navigation stack: the root holds the pushed screens as a `StackState` of one enum, and the
// stack gives each screen an id when it is pushed (a `NavigationLink` sends `.push`, the back
// button `.popFrom(id:)`). Three screens: one counts seconds while its timer runs, one loads
// something (a second on the injected clock stands in for a request) and can pop itself through
// `dismiss`, and a menu that asks the root to pop to root with a delegate action. Whatever
// removes a screen (a pop, `dismiss`, the root emptying the stack) cancels its effects and those
// of every screen above it.
import Loom

struct NavigationDemo: Reducer {
  struct Ticker: Reducer {
    struct State: Equatable { var seconds = 0 }
    enum Action: Sendable, Equatable { case startTapped, tick }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .startTapped:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.seconds += 1
        return .none
      }
    }
  }

  struct Loader: Reducer {
    struct State: Equatable {
      var isLoading = false
      var text: String?
    }
    enum Action: Sendable, Equatable { case loadTapped, loaded(String), closeTapped }
    @Dependency(\.continuousClock) var clock
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loadTapped:
        state.isLoading = true
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded("Loaded"))
        }
      case .loaded(let text):
        state.isLoading = false
        state.text = text
        return .none
      case .closeTapped:
        return .run { _ in await dismiss() }
      }
    }
  }

  struct Menu: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable {
      case popToRootTapped
      case delegate(Delegate)
      enum Delegate: Sendable, Equatable { case popToRoot }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .popToRootTapped: .send(.delegate(.popToRoot))
      case .delegate: .none
      }
    }
  }

  struct Path: Reducer {
    enum State: Equatable { case ticker(Ticker.State), loader(Loader.State), menu(Menu.State) }
    enum Action: Sendable, Equatable {
      case ticker(Ticker.Action), loader(Loader.Action), menu(Menu.Action)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.ticker, action: .ticker) { Ticker() }
        .ifCaseLet(.loader, action: .loader) { Loader() }
        .ifCaseLet(.menu, action: .menu) { Menu() }
    }
  }

  struct State: Equatable {
    var path = StackState<Path.State>()
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<Path>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .path(.element(_, .menu(.delegate(.popToRoot)))) = action {
        state.path.removeAll()
      }
      return .none
    }
    .forEach(\.path, action: .path) { Path() }
  }
}

extension CasePath where Root == NavigationDemo.Action {
  static var path: CasePath<Root, StackActionOf<NavigationDemo.Path>> { .init(Root.path) { if case .path(let a) = $0 { a } else { nil } } }
}
extension CasePath where Root == NavigationDemo.Path.State {
  static var ticker: CasePath<Root, NavigationDemo.Ticker.State> { .init(Root.ticker) { if case .ticker(let s) = $0 { s } else { nil } } }
  static var loader: CasePath<Root, NavigationDemo.Loader.State> { .init(Root.loader) { if case .loader(let s) = $0 { s } else { nil } } }
  static var menu: CasePath<Root, NavigationDemo.Menu.State> { .init(Root.menu) { if case .menu(let s) = $0 { s } else { nil } } }
}
extension CasePath where Root == NavigationDemo.Path.Action {
  static var ticker: CasePath<Root, NavigationDemo.Ticker.Action> { .init(Root.ticker) { if case .ticker(let a) = $0 { a } else { nil } } }
  static var loader: CasePath<Root, NavigationDemo.Loader.Action> { .init(Root.loader) { if case .loader(let a) = $0 { a } else { nil } } }
  static var menu: CasePath<Root, NavigationDemo.Menu.Action> { .init(Root.menu) { if case .menu(let a) = $0 { a } else { nil } } }
}
