import Foundation
import Loom
import LoomTesting

/// W6: one exhaustive test of 2,000 steps, each a send of `.start` and a receive of `.done`.
@MainActor
func runW6(scale: Int) async {
  let steps = 2_000 / scale
  let duration = await median {
    let store = TestStore(initialState: RoundTripFeature.State()) { RoundTripFeature() }
    // A benchmark is not a test: a failure (which would mean the workload is wrong) is printed.
    store.failureReporter = .collecting { failure in
      FileHandle.standardError.write(Data("W6 failure: \(failure)\n".utf8))
    }
    for step in 1...steps {
      await store.send(.start)
      await store.receive(.done) { $0.done = step }
    }
  }
  report("W6", "teststore steps=\(steps)", duration.nanoseconds / 1e6, "ms total")
  report("W6", "teststore", duration.nanoseconds / Double(steps) / 1_000, "µs/step")
}
