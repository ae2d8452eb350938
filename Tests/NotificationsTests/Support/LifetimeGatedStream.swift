import Foundation
import Loom

/// What ``Lifetime/settle()`` waits for and feeds besides the store: streams whose elements
/// the test hands over one at a time.
@MainActor
protocol LifetimeGate: AnyObject {
  /// Whether a reader is taking an element, or on its way to ask for the first.
  var isBusy: Bool { get }
  /// Hands the next element to a reader that waits for it; answers whether there was one.
  func deliverNext() async -> Bool
}

/// A stream whose elements the test hands over one at a time, for the lifetime model-based
/// test.
///
/// A task waiting for a stream's next element is woken through the global executor, so when its
/// element arrives, relative to the other jobs on the main actor, depends on the machine. So a
/// reader here is handed an element (``deliver(_:)``) only when the test says, once nothing
/// else can run, and is ``isBusy`` until it has taken it and asked for the next one (or dropped
/// the stream): then everything the element made the store do has been done.
@MainActor
final class GatedStream<Element: Sendable> {
  enum Phase: Equatable {
    /// Handed to the reader, which has not asked for an element yet.
    case opened
    /// The reader waits for the next element.
    case waiting
    /// An element (or the end) was handed to the reader, which has not asked for the next.
    case taking
    /// Ended: nothing more is handed over.
    case closed
  }

  /// Held by the stream the reader reads, only: gone once the reader has dropped it.
  final class Liveness: Sendable {}

  /// The reader's continuation while it waits, and whether its task was cancelled: set from
  /// the task that cancels it.
  private struct Reader {
    var continuation: CheckedContinuation<Element?, any Error>?
    var isCancelled = false
  }

  private(set) var phase = Phase.opened
  /// Whether the reader waits for something else (a call on the clock) before it asks for an
  /// element: not busy meanwhile.
  var isAwaitingElsewhere = false
  private weak var liveness: Liveness?
  private var failure: (any Error)?
  private let reader = LockedState(Reader())

  /// The stream the reader reads, as an `AsyncThrowingStream`.
  func throwingStream() -> AsyncThrowingStream<Element, any Error> {
    let liveness = Liveness()
    self.liveness = liveness
    return AsyncThrowingStream { @MainActor [self] in
      _ = liveness
      return try await next()
    }
  }

  /// The stream the reader reads, as an `AsyncStream`: it ends when the reader is cancelled.
  func stream() -> AsyncStream<Element> {
    let liveness = Liveness()
    self.liveness = liveness
    return AsyncStream { @MainActor [self] in
      _ = liveness
      return try? await next()
    }
  }

  var isWaiting: Bool { phase == .waiting && !isOver }

  /// Ended, or dropped by the reader.
  var isOver: Bool {
    phase == .closed || liveness == nil || reader.withLock { $0.isCancelled }
  }

  var isBusy: Bool {
    guard !isOver else { return false }
    switch phase {
    case .opened: return !isAwaitingElsewhere
    case .taking: return true
    case .waiting, .closed: return false
    }
  }

  /// Whether the stream has failed and its reader has not been told.
  var hasFailed: Bool { failure != nil }

  /// The reader asks for the next element: it waits until ``deliver(_:)`` or
  /// ``deliverFailure()``, even when the stream has failed already, so that the failure reaches
  /// it only when the test says.
  private func next() async throws -> Element? {
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

  func deliver(_ element: Element) {
    guard let continuation = takeContinuation() else { return }
    phase = .taking
    continuation.resume(returning: element)
  }

  /// Ends the stream with `error`, which reaches the reader with ``deliverFailure()``.
  func fail(_ error: any Error) {
    guard phase != .closed else { return }
    failure = error
  }

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

  private func takeContinuation() -> CheckedContinuation<Element?, any Error>? {
    reader.withLock { reader in
      defer { reader.continuation = nil }
      return reader.continuation
    }
  }
}
