// The doc-comment snippets of Sources/Loom/Effect, and of reportIssue and IssueReporter.

import Foundation
import Loom
import LoomTesting
import Testing

/// The client of `EffectDocs.Feed`.
struct FeedClient: Sendable {
  struct Page: Equatable, Sendable { var items: [String] }
  var fetch: @Sendable () async throws -> [String]
  var fetchPage: @Sendable (_ limit: Int) async throws -> Page
  var save: @Sendable () async throws -> Void
  var updates: @Sendable () -> AsyncStream<String>

  func fetchPage(limit: Int) async throws -> Page { try await fetchPage(limit) }
}

extension FeedClient: DependencyKey {
  static let liveValue = FeedClient(
    fetch: { ["live"] }, fetchPage: { _ in Page(items: ["live"]) }, save: {},
    updates: { AsyncStream { $0.finish() } })
}

extension DependencyValues {
  var feedClient: FeedClient {
    get { self[FeedClient.self] }
    set { self[FeedClient.self] = newValue }
  }
}

enum EffectDocs {
  /// One feature with a case for each effect the docs show.
  struct Feed: Reducer {
    struct State: Equatable {
      var count = 0
      var isLoading = false
      var items: [String] = []
      var error: String?
      var query = ""
      var results: [String] = []
      var offset = 0.0
      var rows: IdentifiedArrayOf<Row.State> = []
      var log: [String] = []
    }
    enum Action: Sendable, Equatable {
      case incrementTapped
      case refreshTapped, loaded([String]), failed(String)
      case saveTapped, willSave, didSave, delegate(Delegate)
      case onAppear, onDisappear, updateReceived(String)
      case filtersTapped, loadFilters, tick, saveAllTapped
      case nextPageTapped, pageLoaded(FeedClient.Page)
      case searchQueryChanged(String), results([String])
      case scrolled(Double), loadMoreIfNeeded(Double)
      case rowTapped(id: Int)
      enum Delegate: Sendable, Equatable { case didSave }
    }
    enum CancelID { case refresh, search, scroll, liveUpdates }

