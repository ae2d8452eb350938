import Dispatch
import Foundation
import Loom

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on POSIX sockets for development and tests: loopback by default,
/// bounded request sizes, a read timeout for slow clients, clear 4xx answers to malformed
/// requests, and Server-Sent Event streams.
///
/// Blocking socket I/O runs on dedicated threads, never on the Swift concurrency pool, so
/// long-lived event streams do not starve other requests.
///
/// ```swift
/// let server = HTTPServer(port: 0) { request in .text("hello", status: 200) }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
public final class HTTPServer: Sendable {
  public struct Configuration: Sendable {
    public var maximumHeaderBytes = 16 * 1024
    public var maximumBodyBytes = 1024 * 1024
    /// How long a connection may stay silent while a request is being read.
    public var readTimeout: Duration = .seconds(10)

    public init() {}
  }

  public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

  private let host: String
  private let port: Int
  private let configuration: Configuration
  private let handler: Handler
  private struct State {
    var listener: Int32 = -1
    var connections: Set<Int32> = []
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
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw ServerError.socket(String(cString: strerror(errno))) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(descriptor)
      throw ServerError.socket("invalid host \(host)")
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 64) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw ServerError.socket(reason)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    state.withLock { $0.listener = descriptor }
    let thread = Thread { [self] in acceptLoop(descriptor) }
    thread.start()
    return Int(UInt16(bigEndian: actual.sin_port))
  }

  /// Stops listening and closes every connection. Idempotent.
  public func stop() {
    let (listener, connections) = state.withLock { state -> (Int32, Set<Int32>) in
      guard !state.isStopped else { return (-1, []) }
      state.isStopped = true
      defer { state.connections = [] }
      return (state.listener, state.connections)
    }
    if listener >= 0 {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
    for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
  }

  private var isStopped: Bool { state.withLock { $0.isStopped } }

  private func acceptLoop(_ listener: Int32) {
    while !isStopped {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        if isStopped { return }
        continue
      }
      let accepted = state.withLock { state -> Bool in
        guard !state.isStopped else { return false }
        state.connections.insert(connection)
        return true
      }
      guard accepted else {
        close(connection)
        return
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer {
      _ = state.withLock { $0.connections.remove(connection) }
      close(connection)
    }
    #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let seconds = configuration.readTimeout.components.seconds
    let micros = configuration.readTimeout.components.attoseconds / 1_000_000_000_000
    var timeout = timeval(tv_sec: Int(seconds), tv_usec: .init(micros))
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var parser = HTTPParser()
    parser.maximumHeaderBytes = configuration.maximumHeaderBytes
    parser.maximumBodyBytes = configuration.maximumBodyBytes
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 8_192)
    while !isStopped {
      let request: HTTPRequest
      do {
        if let (parsed, used) = try parser.parse(buffer) {
          request = parsed
          buffer.removeFirst(used)
        } else {
          let count = recv(connection, &chunk, chunk.count, 0)
          if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            continue
          }
          if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, !buffer.isEmpty {
            _ = write(.text("Request timed out", status: 408), to: connection, keepAlive: false)
          }
          return
        }
      } catch {
        _ = write(.text(error.message, status: error.status), to: connection, keepAlive: false)
        return
      }
      let response = Self.runBlocking { [handler] in await handler(request) }
      let keepAlive = request.header("connection")?.lowercased() != "close"
      guard write(response, to: connection, keepAlive: keepAlive), keepAlive else { return }
    }
  }

  /// Writes a response; returns whether the connection can be used again.
  private func write(_ response: HTTPResponse, to connection: Int32, keepAlive: Bool) -> Bool {
    var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    switch response.body {
    case .data(let data):
      head += "Content-Length: \(data.count)\r\n"
      head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
      return send(Data(head.utf8) + data, on: connection)
    case .events(let events):
      head += "Connection: close\r\n\r\n"
      guard send(Data(head.utf8), on: connection) else { return false }
      let done = DispatchSemaphore(value: 0)
      let task = Task {
        for await event in events {
          guard self.send(Data(event.encoded.utf8), on: connection) else { break }
        }
        done.signal()
      }
      // Wait for the stream to end, or for the client to go away (a recv of 0 or an error).
      let watcher = Thread {
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
        task.cancel()
      }
      watcher.start()
      done.wait()
      return false
    }
  }

  private func send(_ data: Data, on connection: Int32) -> Bool {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    return data.withUnsafeBytes { raw -> Bool in
      guard var pointer = raw.baseAddress else { return true }
      var remaining = raw.count
      while remaining > 0 {
        let sent = Glibc_send(connection, pointer, remaining, flags)
        guard sent > 0 else { return false }
        pointer = pointer.advanced(by: sent)
        remaining -= sent
      }
      return true
    }
  }

  /// Runs the async handler from a connection's thread and waits for its response.
  static func runBlocking(_ work: @escaping @Sendable () async -> HTTPResponse) -> HTTPResponse {
    let box = LockedState<HTTPResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let value = await work()
      box.withLock { $0 = value }
      done.signal()
    }
    done.wait()
    return box.withLock { $0 } ?? .text("Internal error", status: 500)
  }
}

/// Why the server could not start.
public enum ServerError: Error, Equatable, Sendable {
  case socket(String)
}

#if canImport(Glibc)
  private func Glibc_send(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    Glibc.send(fd, buffer, count, flags)
  }
#else
  private func Glibc_send(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    Darwin.send(fd, buffer, count, flags)
  }
#endif
