// The doc-comment snippets of Sources/Loom/TestDoubles.

import Loom
import LoomTesting
import Testing

enum TestDoubleDocs {
  /// A feature that listens to live facts and loads a feed.
  struct Feature: Reducer {
    struct State: Equatable {
      var latest: String?
      var isLoading = false
      var items: [String] = []
    }
    enum Action: Sendable, Equatable {
      case onAppear, updateReceived(String)
      case refreshTapped, loaded([String])
    }
    @Dependency(\.factClient) var facts
    @Dependency(\.feedClient) var feed

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { [facts] send in
          for await fact in facts.updates() { await send(.updateReceived(fact)) }
        }
      case .updateReceived(let fact):
        state.latest = fact
        return .none
      case .refreshTapped:
        state.isLoading = true
        return .run { [feed] send in await send(.loaded(try await feed.fetch())) }
      case .loaded(let items):
        state.isLoading = false
        state.items = items
        return .none
      }
    }
  }

  @MainActor
  @Test static func aTestStreamGivesTheEffectWhatTheTestYields() async {
    // snippet: TestStream
    let updates = TestStream<String>()
    let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.factClient.updates = { updates.stream }
    }
    await store.send(.onAppear)
    updates.yield("live")
    await store.receive(.updateReceived("live")) { $0.latest = "live" }
    updates.finish()
    await store.finish()
    // snippet: end
  }

  @MainActor
  @Test static func aTestContinuationHoldsTheAnswerBackUntilTheTestResumesIt() async {
    // snippet: TestContinuation
    let page = TestContinuation<[String]>()
    let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.feedClient.fetch = { try await page.value }
    }
    await store.send(.refreshTapped) { $0.isLoading = true }
    page.resume(returning: ["a"])
    await store.receive(.loaded(["a"])) {
      $0.isLoading = false
      $0.items = ["a"]
    }
    // snippet: end
  }
}
