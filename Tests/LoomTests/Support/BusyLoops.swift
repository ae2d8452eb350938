import Foundation
import Synchronization

/// `LOOM_TIMING_RUNS`, or 0: how many times the timing stress tests run each scenario. Tests
/// spin threads beside them only when it is set, in a run of their own: spinning threads in a
/// whole `swift test` run (under the thread sanitizer above all) starved every other test.
let timingStressRuns = ProcessInfo.processInfo.environment["LOOM_TIMING_RUNS"].flatMap(Int.init) ?? 0

/// Threads that spin until stopped, keeping the CPUs busy so a test runs the way it does on a
/// loaded machine. Plain threads, not tasks: they must not take the threads of Swift's
/// cooperative pool, which the code under test needs.
final class BusyLoops: Sendable {
  private let isStopped = Atomic<Bool>(false)
  private let running = Atomic<Int>(0)

  init(count: Int) {
    for _ in 0..<count {
      running.add(1, ordering: .relaxed)
      let thread = Thread { [self] in
        var spins: UInt64 = 0
        while !isStopped.load(ordering: .relaxed) { spins &+= 1 }
        running.subtract(1, ordering: .releasing)
      }
      thread.start()
    }
  }

  /// Stops the threads and waits until they have ended.
  func stop() {
    isStopped.store(true, ordering: .relaxed)
    while running.load(ordering: .acquiring) > 0 { sched_yield() }
  }
}
