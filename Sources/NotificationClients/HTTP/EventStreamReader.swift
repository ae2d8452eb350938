import Foundation
import Loom
import Notifications

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Parses a Server-Sent Events response into notification events as bytes arrive, and tells
/// whoever waits in ``opened()`` whether the server accepted the stream.
///
/// Lines may end in CRLF or LF. An event of an unknown name is reported through the reporter
/// of the context that opened the stream and skipped; a known event whose data does not decode
/// ends the stream with `UserFacingError.invalidData` naming the event, so the change is never
/// silently lost (the feature reconnects and catches up).
final class EventStreamReader: NSObject, URLSessionDataDelegate, Sendable {
  let continuation: AsyncThrowingStream<NotificationEvent, any Error>.Continuation
  private let issueReporter: IssueReporter
  private let parser = LockedState(ServerSentEventParser())
  private let opening = LockedState(Opening.waiting)

  private enum Opening {
    case waiting
    case awaited(CheckedContinuation<Void, any Error>)
    case done(Result<Void, any Error>)
  }

  init(
    continuation: AsyncThrowingStream<NotificationEvent, any Error>.Continuation,
    issueReporter: IssueReporter
  ) {
    self.continuation = continuation
    self.issueReporter = issueReporter
  }

  /// Returns once the response head arrived with a 2xx status; throws otherwise.
  func opened() async throws {
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      let result = opening.withLock { opening -> Result<Void, any Error>? in
        if case .done(let result) = opening { return result }
        opening = .awaited(waiter)
        return nil
      }
      if let result { waiter.resume(with: result) }
    }
  }

  /// Settles ``opened()`` with `result`; only the first call counts.
  func open(_ result: Result<Void, any Error>) {
    let waiter = opening.withLock { opening -> CheckedContinuation<Void, any Error>? in
      switch opening {
      case .done:
        return nil
      case .waiting:
        opening = .done(result)
        return nil
      case .awaited(let waiter):
        opening = .done(result)
        return waiter
      }
    }
    waiter?.resume(with: result)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    do {
      try HTTPAPI.check(status: status)
      open(.success(()))
      completionHandler(.allow)
    } catch {
      open(.failure(error))
      continuation.finish(throwing: error)
      completionHandler(.cancel)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let messages = parser.withLock { parser in Result { try parser.feed(data) } }
    switch messages {
    case .success(let messages):
      for message in messages {
        guard receive(message) else {
          dataTask.cancel()
          return
        }
      }
    case .failure:
      continuation.finish(
        throwing: UserFacingError.invalidData(reason: "an event of the stream is over 8 MiB"))
      dataTask.cancel()
    }
  }

  /// Yields the event `message` carries; returns `false` when the stream has failed.
  func receive(_ message: ServerSentEventMessage) -> Bool {
    do {
      continuation.yield(try EventStreamProblem.decode(message))
    } catch {
      switch error {
      case .unknownEvent(let name):
        issueReporter(
          "Skipped an event of the stream the client does not know: \"\((name ?? "message").prefix(40))\"",
          at: CodeLocation())
      case .undecodable(let reason):
        continuation.finish(throwing: UserFacingError.invalidData(reason: reason))
        return false
      }
    }
    return true
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    open(.failure(UserFacingError.network))
    continuation.finish(throwing: UserFacingError.network)
  }
}
