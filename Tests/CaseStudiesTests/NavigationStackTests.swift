@testable import CaseStudies
import Loom
import LoomTesting
import Testing

@MainActor
struct NavigationStackTests {
  typealias Ticker = NavigationDemo.Ticker
  typealias Loader = NavigationDemo.Loader
  let clock = TestClock()

  func makeStore() -> TestStoreOf<NavigationDemo> {
    TestStore(initialState: NavigationDemo.State()) { NavigationDemo() } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aPopCancelsThePoppedScreensEffectsAndThoseOfTheScreensAboveIt() async {
    let store = makeStore()
    await store.send(.path(.push(id: 0, state: .ticker(Ticker.State())))) {
      $0.path.append(.ticker(Ticker.State()))
    }
    await store.send(.path(.element(id: 0, action: .ticker(.startTapped))))
    await store.send(.path(.push(id: 1, state: .loader(Loader.State())))) {
      $0.path.append(.loader(Loader.State()))
    }
    await store.send(.path(.element(id: 1, action: .loader(.loadTapped)))) {
      $0.path[id: 1] = .loader(Loader.State(isLoading: true))
    }
    // Back from the loader: its load never lands, the ticker below ticks on.
    await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .ticker(.tick)))) {
      $0.path[id: 0] = .ticker(Ticker.State(seconds: 1))
    }
    await store.send(.path(.push(id: 2, state: .ticker(Ticker.State())))) {
      $0.path.append(.ticker(Ticker.State()))
    }
    await store.send(.path(.element(id: 2, action: .ticker(.startTapped))))
    // Popping the bottom screen pops the one above it too: neither timer fires again.
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    await clock.advance(by: .seconds(5))
  }

  @Test func theLoaderLoadsThenPopsItselfAndWhatIsAboveIt() async {
    let store = makeStore()
    await store.send(.path(.push(id: 0, state: .loader(Loader.State())))) {
      $0.path.append(.loader(Loader.State()))
    }
    await store.send(.path(.element(id: 0, action: .loader(.loadTapped)))) {
      $0.path[id: 0] = .loader(Loader.State(isLoading: true))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .loader(.loaded("Loaded"))))) {
      $0.path[id: 0] = .loader(Loader.State(text: "Loaded"))
    }
    await store.send(.path(.push(id: 1, state: .ticker(Ticker.State())))) {
      $0.path.append(.ticker(Ticker.State()))
    }
    await store.send(.path(.element(id: 1, action: .ticker(.startTapped))))
    await store.send(.path(.element(id: 0, action: .loader(.closeTapped))))
    await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    await clock.advance(by: .seconds(5))
  }

  @Test func theMenuPopsToRootThroughTheRoot() async {
    let store = makeStore()
    await store.send(.path(.push(id: 0, state: .ticker(Ticker.State())))) {
      $0.path.append(.ticker(Ticker.State()))
    }
    await store.send(.path(.element(id: 0, action: .ticker(.startTapped))))
    await store.send(.path(.push(id: 1, state: .menu(NavigationDemo.Menu.State())))) {
      $0.path.append(.menu(NavigationDemo.Menu.State()))
    }
    await store.send(.path(.element(id: 1, action: .menu(.popToRootTapped))))
    await store.receive(.path(.element(id: 1, action: .menu(.delegate(.popToRoot))))) {
      $0.path.removeAll()
    }
    await clock.advance(by: .seconds(5))
  }
}
