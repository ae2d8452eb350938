import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// The live streams of the backends this process keeps (the local inbox, the in-memory
/// backend), with their readers coming and going while changes are made on other threads.
struct LiveStreamTests {
  /// A backend with a live stream, and a way to change it from any thread.
  enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case localInbox, inMemory

    var testDescription: String { rawValue }

    /// A new, empty backend: its client and a change that inserts the notification `id`.
    func make(in folder: TemporaryFolder) -> (NotificationClient, @Sendable (String) -> Void) {
      switch self {
      case .localInbox:
        let inbox = LocalInbox(url: folder.url.appendingPathComponent("inbox.sqlite"))
        return (inbox.notificationClient, { id in try? inbox.insert([sample(id)]) })
      case .inMemory:
        let backend = InMemoryNotificationBackend()
        return (backend.client, { id in backend.insert(sample(id)) })
      }
    }
  }

  /// A reader cancelled while a change is being sent to it: the stream's termination and the
  /// sending once each waited for the other (a change was sent while holding the lock that
  /// removing the listener takes, and cancelling holds the reader's task while it removes it),
  /// and both threads hung for good; `notifications demo` hung this way now and then.
  ///
  /// Only the inserting and the cancelling are timed: they run on plain threads, so a hang
  /// between them is the hang this test is about. The reader subscribes on Swift's concurrency
  /// pool, which at the start of a parallel run on two cores is busy for tens of seconds with
  /// other tests' work: waiting for it is bounded generously and reported as its own failure.
  @Test(arguments: Backend.allCases)
  func aReaderCancelledWhileChangesAreSentDoesNotHang(_ backend: Backend) async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let (client, insert) = backend.make(in: folder)
    let rounds = 100
    // Plain threads change and cancel: a hang must not take the threads of the tasks.
    let outcome = await withCheckedContinuation { (finished: CheckedContinuation<String?, Never>) in
      Thread {
        for round in 0..<rounds {
          let subscribed = DispatchSemaphore(value: 0)
          let reader = Task {
            let stream = try await client.updates(nil)
            subscribed.signal()
            for try await _ in stream {}
          }
          guard subscribed.wait(timeout: .now() + 600) == .success else {
            return finished.resume(returning: "round \(round): the reader did not subscribe in 600 s")
          }
          let inserted = DispatchSemaphore(value: 0)
          Thread {
            for index in 0..<10 { insert("r\(round)-\(index)") }
            inserted.signal()
          }.start()
          // Cancelled in the middle of the changes, on a thread of its own.
          Thread.sleep(forTimeInterval: Double.random(in: 0..<0.000_5))
          reader.cancel()
          guard inserted.wait(timeout: .now() + 30) == .success else {
            return finished.resume(returning: "hung in round \(round) of \(rounds)")
          }
        }
        finished.resume(returning: nil)
      }.start()
    }
    #expect(outcome == nil)
  }

  /// Changes made at once on several threads reach a reader each once, in the order of their
  /// cursors: one sent out of order was later skipped as already sent.
  @Test(arguments: Backend.allCases)
  func changesMadeAtOnceOnSeveralThreadsAreEachSentOnceInOrder(_ backend: Backend) async throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let (client, insert) = backend.make(in: folder)
    let threads = 4
    let perThread = 100
    let stream = try await client.updates(nil)
    let inserted = DispatchGroup()
    for thread in 0..<threads {
      inserted.enter()
      Thread {
        for index in 0..<perThread { insert("t\(thread)-\(index)") }
        inserted.leave()
      }.start()
    }
    let received = LockedState<[Int]>([])
    let reader = Task {
      for try await event in stream { received.withLock { $0.append(event.cursor.map { Int($0.position) } ?? -1) } }
    }
    defer { reader.cancel() }
    // A lost change never arrives: wait for all of them, for a bounded time (generous: the
    // reader runs on the concurrency pool, busy with other tests at the start of a run).
    for _ in 0..<12_000 where received.withLock({ $0.count }) < threads * perThread {
      try await Task.sleep(for: .milliseconds(10))
    }
    let cursors = received.withLock { $0 }
    let lost = Set(1...(threads * perThread)).subtracting(cursors).sorted()
    #expect(lost.isEmpty, "lost the changes \(lost.prefix(10))")
    let outOfOrder = zip(cursors, cursors.dropFirst()).filter { $0 >= $1 }
    #expect(outOfOrder.isEmpty, "sent out of order: \(outOfOrder.prefix(10))")
    // Waited for without blocking a thread of the pool.
    await withCheckedContinuation { done in inserted.notify(queue: .global()) { done.resume() } }
  }
}

private func sample(_ id: String) -> NotificationData {
  NotificationData(
    id: id, type: .system, title: "T", message: "M", timestamp: Date(timeIntervalSince1970: 1_700_000_000))
}
