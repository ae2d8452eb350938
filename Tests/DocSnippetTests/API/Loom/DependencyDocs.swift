// The doc-comment snippets of Sources/Loom/Dependencies and Sources/Loom/Clocks.

import Foundation
import Loom
import LoomTesting
import Testing

/// The client the dependency docs declare.
struct FactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
  var save: @Sendable (String) async throws -> Void
  var updates: @Sendable () -> AsyncStream<String>
}

extension FactClient {
  static let live = FactClient(
    fetch: { "\($0) is a number." }, save: { _ in }, updates: { AsyncStream { $0.finish() } })
  static let preview = FactClient(
    fetch: { "\($0) is a preview." }, save: { _ in }, updates: { AsyncStream { $0.finish() } })
  static let mock = FactClient(
    fetch: { "\($0) is a mock." }, save: { _ in }, updates: { AsyncStream { $0.finish() } })
  static let unimplemented = FactClientTestKey.testValue
}

/// Where `unimplemented(_:)` means the function, not `FactClient.unimplemented`.
enum FactClientTestKey {
  // snippet: unimplemented
  static let testValue = FactClient(
    fetch: unimplemented("FactClient.fetch"),
    save: unimplemented("FactClient.save"),
    // snippet: unimplemented-placeholder
    updates: unimplemented("FactClient.updates", placeholder: AsyncStream { $0.finish() })
    // snippet: end
  )
  // snippet: end
}

// snippet: DependencyValues
// snippet: DependencyKey
private enum FactClientKey: DependencyKey {
  static let liveValue = FactClient.live
  static let testValue = FactClient.unimplemented
  static let previewValue = FactClient.preview
}
// snippet: end

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClientKey.self] }
    set { self[FactClientKey.self] = newValue }
  }
}
// snippet: end

private struct FactReader {
  // snippet: Dependency.init-key
  @Dependency(FactClientKey.self) var factClient
  // snippet: end
}

enum DependencyDocs {
  // snippet: Dependency
  struct Feature: Reducer {
    @Dependency(\.uuid) var uuid
    @Dependency(\.continuousClock) var clock
    // …
    // snippet: hide
    struct State: Equatable { var ids: [UUID] = [] }
    enum Action: Sendable, Equatable { case addTapped, added }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .addTapped:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.added)
        }
      case .added:
        state.ids.append(uuid())
        return .none
      }
    }

    static func makeRow() -> UUID {
      @Dependency(\.uuid) var uuid
      return uuid()
    }
    // snippet: show
  }
  // snippet: end

  @MainActor
  final class Model {
    var lastRefresh: Date?
    func refresh() async {
      @Dependency(\.date) var date
      lastRefresh = date.now
    }
  }

  @MainActor
  @Test static func aFeatureReadsItsDependenciesFromTheStore() async {
    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.addTapped).finish()
    #expect(store.state.ids == [UUID(0)])
  }

  @Test static func withDependenciesChangesThemForTheOperation() async {
    // snippet: withDependencies
    let id = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      Feature.makeRow()
    }
    // snippet: end
    #expect(id == UUID(0))

    let model = Model()
    // snippet: withDependencies-async
    await withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      await model.refresh()
    }
    // snippet: end
    #expect(await model.lastRefresh == Date(timeIntervalSince1970: 0))
  }

  @Test static func aKeyResolvesToTheValueOfItsContext() async throws {
    #expect(try await DependencyValues()[FactClientKey.self].fetch(1) == "1 is a number.")
    var values = DependencyValues()
    values.context = .preview
    #expect(try await values.factClient.fetch(1) == "1 is a preview.")
    // snippet: DependencyValues.subscript
    values[FactClientKey.self] = .mock
    // snippet: end
    #expect(try await values.factClient.fetch(1) == "1 is a mock.")
    #expect(try await FactReader().factClient.fetch(2) == "2 is a number.")
  }

  @Test static func unimplementedEndpointsReportTheirName() async {
    let reported = LockedState<[String]>([])
    await withDependencies {
      $0.issueReporter = IssueReporter { message, _ in reported.withLock { $0.append(message) } }
    } operation: {
      await #expect(throws: UnimplementedFailure(endpoint: "FactClient.fetch")) {
        try await FactClientTestKey.testValue.fetch(1)
      }
      var updates: [String] = []
      for await update in FactClientTestKey.testValue.updates() { updates.append(update) }
      #expect(updates == [])
    }
    let messages: [String] = reported.withLock { $0 }
    #expect(messages.count == 2)
    #expect(messages.first?.contains("FactClient.fetch") == true)
  }

  @MainActor
  @Test static func aStoreCanRunInThePreviewContext() async throws {
    // snippet: DependencyContext
    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.context = .preview
    }
    // snippet: end
    _ = store
    let fact = withDependencies { $0.context = .preview } operation: {
      @Dependency(\.factClient) var factClient
      return factClient
    }
    #expect(try await fact.fetch(3) == "3 is a preview.")
  }
}

enum GeneratorDocs {
  struct Reminder: Equatable, Identifiable { let id: UUID }
  struct Reminders: Reducer {
    struct State: Equatable { var reminders: [Reminder] = [] }
    enum Action: Sendable, Equatable { case addTapped }
    @Dependency(\.uuid) var uuid
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.reminders.append(Reminder(id: uuid()))
      return .none
    }
  }

  @MainActor
  @Test static func anIncrementingUUIDIsPredictable() async {
    // snippet: UUID.init
    let store = TestStore(initialState: Reminders.State()) { Reminders() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addTapped) { $0.reminders = [Reminder(id: UUID(0))] }
    // snippet: end
  }

  @Test static func generatorsReadAsTheDocsSay() {
    withDependencies { $0.uuid = .incrementing } operation: {
      // snippet: DependencyValues.uuid
      @Dependency(\.uuid) var uuid
      let id = uuid()
      // snippet: end
      #expect(id == UUID(0))
    }
    // snippet: UUIDGenerator
    let uuid = UUIDGenerator.incrementing
    let first = uuid()    // 00000000-0000-0000-0000-000000000000
    let second = uuid()   // 00000000-0000-0000-0000-000000000001
    // snippet: end
    #expect([first, second].map(\.uuidString) == [
      "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
    ])
    withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 5)) } operation: {
      // snippet: DependencyValues.date
      @Dependency(\.date) var date
      let now = date.now
      // snippet: end
      #expect(now == Date(timeIntervalSince1970: 5))
    }
    var printed: [Date] = []
    func print(_ date: Date) { printed.append(date) }
    // snippet: DateGenerator
    withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 1_700_000_000)) } operation: {
      @Dependency(\.date) var date
      print(date.now)   // 2023-11-14 22:13:20 +0000
    }
    // snippet: end
    #expect(printed.map(\.description) == ["2023-11-14 22:13:20 +0000"])
  }

  @Test static func randomnessIsSeededInTests() {
    withDependencies {
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
    } operation: {
      // snippet: DependencyValues.randomNumberGenerator
      @Dependency(\.randomNumberGenerator) var random
      let jitter = random { Double.random(in: 0..<1, using: &$0) }
      // snippet: end
      #expect((0..<1).contains(jitter))
    }
    // snippet: WithRandomNumberGenerator
    let random = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 42))
    let value = random { Int.random(in: 1...6, using: &$0) }
    // snippet: end
    // snippet: SeededRandomNumberGenerator
    var generator = SeededRandomNumberGenerator(seed: 42)
    let roll = Int.random(in: 1...6, using: &generator)
    // snippet: end
    #expect(value == roll)
  }
}
