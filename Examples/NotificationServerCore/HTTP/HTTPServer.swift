import Dispatch
import Foundation
import Loom

/// A small HTTP/1.1 server on POSIX sockets for development and tests: loopback by default,
/// bounded request sizes, bounded connections and concurrency, deadlines for slow clients and
/// slow handlers, JSON error answers to malformed requests, and Server-Sent Event streams.
///
/// One thread owns every socket and waits on all of them with `poll`; no socket call blocks. A
/// connection costs a descriptor and its buffers, not a thread, so a thousand slow or idle
/// clients cannot starve the others: `/health` still answers at once. Handlers run on the
/// server's own worker threads (``Configuration/workerThreads``), at most
/// ``Configuration/maximumConcurrentRequests`` at a time.
///
/// ```swift
/// let server = HTTPServer(port: 0) { request in .text("hello", status: 200) }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
public final class HTTPServer: Sendable {
  /// The server's limits and deadlines (documented in `Docs/HTTP-API.md`).
  public struct Configuration: Sendable {
    /// The longest request line and headers (431 beyond).
    public var maximumHeaderBytes = 16 * 1024
    /// The longest body (413 beyond).
    public var maximumBodyBytes = 1024 * 1024
    /// How long a client has to send a whole request, head and body, counted from when the
    /// server starts waiting for it (on a new or a kept-alive connection): a client that sent
    /// part of one gets 408, an idle connection is closed. It also bounds how long a client may
    /// take to read a response. It does not apply to event streams.
    public var readTimeout: Duration = .seconds(10)
    /// How long a handler may take: past it, the client gets 503 and the handler's task is
    /// cancelled.
    public var responseTimeout: Duration = .seconds(30)
    /// Connections open at once, event streams included; a connection beyond is answered 503
    /// with `Retry-After` and closed (up to as many again, and at least 1,024, waiting for their
    /// answer to be read; beyond those, closed unanswered).
    public var maximumConnections = 1_024
    /// Handlers running at once; a request beyond is answered 503 with `Retry-After`. The
    /// handshake of an event stream (a request with `Accept: text/event-stream`) does not count:
    /// streams have a limit of their own.
    public var maximumConcurrentRequests = 64
    /// Event streams open at once, counted from their handshake; a stream request beyond is
    /// answered 503 with `Retry-After`.
    public var maximumStreams = 512
    /// The threads that run handlers and event streams (a task executor the handlers prefer),
    /// apart from the shared concurrency pool so that a busy process does not delay answers.
    /// They start when needed and end when idle.
    public var workerThreads = 4
    /// How often an event stream gets a comment line (`: heartbeat`), so that clients and
    /// proxies see it alive while no change happens.
    public var heartbeatInterval: Duration = .seconds(15)
    /// After an error answer, how long the server keeps reading (and dropping) what the client
    /// still sends before closing, so that the answer is not lost to a connection reset.
    public var lingerTimeout: Duration = .seconds(2)
    /// The `Retry-After` of a 503 the server sends because it is full, in seconds.
    public var retryAfterSeconds = 1

    public init() {}
  }

  public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

  private let host: String
  private let port: Int
  private let configuration: Configuration
  private let handler: Handler
  private struct State {
    var listener: Int32 = -1
    var mailbox: Mailbox?
    var finished: DispatchSemaphore?
    var isStopped = false
  }
  private let state = LockedState(State())

  public init(
    host: String = "127.0.0.1", port: Int, configuration: Configuration = Configuration(),
    handler: @escaping Handler
  ) {
    self.host = host
    self.port = port
    self.configuration = configuration
    self.handler = handler
  }

  /// Starts listening and returns the port (the chosen one when `port` is 0).
  public func start() throws -> Int {
    let (listener, actualPort) = try Socket.listen(host: host, port: port)
    let mailbox: Mailbox
    do {
      mailbox = try Mailbox()
    } catch {
      Socket.close(listener)
      throw error
    }
    let finished = DispatchSemaphore(value: 0)
    state.withLock {
      $0.listener = listener
      $0.mailbox = mailbox
      $0.finished = finished
    }
    let configuration = configuration
    let handler = handler
    let thread = Thread {
      ServerLoop(
        listener: listener, mailbox: mailbox, configuration: configuration, handler: handler
      ).run()
      finished.signal()
    }
    thread.name = "HTTPServer :\(actualPort)"
    thread.start()
    return actualPort
  }

  /// Stops listening (new connections are refused at once), closes every connection, ends the
  /// event streams and cancels the running handlers; returns when that is done. Idempotent.
  public func stop() {
    let running = state.withLock { state -> (Int32, Mailbox, DispatchSemaphore)? in
      guard !state.isStopped, let mailbox = state.mailbox, let finished = state.finished else {
        state.isStopped = true
        return nil
      }
      state.isStopped = true
      return (state.listener, mailbox, finished)
    }
    guard let (listener, mailbox, finished) = running else { return }
    // The loop closes the listener only after it sees the stop, so the descriptor is still ours.
    Socket.shutdownBoth(listener)
    mailbox.stop()
    _ = finished.wait(timeout: .now() + 5)
  }
}

/// Why the server could not start.
public enum ServerError: Error, Equatable, Sendable {
  case socket(String)
}
