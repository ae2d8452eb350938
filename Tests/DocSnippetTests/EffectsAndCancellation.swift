// The snippets of Docs/EffectsAndCancellation.md.

// snippet: cancellation
import Loom
// snippet: hide
import LoomTesting
import Testing
// snippet: show

struct Search: Reducer {
  struct State: Equatable { var results: [String] = [] }
  enum Action: Sendable, Equatable {
    case queryChanged(String)
    case cancelTapped
    case results([String])
  }
  enum CancelID { case search }
  @Dependency(\.searchClient) var api

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      return .run { send in await send(.results(try await api.search(query))) }
        .cancellable(id: CancelID.search, cancelInFlight: true)
    case .cancelTapped:
      return .cancel(id: CancelID.search)
    case .results(let results):
      state.results = results
      return .none
    }
  }
}
// snippet: end

// snippet: search-client
struct SearchClient: Sendable {
  var search: @Sendable (String) async throws -> [String]
}

extension SearchClient: DependencyKey {
  static let liveValue = SearchClient { query in [query] }   // a real client asks a server
}

extension DependencyValues {
  var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}
// snippet: end

/// A search client whose "lo" search never ends unless cancelled.
private func searchClient() -> SearchClient {
  SearchClient { query in
    if query == "lo" { try await Task.sleep(for: .seconds(600)) }
    return [query]
  }
}

@MainActor
@Test func aNewQueryCancelsTheSearchInFlight() async {
  let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
    $0.searchClient = searchClient()
  }
  await store.send(.queryChanged("lo"))
  await store.send(.queryChanged("loom"))
  await store.receive(.results(["loom"])) { $0.results = ["loom"] }
}

@MainActor
@Test func cancellingStopsTheSearch() async {
  let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
    $0.searchClient = searchClient()
  }
  await store.send(.queryChanged("lo"))
  await store.send(.cancelTapped)
  await store.finish()
}
