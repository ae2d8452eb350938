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
/// the streams the feature opens here are the test's (``LiveStream``): each is sent the
/// backend's changes (read from its log) one at a time, by ``deliverNextEvent()``, which the
/// test calls only once nothing else can run; and until the feature has taken the change and
/// asked for the next one, the network is ``isBusy``.
@MainActor
final class LifetimeNetwork {
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
  /// Calls inside the backend right now.
  private(set) var callsInBackend = 0
  /// The live streams the feature opened, oldest first, until they end.
  private var streams: [LiveStream] = []
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
        try await self.call { try await backend.fetchPage(request) }
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
      })
  }

  private func call<Value: Sendable>(
    touching touch: Touch = .nothing, _ body: () async throws -> Value
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
    defer { callsInBackend -= 1 }
    return try await body()
  }

  /// Forgets the calls of a launch that was killed: they never answer.
  func forgetCallsInFlight() {
    changesInFlight = [:]
    for stream in streams { stream.close() }
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
    let stream = LiveStream(cursor: cursor)
    // A task opens one stream at a time: one opened before by the feature is over.
    for open in streams { open.close() }
    streams = [stream]
    let task = Self.currentTask
    streamOpened = [task: stream]
    let liveness = LiveStream.Liveness()
    stream.liveness = liveness
    return AsyncThrowingStream { @MainActor in
      _ = liveness
      return try await stream.next()
    }
  }

  /// Runs the catch-up call of a stream opened by this task: meanwhile the stream's reader is
  /// on the clock, not busy.
  private func catchUp<Value>(_ body: () async throws -> Value) async throws -> Value {
    guard let stream = streamOpened[Self.currentTask], stream.phase == .opened else {
      return try await body()
    }
    stream.isCatchingUp = true
    defer { stream.isCatchingUp = false }
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
    streams.contains(where: \.isBusy)
  }

  /// Sends the next change the backend has made (or the failure of a dropped connection) to a
  /// stream whose reader waits for it, and answers whether there was one. Call it only when nothing else can run (see
  /// `Lifetime.settle()`).
  func deliverNextEvent() async -> Bool {
    streams.removeAll { $0.isOver }
    for stream in streams where stream.isWaiting {
      if stream.hasFailed {
        stream.deliverFailure()
        return true
      }
      let events = await withoutFaults { try? await backend.client.changesSince(stream.cursor) }
      guard let event = events?.first else { continue }
      stream.deliver(event)
      return true
    }
    return false
  }

  /// Ends every open live stream with `error`, as a dropped connection does.
  func dropStreams(with error: UserFacingError) {
    for stream in streams { stream.fail(error) }
  }
}

/// A live stream the feature opened through ``LifetimeNetwork``, sent the backend's changes one
/// at a time.
@MainActor
final class LiveStream {
  enum Phase: Equatable {
    /// Handed to the feature, which has not asked for an element yet.
    case opened
    /// The reader waits for the next element.
    case waiting
    /// An element (or the end) was handed to the reader, which has not asked for the next.
    case taking
    /// Ended: nothing more is sent.
    case closed
  }

  /// Held by the stream the feature reads, only: gone once the feature has dropped it.
  final class Liveness: Sendable {}

  /// The reader's continuation while it waits, and whether its task was cancelled: set from
  /// the task that cancels it.
  private struct Reader {
    var continuation: CheckedContinuation<NotificationEvent?, any Error>?
    var isCancelled = false
  }

  private(set) var phase = Phase.opened
  /// The cursor of the last change sent.
  private(set) var cursor: ChangeCursor
  /// Whether the reader is in the catch-up call (on the clock).
  var isCatchingUp = false
  weak var liveness: Liveness?
  private var failure: UserFacingError?
  private let reader = LockedState(Reader())

  init(cursor: ChangeCursor) {
    self.cursor = cursor
  }

  var isWaiting: Bool { phase == .waiting && !isOver }

  /// Ended, or dropped by the feature.
  var isOver: Bool {
    phase == .closed || liveness == nil || reader.withLock { $0.isCancelled }
  }

  var isBusy: Bool {
    guard !isOver else { return false }
    switch phase {
    case .opened: return !isCatchingUp
    case .taking: return true
    case .waiting, .closed: return false
    }
  }

  /// The reader asks for the next element: it waits until ``deliver(_:)`` or
  /// ``deliverFailure()``, even when the stream has failed already, so that the failure reaches
  /// it only when the test says.
  func next() async throws -> NotificationEvent? {
    guard phase != .closed else { return nil }
    phase = .waiting
    let reader = reader
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = reader.withLock { reader in
          if reader.isCancelled { return true }
          reader.continuation = continuation
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let continuation = reader.withLock { reader in
        reader.isCancelled = true
        defer { reader.continuation = nil }
        return reader.continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  func deliver(_ event: NotificationEvent) {
    guard let continuation = takeContinuation() else { return }
    if let eventCursor = event.cursor { cursor = eventCursor }
    phase = .taking
    continuation.resume(returning: event)
  }

  /// Ends the stream with `error`, which reaches the reader with ``deliverFailure()``.
  func fail(_ error: UserFacingError) {
    guard phase != .closed else { return }
    failure = error
  }

  /// Whether the stream has failed and its reader has not been told.
  var hasFailed: Bool { failure != nil }

  /// Tells the waiting reader the stream failed.
  func deliverFailure() {
    guard let failure, let continuation = takeContinuation() else { return }
    self.failure = nil
    phase = .taking
    continuation.resume(throwing: failure)
  }

  /// Ends the stream: its reader's task was cancelled (a reader still waiting is told so).
  func close() {
    phase = .closed
    takeContinuation()?.resume(throwing: CancellationError())
  }

  private func takeContinuation() -> CheckedContinuation<NotificationEvent?, any Error>? {
    reader.withLock { reader in
      defer { reader.continuation = nil }
      return reader.continuation
    }
  }
}
