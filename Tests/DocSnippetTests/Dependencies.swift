// The snippets of Docs/Dependencies.md. Its `main.swift` is in GuidePackageFiles.swift.

// snippet: declaring
import Foundation
import Loom
// snippet: hide
import Testing
// snippet: show

struct APIClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

private enum APIClientKey: DependencyKey {
  static let liveValue = APIClient { id in "item \(id)" }   // a real client asks a server
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
  struct State: Equatable {
    var items: [UUID: String] = [:]
  }
  enum Action: Sendable, Equatable {
    case fetchTapped(Int)
    case fetched(Int, String)
  }
  @Dependency(\.apiClient) var apiClient
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetchTapped(let id):
      return .run { send in await send(.fetched(id, try await apiClient.fetch(id))) }
    case .fetched(_, let text):
      state.items[uuid()] = text
      return .none
    }
  }
}
// snippet: end

@MainActor
@Test func overridesReachTheStoreTheOperationAndTheSubtree() async {
  let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
    $0.uuid = .incrementing
  }
  withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) } operation: {
    @Dependency(\.date) var date
    #expect(date() == Date(timeIntervalSince1970: 0))
  }
  let reducer = Feature().dependency(\.uuid, .incrementing)
  await store.send(.fetchTapped(7)).finish()
  #expect(store.state.items == [UUID(0): "item 7"])
  let subtree = Store(initialState: Feature.State()) { reducer }
  await subtree.send(.fetchTapped(8)).finish()
  #expect(subtree.state.items == [UUID(0): "item 8"])
}
