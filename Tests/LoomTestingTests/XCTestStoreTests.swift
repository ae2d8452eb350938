#if canImport(XCTest)
  import Loom
  import LoomTesting
  import XCTest

  /// The test store under XCTest: the same assertions, and failures routed to `XCTFail`.
  final class XCTestStoreTests: XCTestCase {
    @MainActor
    func testSendAndReceiveUnderXCTest() async {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.numberFact.fetch = { "\($0) is zero." }
      }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.factTapped)
      await store.receive(.factLoaded("1 is zero.")) { $0.fact = "1 is zero." }
    }

    /// Collects the failure: the message is what it checks.
    @MainActor
    func testFailuresCarryTheirMessageAndCallSiteUnderXCTest() async {
      let log = FailureLog()
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.failureReporter = log.reporter
      await store.send(.increment) { $0.count = 2 }
      XCTAssertEqual(log.messages.count, 1)
      XCTAssertTrue(log.messages[0].hasPrefix("A state change does not match expectation"))
    }
  }
#endif
