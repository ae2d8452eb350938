import Foundation

/// A parsed HTTP/1.1 request.
///
/// ```swift
/// if request.method == "GET", request.path == "/health" { return .text("ok", status: 200) }
/// ```
public struct HTTPRequest: Sendable {
  public var method: String
  /// The path without the query, percent-decoded.
  public var path: String
  /// The segments of the path between its slashes, each percent-decoded on its own, empty ones
  /// kept: `/api/notifications/a%2Fb/` is `["api", "notifications", "a/b", ""]`. Routes match
  /// them exactly, so an id that holds a `/` stays one segment and a trailing slash is not
  /// another route.
  public var segments: [String]
  public var query: [String: String]
  /// Header names are lowercased.
  public var headers: [String: String]
  public var body: Data

  /// Creates a request; `segments` defaults to `path` split at its slashes.
  public init(
    method: String, path: String, segments: [String]? = nil, query: [String: String] = [:],
    headers: [String: String] = [:], body: Data = Data()
  ) {
    self.method = method
    self.path = path
    self.segments = segments ?? Self.segments(ofPath: path)
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// The segments of `path` (after its leading slash), empty ones kept.
  static func segments(ofPath path: String) -> [String] {
    path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
  }

  /// A header by case-insensitive name.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One Server-Sent Event.
public struct ServerSentEvent: Sendable, Equatable {
  public var event: String?
  public var id: String?
  public var data: String

  public init(event: String? = nil, id: String? = nil, data: String) {
    self.event = event
    self.id = id
    self.data = data
  }

  /// The event on the wire: `event:`, `id:`, one `data:` line per line of data, a blank line.
  public var encoded: String {
    var text = ""
    if let event { text += "event: \(event)\n" }
    if let id { text += "id: \(id)\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      text += "data: \(line)\n"
    }
    return text + "\n"
  }
}

/// An HTTP response: a status with a body, or a stream of server-sent events.
public struct HTTPResponse: Sendable {
  public enum Body: Sendable {
    case data(Data)
    case events(AsyncStream<ServerSentEvent>)
  }

  public var status: Int
  public var headers: [String: String]
  public var body: Body

  public init(status: Int, headers: [String: String] = [:], body: Body = .data(Data())) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON body.
  public static func json<T: Encodable>(_ value: T, status: Int = 200) -> Self {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return Self(status: status, headers: ["Content-Type": "application/json"], body: .data(data))
  }

  /// A plain-text body, for errors.
  public static func text(_ text: String, status: Int) -> Self {
    Self(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: .data(Data((text + "\n").utf8)))
  }

  /// An error: the status with the JSON body `{"error": code, "message": message}` (see
  /// `Docs/HTTP-API.md`); `code` is a stable, machine-readable name, `message` is for people.
  public static func error(
    _ status: Int, code: String, message: String, headers: [String: String] = [:]
  ) -> Self {
    struct Body: Encodable {
      var error: String
      var message: String
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(Body(error: code, message: message))) ?? Data()
    return Self(
      status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
      body: .data(data))
  }

  /// No body.
  public static func empty(_ status: Int = 204) -> Self { Self(status: status) }

  /// A stream of server-sent events.
  public static func eventStream(_ events: AsyncStream<ServerSentEvent>) -> Self {
    Self(
      status: 200,
      headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
      body: .events(events))
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: "Status"
    }
  }
}
