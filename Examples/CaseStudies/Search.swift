// Search as you type. Each change of the query restarts a 0.3 s debounce on the injected clock,
// so typing fast sends one request, for the last query. The debounce and the request share one
// cancel id, so a new query also cancels a request still in flight for an older one: a slow
// answer to an old query never lands. Clearing the query clears the results and cancels too.
// Tapping a result loads its forecast, cancelling one still loading for another result.
import Loom

struct WeatherClient: Sendable {
  var search: @Sendable (String) async throws -> [Search.Location]
  var forecast: @Sendable (Search.Location) async throws -> Search.Forecast
}

private enum WeatherClientKey: DependencyKey {
  // A real client asks a geocoding and a weather service; this one knows three cities.
  static let liveValue = WeatherClient(
    search: { query in
      ["Brooklyn", "Los Angeles", "San Francisco"].enumerated()
        .filter { $0.element.lowercased().contains(query.lowercased()) }
        .map { Search.Location(id: $0.offset, name: $0.element) }
    },
    forecast: { location in
      Search.Forecast(locationID: location.id, dailyHighs: [20, 22, 19].map { $0 + location.id })
    })
  static let testValue = WeatherClient(
    search: unimplemented("WeatherClient.search"),
    forecast: unimplemented("WeatherClient.forecast"))
}

extension DependencyValues {
  var weatherClient: WeatherClient {
    get { self[WeatherClientKey.self] }
    set { self[WeatherClientKey.self] = newValue }
  }
}

struct Search: Reducer {
  struct Location: Equatable, Identifiable, Sendable {
    var id: Int
    var name: String
  }
  struct Forecast: Equatable, Sendable {
    var locationID: Location.ID
    var dailyHighs: [Int]   // °C, today first
  }

  struct State: Equatable {
    var query = ""
    var results: [Location] = []
    var forecastRequestInFlight: Location?
    var forecast: Forecast?   // shown under the result it is for
  }
  enum Action: Sendable, Equatable {
    case forecastFailed
    case forecastResponse(Forecast)
    case queryChanged(String)
    case resultTapped(Location)
    case searchFailed
    case searchResponse([Location])
  }
  enum CancelID { case search, forecast }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.weatherClient) var weatherClient

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .forecastFailed:
      state.forecastRequestInFlight = nil
      state.forecast = nil
      return .none
    case .forecastResponse(let forecast):
      state.forecastRequestInFlight = nil
      state.forecast = forecast
      return .none
    case .queryChanged(let query):
      state.query = query
      // Without this cancel, a request already sent could fill the cleared list later.
      guard !query.isEmpty else {
        state.results = []
        state.forecast = nil
        return .cancel(id: CancelID.search)
      }
      return .run { send in
        await send(.searchResponse(try await weatherClient.search(query)))
      } catch: { _, send in
        await send(.searchFailed)
      }
      .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case .resultTapped(let location):
      state.forecastRequestInFlight = location
      return .run { send in
        await send(.forecastResponse(try await weatherClient.forecast(location)))
      } catch: { _, send in
        await send(.forecastFailed)
      }
      .cancellable(id: CancelID.forecast, cancelInFlight: true)
    case .searchFailed:
      state.results = []
      return .none
    case .searchResponse(let results):
      state.results = results
      return .none
    }
  }
}
