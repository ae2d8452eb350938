import Foundation
import Loom
import Testing

/// A store skips binding its dependencies while no task has ever bound others: in a fresh
/// process, the first override a caller binds must still be noticed, so a store with the
/// default dependencies sent to from inside `withDependencies` binds its own.
///
/// The test process binds dependencies in many tests, so the check runs in a child process
/// that runs this test alone (the test executable itself, filtered to this suite).
@MainActor
struct FreshProcessDependencyTests {
  struct Clock: Reducer {
    struct State: Equatable { var seen: Date? }
    enum Action: Sendable { case read }
    @Dependency(\.date) var date

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.seen = date.now
      return .none
    }
  }

  static let childVariable = "LOOM_FRESH_PROCESS_CHECK"

  @Test(.enabled(if: isLinux, "The test executable runs itself only on Linux"))
  func aStoreWithDefaultDependenciesIgnoresTheCallersOverrideInAFreshProcess() async throws {
    if ProcessInfo.processInfo.environment[Self.childVariable] == "1" {
      let store = Store(initialState: Clock.State()) { Clock() }
      let epoch = Date(timeIntervalSince1970: 0)
      withDependencies { $0.date = .constant(epoch) } operation: { _ = store.send(.read) }
      #expect(store.state.seen != nil)
      #expect(store.state.seen != epoch)
      return
    }
    // The child's output goes to a file, and its exit is awaited: blocking the main actor (or a
    // thread of the pool) while it runs would hold up every other test meanwhile.
    let outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-fresh-process-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputFile) }
    let handle = try FileHandle(forWritingTo: outputFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [
      "--testing-library", "swift-testing", "--filter", "FreshProcessDependencyTests",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment[Self.childVariable] = "1"
    process.environment = environment
    process.standardOutput = handle
    process.standardError = handle
    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    try handle.close()
    let text = try String(contentsOf: outputFile, encoding: .utf8)
    #expect(status == 0, "the child run failed:\n\(text)")
    #expect(text.contains("aStoreWithDefaultDependenciesIgnoresTheCallersOverrideInAFreshProcess"))
  }
}

#if os(Linux)
  private let isLinux = true
#else
  private let isLinux = false
#endif
