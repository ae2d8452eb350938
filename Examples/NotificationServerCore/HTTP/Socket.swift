import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX socket calls the server makes, each named for what it does and none of them
/// blocking once ``makeNonBlocking(_:)`` ran on the descriptor.
enum Socket {
  /// The result of one non-blocking read or write.
  enum Transfer: Equatable {
    /// This many bytes moved.
    case bytes(Int)
    /// Nothing now: try again when `poll` says so.
    case wouldBlock
    /// The peer closed its side (a read of 0 bytes).
    case end
    /// The connection failed (reset, broken pipe…).
    case failed
  }

  /// A TCP socket listening on `host:port` (port 0 picks one); returns it and the port.
  static func listen(host: String, port: Int) throws(ServerError) -> (Int32, Int) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw .socket(String(cString: strerror(errno))) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(descriptor)
      throw .socket("invalid host \(host)")
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, systemListen(descriptor, SOMAXCONN) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw .socket(reason)
    }
    makeNonBlocking(descriptor)
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
  }

  /// A pipe whose write end wakes a `poll` on its read end; both ends non-blocking.
  static func wakePipe() throws(ServerError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw .socket(String(cString: strerror(errno))) }
    makeNonBlocking(ends[0])
    makeNonBlocking(ends[1])
    return (ends[0], ends[1])
  }

  /// The next pending connection, non-blocking; `nil` when none is waiting.
  static func accept(_ listener: Int32) -> Int32? {
    while true {
      let connection = systemAccept(listener, nil, nil)
      if connection >= 0 {
        makeNonBlocking(connection)
        #if canImport(Darwin)
          var yes: Int32 = 1
          setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
      }
      if errno == EINTR || errno == ECONNABORTED { continue }
      return nil
    }
  }

  static func makeNonBlocking(_ descriptor: Int32) {
    let flags = fcntl(descriptor, F_GETFL, 0)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
  }

  static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) -> Transfer {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 { return .bytes(count) }
      if count == 0 { return .end }
      if errno == EINTR { continue }
      return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
    }
  }

  static func send(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Transfer {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    while true {
      let count = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) }
      if count >= 0 { return .bytes(count) }
      if errno == EINTR { continue }
      return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
    }
  }

  /// Writes one byte to wake the poller; a full pipe already will.
  static func wake(_ descriptor: Int32) {
    var byte: UInt8 = 1
    _ = write(descriptor, &byte, 1)
  }

  /// Reads whatever the wake pipe holds.
  static func drain(_ descriptor: Int32) {
    var bytes = [UInt8](repeating: 0, count: 256)
    while read(descriptor, &bytes, bytes.count) > 0 {}
  }

  static func shutdownWrite(_ descriptor: Int32) { shutdown(descriptor, Int32(SHUT_WR)) }

  static func shutdownBoth(_ descriptor: Int32) { shutdown(descriptor, Int32(SHUT_RDWR)) }

  static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }

  /// Waits for events on `descriptors` for at most `timeout` milliseconds (-1: no limit).
  static func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout)
    #else
      Darwin.poll(&descriptors, nfds_t(descriptors.count), timeout)
    #endif
  }
}

#if canImport(Glibc)
  private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Glibc.send(fd, buffer, count, flags)
  }
  private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
  private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    Glibc.accept(fd, address, length)
  }
#else
  private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Darwin.send(fd, buffer, count, flags)
  }
  private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
  private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    Darwin.accept(fd, address, length)
  }
#endif
