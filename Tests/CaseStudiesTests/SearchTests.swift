import Loom
import LoomTesting
import Testing

@testable import CaseStudies

private let brooklyn = Search.Location(id: 1, name: "Brooklyn")
private let boston = Search.Location(id: 2, name: "Boston")
private struct Offline: Error {}

@MainActor
struct SearchTests {
  // Keystrokes 0.2 s apart: no debounce ends until the typing stops, then one request is sent.
  @Test func typingFastSendsOneRequest() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { [Search.Location(id: 1, name: $0)] }
    }
    await store.send(.queryChanged("B")) { $0.query = "B" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("Br")) { $0.query = "Br" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("Bro")) { $0.query = "Bro" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse([Search.Location(id: 1, name: "Bro")])) {
      $0.results = [Search.Location(id: 1, name: "Bro")]
    }
  }

  @Test func aFailedSearchClearsTheResults() async {
    let store = TestStore(initialState: Search.State(results: [boston])) {
      Search()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
      $0.weatherClient.search = { _ in throw Offline() }
    }
    await store.send(.queryChanged("B")) { $0.query = "B" }
    await store.receive(.searchFailed) { $0.results = [] }
  }

  // The request for "B" is still waiting for its answer when "Br" is typed: it is cancelled, and
  // the answer given afterwards never lands (an unreceived action would fail the test).
  @Test func aSlowAnswerToAnOldQueryNeverLands() async {
    let clock = TestClock()
    let slowAnswer = TestContinuation<[Search.Location]>()
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { $0 == "B" ? try await slowAnswer.value : [brooklyn] }
    }
    await store.send(.queryChanged("B")) { $0.query = "B" }
    await clock.advance(by: .milliseconds(300))
    await store.send(.queryChanged("Br")) { $0.query = "Br" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse([brooklyn])) { $0.results = [brooklyn] }
    slowAnswer.resume(returning: [boston])
  }

  @Test func clearingTheQueryClearsTheResultsAndCancelsTheSearch() async {
    let clock = TestClock()
    let answer = TestContinuation<[Search.Location]>()
    let forecast = Search.Forecast(locationID: 1, dailyHighs: [20])
    let store = TestStore(initialState: Search.State(results: [brooklyn], forecast: forecast)) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { _ in try await answer.value }
    }
    await store.send(.queryChanged("Br")) { $0.query = "Br" }
    await clock.advance(by: .milliseconds(300))
    await store.send(.queryChanged("")) {
      $0.query = ""
      $0.results = []
      $0.forecast = nil
    }
    answer.resume(returning: [boston])
  }

  @Test func tappingAResultLoadsItsForecast() async {
    let store = TestStore(initialState: Search.State(results: [brooklyn])) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { Search.Forecast(locationID: $0.id, dailyHighs: [20, 22]) }
    }
    await store.send(.resultTapped(brooklyn)) { $0.forecastRequestInFlight = brooklyn }
    await store.receive(.forecastResponse(Search.Forecast(locationID: 1, dailyHighs: [20, 22]))) {
      $0.forecastRequestInFlight = nil
      $0.forecast = Search.Forecast(locationID: 1, dailyHighs: [20, 22])
    }
  }

  @Test func tappingAnotherResultCancelsTheForecastLoading() async {
    let slowForecast = TestContinuation<Search.Forecast>()
    let store = TestStore(initialState: Search.State(results: [brooklyn, boston])) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = {
        $0 == brooklyn
          ? try await slowForecast.value : Search.Forecast(locationID: 2, dailyHighs: [9])
      }
    }
    await store.send(.resultTapped(brooklyn)) { $0.forecastRequestInFlight = brooklyn }
    await store.send(.resultTapped(boston)) { $0.forecastRequestInFlight = boston }
    await store.receive(.forecastResponse(Search.Forecast(locationID: 2, dailyHighs: [9]))) {
      $0.forecastRequestInFlight = nil
      $0.forecast = Search.Forecast(locationID: 2, dailyHighs: [9])
    }
    slowForecast.resume(returning: Search.Forecast(locationID: 1, dailyHighs: [20]))
  }

  @Test func aFailedForecastShowsNone() async {
    let shown = Search.Forecast(locationID: 2, dailyHighs: [9])
    let store = TestStore(initialState: Search.State(results: [brooklyn], forecast: shown)) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { _ in throw Offline() }
    }
    await store.send(.resultTapped(brooklyn)) { $0.forecastRequestInFlight = brooklyn }
    await store.receive(.forecastFailed) {
      $0.forecastRequestInFlight = nil
      $0.forecast = nil
    }
  }
}
