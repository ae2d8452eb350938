import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's one I/O thread: accepts connections, reads requests, writes responses and
/// event streams, all non-blocking over `poll`, and enforces the limits and deadlines of
/// ``HTTPServer/Configuration``.
///
/// Not `Sendable`: it is made on the loop thread and never leaves it. Other threads reach it
/// only through its ``Mailbox``.
final class ServerLoop {
  /// One connection and where it is in its life.
  struct Connection {
    let descriptor: Int32
    var phase: Phase
    /// Bytes read and not yet parsed.
    var input: [UInt8] = []
    /// Bytes to send; `output[..<sent]` are sent.
    var output: [UInt8] = []
    var sent = 0
    /// When the current phase times out; `nil` for none (an event stream).
    var deadline: ContinuousClock.Instant?
    /// The handler or event-stream task, cancelled when the connection closes.
    var task: Task<Void, Never>?
    /// The client closed its side: no further request can come.
    var inputEnded = false
    /// Answered 503 because the server was full; not counted against the connection limit.
    var isRejected = false
    /// The request being handled, or the stream being sent, is an event stream: it counts
    /// against ``HTTPServer/Configuration/maximumStreams``, not the request limit.
    var isStream = false
  }

  enum Phase {
    /// Waiting for (the rest of) a request; times out after `readTimeout`.
    case reading
    /// The handler runs; times out after `responseTimeout`. The socket is not polled.
    case handling(isHead: Bool, keepAlive: Bool)
    /// Sending a response, then `after`.
    case writing(after: After)
    /// An open event stream; a heartbeat is due at the instant.
    case streaming(nextHeartbeat: ContinuousClock.Instant)
    /// An error was sent and the write side shut: dropping what the client still sends until
    /// it closes or `lingerTimeout` passes, so the answer is not lost to a reset.
    case lingering
  }

  enum After {
    case keepAlive, close, linger
  }

  private let listener: Int32
  private let mailbox: Mailbox
  private let configuration: HTTPServer.Configuration
  private let handler: HTTPServer.Handler
  private let workers: WorkerPool
  private var parser = HTTPParser()
  private var connections: [UInt64: Connection] = [:]
  private var nextID: UInt64 = 0
  private var requestsInFlight = 0
  private var streamsOpen = 0
  private var rejected = 0
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  private let clock = ContinuousClock()

  /// Connections answered 503 and lingering at once; beyond, a connection is closed unanswered.
  /// As many as may be open, and at least 1,024: with a cap of 64, 1,100 idle connections
  /// against a limit of 1,024 left the last 12 reset, unanswered.
  var maximumRejected: Int { max(1_024, configuration.maximumConnections) }
  /// Bytes of an event stream waiting for a client that does not read, before it is dropped.
  static let maximumPendingStreamBytes = 1024 * 1024

  init(
    listener: Int32, mailbox: Mailbox, configuration: HTTPServer.Configuration,
    handler: @escaping HTTPServer.Handler
  ) {
    self.listener = listener
    self.mailbox = mailbox
    self.configuration = configuration
    self.handler = handler
    self.workers = WorkerPool(maximumThreads: configuration.workerThreads, name: "HTTPServer worker")
    parser.maximumHeaderBytes = configuration.maximumHeaderBytes
    parser.maximumBodyBytes = configuration.maximumBodyBytes
  }

