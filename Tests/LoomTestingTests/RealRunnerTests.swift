import Foundation
import Testing

/// The test store's failures as the real test runners report them: the fixture package
/// `Tests/Fixtures/TestStoreFixture` uses Loom as an app would, its tests forget things on
/// purpose, and `swift test` runs them in a child process. Only this can show that a failure
/// reaches the test that made it, under Swift Testing and under XCTest.
struct RealRunnerTests {
  static let frameworks = FixtureRun.Framework.allCases

  @Test(arguments: frameworks)
  func aCompleteTestPasses(under framework: FixtureRun.Framework) async throws {
    let run = try await FixtureRun.shared.value
    for test in ["aCompleteTestPasses", "aCompleteTestThatCallsFinishPasses"] {
      let outcome = try #require(run.outcomes[framework]?[test], "\(test)\n\(run.output)")
      #expect(outcome.passed == true, "\(test)")
      #expect(outcome.issues.isEmpty, "\(test): \(outcome.issues)")
    }
  }

  @Test(arguments: frameworks)
  func aForgottenReceiveFailsTheTest(under framework: FixtureRun.Framework) async throws {
    let message = """
      The store received 1 unexpected action by the end of the test:

        • .factLoaded("0 is a good number.") (from an effect of .factTapped at \
      FixtureFeature/Counter.swift:39)
      """
    try await expectFailure(of: "aForgottenReceiveFails", under: framework) { $0 == message }
    try await expectFailure(of: "aForgottenReceiveFailsAtFinish", under: framework) {
      $0 == message
    }
  }

  @Test(arguments: frameworks)
  func anEffectLeftRunningFailsTheTestAtItsSend(under framework: FixtureRun.Framework)
    async throws
  {
    try await expectFailure(of: "anEffectLeftRunningFails", under: framework) {
      $0.hasPrefix("1 effect is still running at the end of the test.")
        && $0.hasSuffix(
          """
          Effects in flight:
            • an effect of .startTimer at FixtureFeature/Counter.swift:45 (waiting on a test clock)
          """)
    }
  }

  @Test(arguments: frameworks)
  func aWrongStateFailsTheTestWithTheDiff(under framework: FixtureRun.Framework) async throws {
    try await expectFailure(of: "aWrongStateFails", under: framework) {
      $0 == """
        A state change does not match expectation after sending .incrementTapped:

          Counter.State(
        −   count: 2
        +   count: 1
            … (2 unchanged)
          )

        (Expected: −, Actual: +)
        """
    }
  }

  @Test func theRunFailsAndRunsEveryTestOfTheFixture() async throws {
    let run = try await FixtureRun.shared.value
    #expect(run.exitStatus != 0)
    let source = try String(contentsOf: FixtureRun.testFile(.swiftTesting), encoding: .utf8)
    let declared = Set(source.matches(of: /@Test func (\w+)\(/).map { String($0.1) })
    for framework in Self.frameworks {
      #expect(Set(run.outcomes[framework]?.keys ?? [:].keys) == declared, "\(framework)")
    }
  }

  /// Expects `test` to have failed once under `framework`, at the line of the fixture marked
  /// `// fails here`, with a message `matches` accepts.
  func expectFailure(
    of test: String, under framework: FixtureRun.Framework,
    message matches: (String) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let run = try await FixtureRun.shared.value
    let outcome = try #require(
      run.outcomes[framework]?[test], "\(test)\n\(run.output)", sourceLocation: sourceLocation)
    #expect(outcome.passed == false, "\(test)", sourceLocation: sourceLocation)
    #expect(outcome.issues.count == 1, "\(test): \(outcome.issues)", sourceLocation: sourceLocation)
    guard let issue = outcome.issues.first else { return }
    let markedLine = try FixtureRun.markedLine(of: test, in: framework)
    #expect(
      issue.file == "ForgottenAssertionTests.swift" && issue.line == markedLine,
      "\(test): \(issue)", sourceLocation: sourceLocation)
    #expect(matches(issue.message), "\(test): \(issue.message)", sourceLocation: sourceLocation)
  }
}
