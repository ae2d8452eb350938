// The snippets of Docs/Dependencies.md.

import Foundation
import Loom
import Testing

/// What the live API client calls.
func liveFetch(_ id: Int) async throws -> String { "item \(id)" }

// snippet: declaring
struct APIClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

private enum APIClientKey: DependencyKey {
  static let liveValue = APIClient { id in try await liveFetch(id) }
  static let testValue = APIClient(fetch: unimplemented("APIClient.fetch"))
  // previewValue defaults to liveValue
}

extension DependencyValues {
  var apiClient: APIClient {
    get { self[APIClientKey.self] }
    set { self[APIClientKey.self] = newValue }
  }
}
// snippet: end

// snippet: using
struct Feature: Reducer {
  @Dependency(\.apiClient) var apiClient
  @Dependency(\.uuid) var uuid
  // …
  // snippet: hide
  struct State: Equatable {
    var items: [UUID: String] = [:]
  }
  enum Action: Sendable, Equatable {
    case fetchTapped(Int)
    case fetched(Int, String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetchTapped(let id):
      return .run { send in await send(.fetched(id, try await apiClient.fetch(id))) }
    case .fetched(_, let text):
      state.items[uuid()] = text
      return .none
    }
  }
  // snippet: show
}
// snippet: end

@MainActor
@Test func overridesReachTheStoreTheOperationAndTheSubtree() async {
  // snippet: overriding
  let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
    $0.uuid = .incrementing
  }

  withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) } operation: {
    // …
    // snippet: hide
    @Dependency(\.date) var date
    #expect(date() == Date(timeIntervalSince1970: 0))
    // snippet: show
  }

  let reducer = Feature().dependency(\.uuid, .incrementing)   // for a subtree and the effects it returns
  // snippet: end
  await store.send(.fetchTapped(7)).finish()
  #expect(store.state.items == [UUID(0): "item 7"])
  let subtree = Store(initialState: Feature.State()) { reducer }
  await subtree.send(.fetchTapped(8)).finish()
  #expect(subtree.state.items == [UUID(0): "item 8"])
}
