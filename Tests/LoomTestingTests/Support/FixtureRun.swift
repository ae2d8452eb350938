import Foundation
import Testing

/// One run of the fixture package `Tests/Fixtures/TestStoreFixture` with `swift test`, in a
/// child process, and what each of its tests did under Swift Testing and under XCTest.
///
/// The fixture is built and run once per test process, however many tests read the result. It
/// builds in `.build-fixtures` at the root of the checkout, so a second run (the thread
/// sanitizer's) reuses the build.
struct FixtureRun: Sendable {
  /// A test of the fixture under one framework.
  struct Outcome: Sendable {
    var passed: Bool?
    var issues: [Issue] = []
  }

  /// A failure the fixture's test recorded.
  struct Issue: Sendable, CustomStringConvertible {
    let file: String
    let line: Int
    let message: String

    var description: String { "\(file):\(line): \(message)" }
  }

  enum Framework: String, Sendable, CaseIterable {
    case swiftTesting = "SwiftTestingFixture"
    case xcTest = "XCTestFixture"
  }

  /// What each test did, by framework and by name (`aForgottenReceiveFails`; XCTest's
  /// `testAForgottenReceiveFails` is named the same way).
  let outcomes: [Framework: [String: Outcome]]
  let exitStatus: Int32
  let output: String

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let package = root.appendingPathComponent("Tests/Fixtures/TestStoreFixture")

  /// The fixture's test file for `framework`.
  static func testFile(_ framework: Framework) -> URL {
    package.appendingPathComponent("Tests/\(framework.rawValue)/ForgottenAssertionTests.swift")
  }

  /// The run, started by the first test that asks for it.
  static let shared = Task { try await FixtureRun.run() }

  static func run() async throws -> FixtureRun {
    let outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-fixture-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputFile) }
    let handle = try FileHandle(forWritingTo: outputFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "test", "--package-path", package.path,
      "--scratch-path", root.appendingPathComponent(".build-fixtures").path, "--no-parallel",
    ]
    process.standardOutput = handle
    process.standardError = handle
    // Waits without blocking a thread of the cooperative pool: the build takes a while.
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
    let output = try String(contentsOf: outputFile, encoding: .utf8)
    return FixtureRun(outcomes: parse(output), exitStatus: status, output: output)
  }

  /// Reads the console output of Swift Testing and of XCTest.
  static func parse(_ output: String) -> [Framework: [String: Outcome]] {
    var outcomes: [Framework: [String: Outcome]] = [:]
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false)[...]
    while let line = lines.popFirst() {
      if let match = line.wholeMatch(of: /✘ Test (\w+)\(\) recorded an issue at (.+?):(\d+):\d+: .*/)
      {
        // The message follows, its first line after "↳ ", the others indented by two spaces.
        var message: [Substring] = []
        while let next = lines.first, next.hasPrefix("↳ ") || next.hasPrefix("  ") {
          message.append(next.dropFirst(2))
          lines.removeFirst()
        }
        outcomes[.swiftTesting, default: [:]][String(match.1), default: Outcome()].issues.append(
          Issue(
            file: String(match.2), line: Int(match.3) ?? 0,
            message: message.joined(separator: "\n")))
      } else if let match = line.wholeMatch(of: /([✔✘]) Test (\w+)\(\) (passed|failed) .*/) {
        outcomes[.swiftTesting, default: [:]][String(match.2), default: Outcome()].passed =
          match.3 == "passed"
      } else if let match = line.wholeMatch(of: /(\/.+?):(\d+): error: \w+\.(\w+) : failed - (.*)/)
      {
        // The message's first line is on the error line; the others follow until the next test
        // event.
        var message = [match.4]
        while let next = lines.first, !next.hasPrefix("Test Case '"),
          next.wholeMatch(of: /\/.+?:\d+: error: .*/) == nil
        {
          message.append(next)
          lines.removeFirst()
        }
        outcomes[.xcTest, default: [:]][xcTestName(match.3), default: Outcome()].issues.append(
          Issue(
            file: URL(fileURLWithPath: String(match.1)).lastPathComponent,
            line: Int(match.2) ?? 0, message: message.joined(separator: "\n")))
      } else if let match = line.wholeMatch(of: /Test Case '\w+\.(\w+)' (passed|failed) .*/) {
        outcomes[.xcTest, default: [:]][xcTestName(match.1), default: Outcome()].passed =
          match.2 == "passed"
      }
    }
    return outcomes
  }

  /// `testAForgottenReceiveFails` → `aForgottenReceiveFails`.
  static func xcTestName(_ name: Substring) -> String {
    let name = name.dropFirst("test".count)
    return name.prefix(1).lowercased() + name.dropFirst()
  }

  /// The line of `test` marked `// fails here` in the fixture's source for `framework`.
  static func markedLine(of test: String, in framework: Framework) throws -> Int {
    let source = try String(contentsOf: testFile(framework), encoding: .utf8)
    let function =
      framework == .xcTest ? "test" + test.prefix(1).uppercased() + test.dropFirst() : test
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.contains("func \(function)(") }) else {
      throw FixtureError.noSuchTest(function)
    }
    guard let marked = lines[start...].firstIndex(where: { $0.hasSuffix("// fails here") }) else {
      throw FixtureError.noMarkedLine(function)
    }
    return marked + 1
  }

  enum FixtureError: Error {
    case noSuchTest(String)
    case noMarkedLine(String)
  }
}
