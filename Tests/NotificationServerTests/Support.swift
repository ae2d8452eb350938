import Foundation
import NotificationClients
import NotificationFeature
import NotificationServerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A development server on an ephemeral loopback port with a fresh inbox, stopped by `stop()`.
struct TestServer {
  let folder: URL
  let inbox: LocalInbox
  let api: NotificationAPI
  let server: HTTPServer
  let port: Int

  init(token: String? = "secret", notifications: [NotificationData] = [], readTimeout: Duration = .seconds(5)) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("loom-server-\(UUID().uuidString)")
    inbox = LocalInbox(url: folder.appendingPathComponent("inbox.json"), pollInterval: .milliseconds(50))
    if !notifications.isEmpty { try inbox.insert(notifications) }
    api = NotificationAPI(inbox: inbox, token: token, randomSeed: 1)
    var configuration = HTTPServer.Configuration()
    configuration.readTimeout = readTimeout
    server = HTTPServer(port: 0, configuration: configuration, handler: api.handle)
    port = try server.start()
  }

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

  func stop() {
    server.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// Sends raw bytes on a new connection and returns everything the server answers until it
  /// closes the connection (or 15 seconds pass). The blocking socket work runs on its own
  /// thread, never on the concurrency pool the server's handlers need.
  func raw(_ bytes: [UInt8]) async -> String {
    await Self.raw(bytes, port: port)
  }

  /// ``raw(_:)`` for a server that is not a `TestServer`.
  static func raw(_ bytes: [UInt8], port: Int) async -> String {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: Self.rawBlocking(bytes, port: port)) }
      thread.start()
    }
  }

  func raw(_ text: String) async -> String { await raw(Array(text.utf8)) }

  static func rawBlocking(_ bytes: [UInt8], port: Int) -> String {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    // Only bounds a failing test: a passing one reads until the server closes the connection.
    // Under the thread sanitizer on a busy 2-core machine, 2 seconds were not always enough.
    var timeout = timeval(tv_sec: 15, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return "" }
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    shutdown(descriptor, Int32(SHUT_WR))
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      guard count > 0 else { break }
      response.append(contentsOf: chunk[..<count])
    }
    return String(decoding: response, as: UTF8.self)
  }

}

func sample(_ id: String, secondsAgo: Double = 0) -> NotificationData {
  NotificationData(
    id: id, type: .ping, title: "T \(id)", message: "M",
    timestamp: Date(timeIntervalSince1970: 1_700_000_000 - secondsAgo),
    target: .ping(pingID: "p", contactID: "c"))
}
