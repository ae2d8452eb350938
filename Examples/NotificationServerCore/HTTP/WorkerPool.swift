import Dispatch
import Foundation
import Loom

/// The threads that run the server's handlers: a task executor the handler tasks prefer, so
/// handlers (and the non-isolated async code they call) run on these threads rather than the
/// shared concurrency pool, and the server answers even while the rest of the process keeps
/// that pool busy.
///
/// At most `maximumThreads` threads, started when work arrives and none is idle; a thread idle
/// for `idleTimeout` ends, so a stopped server leaves none behind, and a job that arrives
/// later (a cancelled handler finishing) starts one again: no job is ever dropped.
final class WorkerPool: TaskExecutor {
  private let maximumThreads: Int
  private let idleTimeout: DispatchTimeInterval
  private let name: String
  /// Signalled once per job enqueued.
  private let available = DispatchSemaphore(value: 0)
  private let state = LockedState(State())

  private struct State {
    var jobs: [UnownedJob] = []
    var head = 0
    var threads = 0
    var idle = 0

    mutating func next() -> UnownedJob? {
      guard head < jobs.count else { return nil }
      defer {
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
      }
      return jobs[head]
    }
  }

  init(maximumThreads: Int, name: String, idleTimeout: DispatchTimeInterval = .seconds(1)) {
    self.maximumThreads = max(1, maximumThreads)
    self.name = name
    self.idleTimeout = idleTimeout
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let start = state.withLock { state -> Bool in
      state.jobs.append(job)
      guard state.idle == 0, state.threads < maximumThreads else { return false }
      state.threads += 1
      return true
    }
    available.signal()
    if start {
      let thread = Thread { [self] in work() }
      thread.name = name
      thread.start()
    }
  }

  private func work() {
    while true {
      state.withLock { $0.idle += 1 }
      let signalled = available.wait(timeout: .now() + idleTimeout) == .success
      let job = state.withLock { state -> UnownedJob?? in
        state.idle -= 1
        if let job = state.next() { return .some(job) }
        guard signalled else {
          // Idle for a while and nothing queued: this thread ends. A job enqueued after this
          // sees one thread fewer and starts another.
          state.threads -= 1
          return .none
        }
        return .some(nil)
      }
      switch job {
      case .none: return
      case .some(nil): continue
      case .some(let job?): job.runSynchronously(on: asUnownedTaskExecutor())
      }
    }
  }
}
