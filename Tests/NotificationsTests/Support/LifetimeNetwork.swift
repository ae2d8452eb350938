import Foundation
import Loom
import NotificationClients
import Notifications

/// The network between the feature and an in-memory backend, for the lifetime model-based test.
///
/// Every call first waits a random time on a test clock, so calls in flight together reach the
/// backend, and answer, in an order the seed decides; while ``isSlow`` the wait is seconds
/// (injected latency). The backend's own fault injection decides which calls fail. The test
/// asks which changes are still on their way (``idsInFlight``) and whether a call is inside the
/// backend right now (``callsInBackend``).
///
/// Every call runs on the main actor: the endpoints are `@MainActor`, and the backend's client
/// runs on its caller's executor once the clients' endpoints are `nonisolated(nonsending)`
/// (until then each call goes to the global executor and back, when the machine lets it), so
/// the order in which calls reach the backend is the seed's alone.
///
/// The live stream is the one part that cannot run in the seed's order by itself: a task
/// waiting for a stream's next element is woken through the global executor, so when its
/// element arrives, relative to the other jobs on the main actor, depends on the machine. So
/// the streams the feature opens here are the test's (``GatedStream``): each is sent the
/// backend's changes (read from its log) one at a time, by ``deliverNext()``, which the test
/// calls only once nothing else can run; and until the feature has taken the change and asked
/// for the next one, the network is ``isBusy``.
@MainActor
final class LifetimeNetwork: LifetimeGate {
  typealias LiveStream = GatedStream<NotificationEvent>

  /// What a change in flight touches.
  enum Touch {
    case nothing
    case ids([String])
    case everything
  }

  let backend: InMemoryNotificationBackend
  let clock: TestClock
  /// Whether calls take seconds rather than milliseconds.
  var isSlow = false
  private var random: SeededRandomNumberGenerator
  private var nextCall = 0
  private var changesInFlight: [Int: Touch] = [:]
  /// How long the next page fetches wait after the backend read their page, in milliseconds.
  private var pageAnswerDelays: [Int] = []
  /// Called when a page delayed by ``delayNextPageAnswers(_:)`` is answered, before the feature
  /// has it.
  var onLatePageAnswer: (() -> Void)?
  /// Calls inside the backend right now.
  private(set) var callsInBackend = 0
  /// The live streams the feature opened, oldest first, until they end, each with the cursor
  /// of the last change sent.
  private var streams: [(stream: LiveStream, cursor: ChangeCursor)] = []
  /// The stream each task opened (by the task's hash), so that its catch-up call is known.
  private var streamOpened: [Int: LiveStream] = [:]

  init(backend: InMemoryNotificationBackend, clock: TestClock, seed: UInt64) {
    self.backend = backend
    self.clock = clock
    self.random = SeededRandomNumberGenerator(seed: seed &+ 0x9E37_79B9)
  }

  /// The ids the changes in flight (waiting on the clock) touch; `nil` when one of them touches
  /// every notification.
  var idsInFlight: Set<String>? {
    var ids: Set<String> = []
    for touch in changesInFlight.values {
      switch touch {
      case .nothing: break
      case .ids(let touched): ids.formUnion(touched)
      case .everything: return nil
      }
    }
    return ids
  }

  /// The client the feature uses.
  var client: NotificationClient {
    let backend = backend.client
    return NotificationClient(
      fetchPage: { @MainActor request in
        let answerDelay = self.pageAnswerDelays.isEmpty ? 0 : self.pageAnswerDelays.removeFirst()
        return try await self.call(answeringAfter: answerDelay) {
          try await backend.fetchPage(request)
        }
      },
      updates: { @MainActor since in
        try await self.call { try await self.openStream(since: since) }
      },
      changesSince: { @MainActor cursor in
        try await self.catchUp { try await self.call { try await backend.changesSince(cursor) } }
      },
      apply: { @MainActor request in
        let touch: Touch =
          switch request.intent {
          case .markAllAsRead(nil), .deleteAll: .everything
          default: .ids(request.intent.ids)
          }
        return try await self.call(touching: touch) { try await backend.apply(request) }
      },
      fetchNotification: { @MainActor id in
        try await self.call { try await backend.fetchNotification(id) }
      },
      fetchUnread: { @MainActor entity in
        try await self.call { try await backend.fetchUnread(entity) }
      })
  }