    @Dependency(\.feedClient) var client
    @Dependency(\.searchClient) var api
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      // snippet: Effect.none
      case .incrementTapped:
        state.count += 1
        return .none
      // snippet: end
      // snippet: Effect
      case .refreshTapped:
        state.isLoading = true
        return .run { send in
          let items = try await client.fetch()
          await send(.loaded(items))
        } catch: { error, send in
          await send(.failed(error.localizedDescription))
        }
        .cancellable(id: CancelID.refresh, cancelInFlight: true)
      // snippet: end
      case .loaded(let items):
        state.isLoading = false
        state.items = items
        return .none
      case .failed(let message):
        state.isLoading = false
        state.error = message
        return .none
      // snippet: Effect.send
      case .saveTapped:
        return .send(.delegate(.didSave))
      // snippet: end
      case .onAppear:
        // snippet: Effect.run
        return .run { send in
          for await event in client.updates() {
            await send(.updateReceived(event))
          }
        }
        // snippet: end
        .cancellable(id: CancelID.liveUpdates)
      // snippet: Effect.cancel
      case .onDisappear:
        return .cancel(id: CancelID.liveUpdates)
      // snippet: end
      case .updateReceived(let item):
        state.items.append(item)
        return .none
      case .filtersTapped:
        // snippet: Effect.merge
        return .merge(.send(.loadFilters), .run { send in await send(.tick) })
        // snippet: end
      case .saveAllTapped:
        // snippet: Effect.concatenate
        return .concatenate(.send(.willSave), .run { _ in try await client.save() }, .send(.didSave))
        // snippet: end
      case .nextPageTapped:
        // snippet: Send
        return .run { send in
          let page = try await client.fetchPage(limit: 50)
          await send(.pageLoaded(page))
        }
        // snippet: end
      case .pageLoaded(let page):
        state.items += page.items
        return .none
      // snippet: Effect.debounce-case
      case .searchQueryChanged(let query):
        state.query = query
        return .run { send in await send(.results(try await api.search(query))) }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      // snippet: end
      case .results(let results):
        state.results = results
        return .none
      // snippet: Effect.throttle-case
      case .scrolled(let offset):
        return .send(.loadMoreIfNeeded(offset))
          .throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
      // snippet: end
      case .loadMoreIfNeeded(let offset):
        state.offset = offset
        return .none
      case .rowTapped(let id):
        // snippet: reportIssue
        guard let row = state.rows[id: id] else {
          reportIssue("No row with id \(id)")
          return .none
        }
        // snippet: end
        state.log.append("tapped \(row.id)")
        return .none
      case .loadFilters, .tick, .willSave, .didSave, .delegate:
        return .none
      }
    }

    func debounced(_ effect: Effect<Action>) -> Effect<Action> {
      // snippet: Effect.debounce
      @Dependency(\.continuousClock) var clock
      return effect.debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      // snippet: end
    }

    func throttled(_ effect: Effect<Action>) -> Effect<Action> {
      // snippet: Effect.throttle
      return effect.throttle(id: CancelID.scroll, for: .seconds(1), clock: clock, latest: true)
      // snippet: end
    }
  }

  @MainActor
  static func makeStore(
    _ prepare: (inout DependencyValues) -> Void = { _ in }
  ) -> TestStore<Feed.State, Feed.Action> {
    TestStore(initialState: Feed.State()) { Feed() } withDependencies: {
      $0.feedClient = FeedClient(
        fetch: { ["a", "b"] }, fetchPage: { FeedClient.Page(items: ["page of \($0)"]) },
        save: {}, updates: { AsyncStream { $0.yield("live"); $0.finish() } })
      $0.searchClient.search = { [$0] }
      $0.continuousClock = ImmediateClock()
      prepare(&$0)
    }
  }

  @MainActor
  @Test static func eachEffectDoesWhatItsDocSays() async {
    let store = makeStore()
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.items = ["a", "b"]
    }
    await store.send(.saveTapped)
    await store.receive(.delegate(.didSave))
    await store.send(.onAppear)
    await store.receive(.updateReceived("live")) { $0.items.append("live") }
    await store.send(.onDisappear)
    await store.send(.nextPageTapped)
    await store.receive(.pageLoaded(FeedClient.Page(items: ["page of 50"]))) {
      $0.items.append("page of 50")
    }
    // An immediate clock ends the debounce's wait at once, so each query is searched (ClockDocs
    // shows the debounce on a test clock).
    await store.send(.searchQueryChanged("l")) { $0.query = "l" }
    await store.receive(.results(["l"])) { $0.results = ["l"] }
    await store.send(.searchQueryChanged("lo")) { $0.query = "lo" }
    await store.receive(.results(["lo"])) { $0.results = ["lo"] }
    await store.send(.filtersTapped)
    await store.receive(.loadFilters)
    await store.receive(.tick)
    await store.send(.saveAllTapped)
    await store.receive(.willSave)
    await store.receive(.didSave)
    await store.send(.scrolled(10))
    await store.receive(.loadMoreIfNeeded(10)) { $0.offset = 10 }
  }

  @MainActor
  @Test static func aFailedRefreshGoesToTheCatchHandler() async {
    struct Offline: LocalizedError { var errorDescription: String? { "Offline" } }
    let store = makeStore { $0.feedClient.fetch = { throw Offline() } }
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.failed("Offline")) {
      $0.isLoading = false
      $0.error = "Offline"
    }
  }

  @MainActor
  @Test static func aSendCollectsWhatItIsGiven() async {
    var received: [Feature.Action] = []
    // snippet: Send.init
    let send = Send<Feature.Action> { received.append($0) }
    // snippet: end
    await send(.fetchTapped(1))
    #expect(received == [.fetchTapped(1)])
  }

  /// Collects what an issue reporter receives.
  final class IssueLog: Sendable {
    let lines = LockedState<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
  }

  @MainActor
  @Test static func anIssueReporterReceivesTheStoresIssues() async {
    let log = IssueLog()
    // snippet: IssueReporter
    let reporter = IssueReporter { message, location in log.append("\(location): \(message)") }
    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.issueReporter = reporter
    }
    // snippet: end
    _ = store
    let feed = Store(initialState: Feed.State()) { Feed() } withDependencies: {
      $0.issueReporter = reporter
    }
    feed.send(.rowTapped(id: 7))
    let lines: [String] = log.lines.withLock { $0 }
    #expect(lines.count == 1)
    let first: String = lines.first ?? ""
    #expect(first.hasSuffix("No row with id 7"))
  }
}

/// The search of `Effect.cancellable(id:cancelInFlight:)`'s doc comment, over the search client
/// of Docs/EffectsAndCancellation.md. The snippet's lines start at the first column, as the
/// doc comment shows them.
struct CancellableDocSearch: Reducer {
  struct State: Equatable { var results: [String] = [] }
  enum Action: Sendable, Equatable {
    case queryChanged(String)
    case results([String])
  }
  @Dependency(\.searchClient) var api

// snippet: Effect.cancellable
enum CancelID { case search }

// snippet: hide
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
// snippet: show
case .queryChanged(let query):
  return .run { send in await send(.results(try await api.search(query))) }
    .cancellable(id: CancelID.search, cancelInFlight: true)
// snippet: end
    case .results(let results):
      state.results = results
      return .none
    }
  }
}

@MainActor
@Test func aCancellableSearchCancelsTheOneInFlight() async {
  let store = TestStore(initialState: CancellableDocSearch.State()) {
    CancellableDocSearch()
  } withDependencies: {
    $0.searchClient = SearchClient { query in
      if query == "lo" { try await Task.sleep(for: .seconds(600)) }
      return [query]
    }
  }
  await store.send(.queryChanged("lo"))
  await store.send(.queryChanged("loom"))
  await store.receive(.results(["loom"])) { $0.results = ["loom"] }
}