  /// Serves until the mailbox says stop, then closes everything.
  func run() {
    while !mailbox.isStopped {
      var descriptors = [
        pollfd(fd: mailbox.wakeRead, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
      ]
      var ids: [UInt64] = []
      for (id, connection) in connections {
        let events = Self.events(for: connection)
        guard events != 0 else { continue }
        descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
        ids.append(id)
      }
      let ready = Socket.poll(&descriptors, timeout: pollTimeout())
      guard ready >= 0 || errno == EINTR else { break }
      if descriptors[0].revents != 0 { Socket.drain(mailbox.wakeRead) }
      for message in mailbox.take() { receive(message) }
      if descriptors[1].revents != 0 { acceptPending() }
      for (index, id) in ids.enumerated() where descriptors[index + 2].revents != 0 {
        service(id, revents: descriptors[index + 2].revents)
      }
      expireDeadlines()
    }
    for id in Array(connections.keys) { close(id) }
    Socket.close(listener)
  }

  // MARK: Polling

  static func events(for connection: Connection) -> Int16 {
    switch connection.phase {
    case .reading, .lingering: Int16(POLLIN)
    case .handling: 0
    case .writing: Int16(POLLOUT)
    case .streaming:
      Int16(POLLIN) | (connection.output.count > connection.sent ? Int16(POLLOUT) : 0)
    }
  }

  /// Milliseconds until the next deadline or heartbeat; -1 when none is due.
  func pollTimeout() -> Int32 {
    var next: ContinuousClock.Instant?
    for connection in connections.values {
      var due = connection.deadline
      if case .streaming(let heartbeat) = connection.phase { due = heartbeat }
      if let due, next.map({ due < $0 }) ?? true { next = due }
    }
    guard let next else { return -1 }
    let wait = max(.zero, next - clock.now)
    let milliseconds = wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000
    return Int32(clamping: milliseconds + 1)
  }

  // MARK: Accepting

  private func acceptPending() {
    for _ in 0..<256 {
      guard let descriptor = Socket.accept(listener) else { return }
      nextID += 1
      let id = nextID
      if connections.count - rejected < configuration.maximumConnections {
        connections[id] = Connection(
          descriptor: descriptor, phase: .reading, deadline: clock.now + configuration.readTimeout)
      } else if rejected < maximumRejected {
        rejected += 1
        connections[id] = Connection(descriptor: descriptor, phase: .reading, isRejected: true)
        answerError(
          id,
          .error(
            503, code: "overloaded", message: "Too many connections; retry later",
            headers: ["Retry-After": String(configuration.retryAfterSeconds)]))
      } else {
        Socket.close(descriptor)
      }
    }
  }

  // MARK: Reading and dispatching

  private func service(_ id: UInt64, revents: Int16) {
    guard let connection = connections[id] else { return }
    switch connection.phase {
    case .reading:
      switch Socket.receive(connection.descriptor, into: &chunk) {
      case .bytes(let count):
        connections[id]?.input += chunk[..<count]
        parseInput(id)
      case .end:
        connections[id]?.inputEnded = true
        if connection.input.isEmpty {
          close(id)
        } else {
          answerError(
            id, HTTPParseError.malformed("the connection closed in the middle of a request").response)
        }
      case .wouldBlock: break
      case .failed: close(id)
      }
    case .lingering, .streaming:
      if revents & Int16(POLLOUT) != 0 { flush(id) }
      guard revents & ~Int16(POLLOUT) != 0, connections[id] != nil else { return }
      switch Socket.receive(connection.descriptor, into: &chunk) {
      case .bytes, .wouldBlock: break
      case .end, .failed: close(id)
      }
    case .writing:
      flush(id)
    case .handling:
      break
    }
  }

  /// Parses the buffered input of a reading connection and dispatches a complete request.
  private func parseInput(_ id: UInt64) {
    guard let connection = connections[id], case .reading = connection.phase else { return }
    do {
      guard let (request, used) = try parser.parse(connection.input) else {
        if connection.inputEnded { close(id) }
        return
      }
      connections[id]?.input.removeFirst(used)
      dispatch(id, request)
    } catch {
      answerError(id, error.response)
    }
  }

  private func dispatch(_ id: UInt64, _ request: HTTPRequest) {
    let isStream = request.header("accept")?.lowercased().contains("text/event-stream") ?? false
    if isStream {
      guard streamsOpen < configuration.maximumStreams else {
        answerError(
          id,
          .error(
            503, code: "overloaded", message: "Too many event streams open; retry later",
            headers: ["Retry-After": String(configuration.retryAfterSeconds)]))
        return
      }
      streamsOpen += 1
      connections[id]?.isStream = true
    } else {
      guard requestsInFlight < configuration.maximumConcurrentRequests else {
        answerError(
          id,
          .error(
            503, code: "overloaded", message: "Too many requests in progress; retry later",
            headers: ["Retry-After": String(configuration.retryAfterSeconds)]))
        return
      }
      requestsInFlight += 1
    }
    let keepAlive = request.header("connection")?.lowercased() != "close"
    connections[id]?.phase = .handling(isHead: request.method == "HEAD", keepAlive: keepAlive)
    connections[id]?.deadline = clock.now + configuration.responseTimeout
    let mailbox = mailbox
    let handler = handler
    connections[id]?.task = Task(executorPreference: workers) {
      let response = await handler(request)
      mailbox.post(.respond(id, response))
    }
  }

  // MARK: Messages

  private func receive(_ message: LoopMessage) {
    switch message {
    case .respond(let id, let response):
      guard case .handling(let isHead, let keepAlive) = connections[id]?.phase,
        let connection = connections[id]
      else { return }
      if !connection.isStream { requestsInFlight -= 1 }
      connections[id]?.task = nil
      respond(id, response, isHead: isHead, keepAlive: keepAlive)
    case .streamData(let id, let bytes):
      guard case .streaming = connections[id]?.phase, let connection = connections[id] else { return }
      guard connection.output.count - connection.sent + bytes.count <= Self.maximumPendingStreamBytes
      else { return close(id) }
      connections[id]?.output += bytes
      flush(id)
    case .streamEnded(let id):
      guard case .streaming = connections[id]?.phase else { return }
      connections[id]?.phase = .writing(after: .close)
      connections[id]?.deadline = clock.now + configuration.readTimeout
      flush(id)
    }
  }

  // MARK: Writing

  private func respond(_ id: UInt64, _ response: HTTPResponse, isHead: Bool, keepAlive: Bool) {
    switch response.body {
    case .data(let data):
      // A stream request answered without a stream (refused, say) no longer counts as one.
      if connections[id]?.isStream == true {
        streamsOpen -= 1
        connections[id]?.isStream = false
      }
      connections[id]?.output = Self.head(of: response, length: data.count, keepAlive: keepAlive)
        + (isHead ? [] : Array(data))
      connections[id]?.sent = 0
      connections[id]?.phase = .writing(after: keepAlive ? .keepAlive : .close)
      connections[id]?.deadline = clock.now + configuration.readTimeout
    case .events(let events):
      connections[id]?.output = Self.head(of: response, length: nil, keepAlive: false)
      connections[id]?.sent = 0
      guard !isHead else {
        connections[id]?.phase = .writing(after: .close)
        connections[id]?.deadline = clock.now + configuration.readTimeout
        break
      }
      connections[id]?.phase = .streaming(nextHeartbeat: clock.now + configuration.heartbeatInterval)
      connections[id]?.deadline = nil
      let mailbox = mailbox
      connections[id]?.task = Task(executorPreference: workers) {
        for await event in events {
          mailbox.post(.streamData(id, Array(event.encoded.utf8)))
        }
        mailbox.post(.streamEnded(id))
      }
    }
    flush(id)
  }

  /// Answers an error and closes the connection, lingering so the client gets to read it.
  private func answerError(_ id: UInt64, _ response: HTTPResponse) {
    guard connections[id] != nil else { return }
    connections[id]?.task?.cancel()
    connections[id]?.task = nil
    let data: Data
    if case .data(let body) = response.body { data = body } else { data = Data() }
    connections[id]?.output = Self.head(of: response, length: data.count, keepAlive: false) + Array(data)
    connections[id]?.sent = 0
    connections[id]?.phase = .writing(after: .linger)
    connections[id]?.deadline = clock.now + configuration.readTimeout
    flush(id)
  }

  /// Sends what it can of the pending output; when all is sent, moves on.
  private func flush(_ id: UInt64) {
    guard var connection = connections[id] else { return }
    while connection.sent < connection.output.count {
      switch Socket.send(connection.descriptor, connection.output[connection.sent...]) {
      case .bytes(let count):
        connection.sent += count
      case .wouldBlock:
        connections[id] = connection
        return
      case .end, .failed:
        return close(id)
      }
    }
    connection.output.removeAll(keepingCapacity: true)
    connection.sent = 0
    connections[id] = connection
    guard case .writing(let after) = connection.phase else { return }
    switch after {
    case .keepAlive:
      connections[id]?.phase = .reading
      connections[id]?.deadline = clock.now + configuration.readTimeout
      if connection.inputEnded, connection.input.isEmpty { return close(id) }
      parseInput(id)
    case .close:
      close(id)
    case .linger:
      if connection.inputEnded { return close(id) }
      Socket.shutdownWrite(connection.descriptor)
      connections[id]?.phase = .lingering
      connections[id]?.deadline = clock.now + configuration.lingerTimeout
    }
  }

  static func head(of response: HTTPResponse, length: Int?, keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    if let length { head += "Content-Length: \(length)\r\n" }
    head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    return Array(head.utf8)
  }

  // MARK: Deadlines

  private func expireDeadlines() {
    let now = clock.now
    for (id, connection) in connections {
      if case .streaming(let heartbeat) = connection.phase, heartbeat <= now {
        connections[id]?.phase = .streaming(nextHeartbeat: now + configuration.heartbeatInterval)
        // A client that has not taken the last bytes gets no more.
        if connection.output.count == connection.sent {
          connections[id]?.output = Array(": heartbeat\n\n".utf8)
          connections[id]?.sent = 0
          flush(id)
        }
        continue
      }
      guard let deadline = connection.deadline, deadline <= now else { continue }
      switch connection.phase {
      case .reading where connection.input.isEmpty, .writing, .lingering, .streaming:
        close(id)
      case .reading:
        answerError(id, .error(408, code: "request_timeout", message: "Request timed out"))
      case .handling:
        if !connection.isStream { requestsInFlight -= 1 }
        answerError(
          id,
          .error(
            503, code: "response_timeout",
            message: "The server took too long to answer; retry later",
            headers: ["Retry-After": String(configuration.retryAfterSeconds)]))
      }
    }
  }

  private func close(_ id: UInt64) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    connection.task?.cancel()
    if connection.isStream {
      streamsOpen -= 1
    } else if case .handling = connection.phase {
      requestsInFlight -= 1
    }
    if connection.isRejected { rejected -= 1 }
    Socket.close(connection.descriptor)
  }
}