  /// Runs a call: waits a random time on the clock, calls the backend with `body`, then waits
  /// `answerDelay` milliseconds before answering.
  private func call<Value: Sendable>(
    touching touch: Touch = .nothing, answeringAfter answerDelay: Int = 0,
    _ body: () async throws -> Value
  ) async throws -> Value {
    nextCall += 1
    let id = nextCall
    changesInFlight[id] = touch
    defer { changesInFlight[id] = nil }
    let delay =
      isSlow
      ? Int.random(in: 2_000...8_000, using: &random) : Int.random(in: 0...400, using: &random)
    try await clock.sleep(for: .milliseconds(delay))
    callsInBackend += 1
    let answer: Result<Value, any Error>
    do { answer = .success(try await body()) } catch { answer = .failure(error) }
    callsInBackend -= 1
    if answerDelay > 0 {
      try await clock.sleep(for: .milliseconds(answerDelay))
      onLatePageAnswer?()
    }
    return try answer.get()
  }

  /// Makes the next page fetches, one delay each, wait that many milliseconds after the
  /// backend has read their page, so that pages asked for one after the other can be answered
  /// in the other order.
  func delayNextPageAnswers(_ delays: [Int]) {
    pageAnswerDelays = delays
  }

  /// Forgets the calls of a launch that was killed: they never answer.
  func forgetCallsInFlight() {
    changesInFlight = [:]
    for (stream, _) in streams { stream.close() }
    streams = []
    streamOpened = [:]
  }

  // MARK: Live streams

  /// Opens a live stream from `since` (from now when `nil`), as the backend's `updates` does: a
  /// call the backend's faults apply to, whose stream replays the changes after `since`.
  private func openStream(
    since: ChangeCursor?
  ) async throws -> AsyncThrowingStream<NotificationEvent, any Error> {
    // The backend's own stream is ended at once: its changes reach the feature through this one.
    _ = try await backend.client.updates(since)
    var cursor = since ?? .zero
    if since == nil, let newest = await newestChange() { cursor = newest }
    let stream = LiveStream()
    // A task opens one stream at a time: one opened before by the feature is over.
    for (open, _) in streams { open.close() }
    streams = [(stream, cursor)]
    streamOpened = [Self.currentTask: stream]
    return stream.throwingStream()
  }

  /// Runs the catch-up call of a stream opened by this task: meanwhile the stream's reader is
  /// on the clock, not busy.
  private func catchUp<Value>(_ body: () async throws -> Value) async throws -> Value {
    guard let stream = streamOpened[Self.currentTask], stream.phase == .opened else {
      return try await body()
    }
    stream.isAwaitingElsewhere = true
    defer { stream.isAwaitingElsewhere = false }
    return try await body()
  }

  /// A number that tells the current task from the other tasks alive.
  private static var currentTask: Int {
    withUnsafeCurrentTask { $0?.hashValue ?? 0 }
  }

  /// The cursor of the backend's newest change, read with its faults off.
  private func newestChange() async -> ChangeCursor? {
    let events = await withoutFaults { try? await backend.client.changesSince(.zero) }
    return events?.last?.cursor
  }

  /// Runs `body` with the backend's faults off, then puts them back.
  func withoutFaults<Value>(_ body: () async -> Value) async -> Value {
    let saved = LockedState(InMemoryNotificationBackend.Faults())
    backend.updateFaults { faults in
      saved.withLock { $0 = faults }
      faults = .init()
    }
    let value = await body()
    let restored = saved.withLock { $0 }
    backend.updateFaults { $0 = restored }
    return value
  }

  /// Whether a live stream's reader is taking a change, or on its way to ask for the first: the
  /// test must wait for it before it decides nothing more can happen.
  var isBusy: Bool {
    streams.contains { $0.stream.isBusy }
  }

  /// Sends the next change the backend has made (or the failure of a dropped connection) to a
  /// stream whose reader waits for it, and answers whether there was one. Call it only when nothing else can run (see
  /// `Lifetime.settle()`).
  func deliverNext() async -> Bool {
    streams.removeAll { $0.stream.isOver }
    for (index, (stream, cursor)) in streams.enumerated() where stream.isWaiting {
      if stream.hasFailed {
        stream.deliverFailure()
        return true
      }
      let events = await withoutFaults { try? await backend.client.changesSince(cursor) }
      guard let event = events?.first else { continue }
      if let eventCursor = event.cursor { streams[index].cursor = eventCursor }
      stream.deliver(event)
      return true
    }
    return false
  }

  /// Ends every open live stream with `error`, as a dropped connection does.
  func dropStreams(with error: UserFacingError) {
    for (stream, _) in streams { stream.fail(error) }
  }
}
