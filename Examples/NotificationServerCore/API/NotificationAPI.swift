import Foundation
import Loom
import NotificationClients
import Notifications

/// The notifications REST API and its event stream, on top of a local inbox (documented in
/// `Docs/HTTP-API.md`), with bearer-token auth and fault injection.
///
/// ```swift
/// let api = NotificationAPI(inbox: LocalInbox(url: url), token: "secret")
/// let server = HTTPServer(port: 0, handler: api.handle)
/// ```
public final class NotificationAPI: Sendable {
  /// Faults to inject, changeable while the server runs.
  public struct Faults: Sendable {
    public var latency: Duration = .zero
    public var failRate = 0.0
    /// The next requests fail with these statuses, in order.
    public var failNext: [Int] = []

    public init() {}
  }

  let inbox: LocalInbox
  let client: NotificationClient
  let token: String?
  let faults = LockedState(Faults())
  let random: LockedState<SeededRandomNumberGenerator>
  /// Where the server's log lines go: standard error by default.
  let log: @Sendable (String) -> Void

  public init(
    inbox: LocalInbox, token: String?, randomSeed: UInt64 = 0,
    log: @escaping @Sendable (String) -> Void = { line in
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
  ) {
    self.inbox = inbox
    self.client = inbox.notificationClient
    self.token = token
    self.random = LockedState(SeededRandomNumberGenerator(seed: randomSeed))
    self.log = log
  }

  /// Changes the injected faults.
  public func updateFaults(_ update: @Sendable (inout Faults) -> Void) {
    faults.withLock { update(&$0) }
  }

  /// The largest `since` (and `Last-Event-ID`) the API accepts.
  public static let maximumPosition = 1_000_000_000
  /// The largest page the API serves.
  public static let maximumLimit = 500

  /// Answers one request.
  @Sendable
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    if request.path == "/health" {
      guard request.method == "GET" || request.method == "HEAD" else {
        return .error(
          405, code: "method_not_allowed", message: "/health answers GET and HEAD",
          headers: ["Allow": "GET, HEAD"])
      }
      return .text("ok", status: 200)
    }
    if let token, !Self.authorizes(request.header("authorization"), token: token) {
      return .error(
        401, code: "unauthorized", message: "Missing or wrong bearer token",
        headers: ["WWW-Authenticate": "Bearer"])
    }
    let (latency, failure) = faults.withLock { faults -> (Duration, Int?) in
      if !faults.failNext.isEmpty { return (faults.latency, faults.failNext.removeFirst()) }
      if faults.failRate > 0,
        random.withLock({ Double.random(in: 0..<1, using: &$0) }) < faults.failRate
      {
        return (faults.latency, 503)
      }
      return (faults.latency, nil)
    }
    if latency > .zero { try? await Task.sleep(for: latency) }
    if let failure { return .error(failure, code: "injected_failure", message: "Injected failure") }
    do {
      return try await route(request)
    } catch let error as InvalidParameter {
      return .error(400, code: "invalid_parameter", message: error.message)
    } catch let error as InvalidNotificationID {
      return .error(400, code: "invalid_id", message: "Not a notification id: \(error)")
    } catch let deleted as DeletedNotificationError {
      return .json(deleted, status: 410)
    } catch let error as UserFacingError {
      switch error {
      case .notFound: return Self.notFound
      case .invalidData(let reason): return .error(400, code: "invalid_body", message: reason)
      default: return internalError(error.message)
      }
    } catch {
      return internalError("\(error)")
    }
  }

  /// A 500 whose body says only that the inbox failed: the reason (which names the server's
  /// files, and what to run on the server) goes to the server's log.
  func internalError(_ reason: String) -> HTTPResponse {
    log("error: \(reason)")
    return .error(
      500, code: "internal_error", message: "The server's inbox failed; its log says why.")
  }

  static let notFound = HTTPResponse.error(404, code: "not_found", message: "Not found")

  /// Whether an `Authorization` header carries `token`: the scheme `Bearer` in any case (RFC
  /// 7235 makes schemes case-insensitive), then the token as it is.
  static func authorizes(_ header: String?, token: String) -> Bool {
    guard let header else { return false }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
    return parts[1].trimmingCharacters(in: .whitespaces) == token
  }

  /// A query parameter out of range: a 400 naming it.
  struct InvalidParameter: Error {
    var message: String
  }

  /// The whole number `name` holds, from `range`; `nil` when absent.
  ///
  /// Only ASCII digits count: `-1`, `+5`, `1e3`, an empty value and numbers past the range
  /// (however long) are refused, never handed to the inbox.
  static func number(
    _ name: String, in request: HTTPRequest, range: ClosedRange<Int>
  ) throws(InvalidParameter) -> Int? {
    try number(name, request.query[name], range: range)
  }

  /// The whole number `text` holds, from `range`; `nil` when `text` is.
  static func number(
    _ name: String, _ text: String?, range: ClosedRange<Int>
  ) throws(InvalidParameter) -> Int? {
    guard let text else { return nil }
    let digits = text.utf8.allSatisfy { (48...57).contains($0) }
    guard digits, !text.isEmpty, text.utf8.count <= 18, let value = Int(text), range.contains(value)
    else {
      throw InvalidParameter(
        message:
          "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text.prefix(40))"
      )
    }
    return value
  }

  /// The `type` a page request filters by (any type name, known or not): `.all` without one.
  static func filter(in request: HTTPRequest) throws(InvalidParameter) -> NotificationFilter {
    guard let name = request.query["type"] else { return .all }
    guard !name.isEmpty, name.utf8.count <= 64 else {
      throw InvalidParameter(message: "type must name a notification type, not \(name.prefix(40))")
    }
    return .type(NotificationType(rawValue: name))
  }

  /// A query flag: `true` or `false`, `false` without one.
  static func flag(_ name: String, in request: HTTPRequest) throws(InvalidParameter) -> Bool {
    switch request.query[name] {
    case nil, "false": return false
    case "true": return true
    case let value?:
      throw InvalidParameter(message: "\(name) must be true or false, not \(value.prefix(40))")
    }
  }

  /// The `cursor` of a page request: one a page's `nextCursor` gave (`PageKey`), or `nil`.
  static func pageCursor(in request: HTTPRequest) throws(InvalidParameter) -> String? {
    guard let cursor = request.query["cursor"] else { return nil }
    guard PageKey(cursor: cursor) != nil else {
      throw InvalidParameter(
        message: "cursor must be a page's nextCursor, not \(cursor.prefix(40))")
    }
    return cursor
  }

  /// What a clear-all deletes, as its body says: `{"upTo": ISO-8601, "upToID": id}` for the
  /// notifications up to a position in the feed, `{"everything": true}` for all of them.
  enum ClearAllBound {
    case upTo(FeedPosition)
    case everything
  }

  /// The bound a clear-all's body names; a body that names none, or both, is a 400.
  func clearAllBound(in request: HTTPRequest) throws -> ClearAllBound {
    struct Body: Decodable {
      var upTo: String?
      var upToID: String?
      var everything: Bool?
    }
    let body = try decode(Body.self, request.body)
    switch (body.upTo, body.upToID, body.everything ?? false) {
    case (let text?, let id?, false):
      guard let timestamp = ISO8601.date(from: text) else {
        throw InvalidParameter(
          message: "upTo must be an ISO-8601 timestamp, not \(text.prefix(40))")
      }
      try NotificationData.checkID(id)
      return .upTo(FeedPosition(timestamp: timestamp, id: id))
    case (nil, nil, true):
      return .everything
    default:
      throw InvalidParameter(
        message:
          #"a clear-all names what it deletes: {"upTo": ISO-8601, "upToID": id} or {"everything": true}"#
      )
    }
  }

  /// A notification's id from a path segment, checked (see `InvalidNotificationID`).
  static func id(_ segment: String) throws(InvalidNotificationID) -> String {
    try NotificationData.checkID(segment)
    return segment
  }

  /// The entity `/unread` asks about: exactly one of `contact`, `alert` and `ping`, with an id.
  static func entity(in request: HTTPRequest) throws -> NotificationFeature.Entity {
    let given: [NotificationFeature.Entity] = [
      request.query["contact"].map { .contact($0) }, request.query["alert"].map { .alert($0) },
      request.query["ping"].map { .ping($0) },
    ].compactMap { $0 }
    guard given.count == 1, let entity = given.first else {
      throw InvalidParameter(message: "give exactly one of contact, alert and ping")
    }
    switch entity {
    case .contact(let id), .alert(let id), .ping(let id):
      do {
        try NotificationData.checkID(id)
      } catch {
        throw InvalidParameter(message: "not an entity id: \(error)")
      }
    }
    return entity
  }

  func route(_ request: HTTPRequest) async throws -> HTTPResponse {
    let segments = request.segments
    let method = request.method
    // Paths match exactly: an empty segment (a trailing or doubled slash) is no route.
    guard segments.count >= 2, segments[0] == "api", !segments.contains("") else {
      return Self.notFound
    }
    if segments[1] == "devices", segments.count == 3 {
      return method == "PUT" || method == "DELETE"
        ? .empty() : Self.methodNotAllowed(request)
    }
    guard segments[1] == "notifications" else { return Self.notFound }
    let rest = Array(segments.dropFirst(2))
    let positions = 0...Self.maximumPosition
    switch (method, rest.count) {
    case ("GET", 0):
      let limit = try Self.number("limit", in: request, range: 1...Self.maximumLimit) ?? 50
      guard request.query["offset"] == nil else {
        throw InvalidParameter(message: "offset is not taken: ask for the next page with cursor")
      }
      let page = try await client.fetchPage(
        PageRequest(
          limit: limit, cursor: try Self.pageCursor(in: request),
          filter: try Self.filter(in: request), unreadOnly: try Self.flag("unread", in: request)))
      return .json(page)
    case ("POST", 1) where rest[0] == "clear":
      switch try clearAllBound(in: request) {
      case .upTo(let bound): return try await apply(.deleteAll(upTo: bound), for: request)
      case .everything: return try await apply(.deleteAll(upTo: nil), for: request)
      }
    case ("GET", 1) where rest[0] == "changes":
      guard let since = try Self.number("since", in: request, range: positions) else {
        throw InvalidParameter(message: "since is required")
      }
      return .json(try await client.changesSince(ChangeCursor(UInt64(since))).map(WireEvent.init))
    case ("GET", 1) where rest[0] == "stream":
      let lastEventID = try Self.number(
        "Last-Event-ID", request.header("last-event-id"), range: positions)
      return .eventStream(try await events(after: lastEventID.map { ChangeCursor(UInt64($0)) }))
    case ("GET", 1) where rest[0] == "unread":
      let entity = try Self.entity(in: request)
      let limit = try Self.number("limit", in: request, range: 1...Self.maximumLimit)
      let page = try inbox.unreadPage(
        about: entity, cursor: try Self.pageCursor(in: request), limit: limit ?? Self.maximumLimit)
      struct Unread: Encodable {
        var items: [NotificationData]
        var nextCursor: String?
      }
      return .json(Unread(items: page.items, nextCursor: page.nextCursor))
    case ("PATCH", 1) where rest[0] == "read-all":
      struct Body: Decodable { var ids: [String]? }
      let body = request.body.isEmpty ? Body(ids: nil) : try decode(Body.self, request.body)
      for id in body.ids ?? [] { try NotificationData.checkID(id) }
      return try await apply(.markAllAsRead(body.ids), for: request)
    case ("GET", 1):
      return .json(try await client.fetchNotification(try Self.id(rest[0])))
    case ("DELETE", 1):
      return try await apply(.delete(try Self.id(rest[0])), for: request)
    case ("PATCH", 2) where rest[1] == "read":
      return try await apply(.markAsRead(try Self.id(rest[0])), for: request)
    case ("PATCH", 2) where rest[1] == "unread":
      return try await apply(.markAsUnread(try Self.id(rest[0])), for: request)
    case (_, 0...2):
      return Self.methodNotAllowed(request)
    default:
      return Self.notFound
    }
  }

  /// Makes a change once per `Idempotency-Key` (a UUID; a new change without one) and answers
  /// `{"cursor": "42"}`, the cursor of the inbox's log right after it.
  func apply(_ intent: ChangeIntent, for request: HTTPRequest) async throws -> HTTPResponse {
    let id: UUID
    if let key = request.header("idempotency-key") {
      guard let parsed = UUID(uuidString: key) else {
        throw InvalidParameter(message: "Idempotency-Key must be a UUID, not \(key.prefix(40))")
      }
      id = parsed
    } else {
      id = UUID()
    }
    struct Answer: Encodable { var cursor: ChangeCursor? }
    return .json(Answer(cursor: try await client.apply(ChangeRequest(id: id, intent))))
  }

  static func methodNotAllowed(_ request: HTTPRequest) -> HTTPResponse {
    .error(
      405, code: "method_not_allowed",
      message: "\(request.method) is not allowed on \(request.path.prefix(200))")
  }

  /// Every change after `lastEventID` (as a catch-up), then live changes.
  ///
  /// The live stream is opened before this returns, so by the time the response's head tells
  /// the client it is connected no change can slip between the catch-up and the live changes.
  /// A live change the catch-up already sent (same cursor) is not sent again.
  func events(after lastEventID: ChangeCursor?) async throws -> AsyncStream<ServerSentEvent> {
    let client = client
    let live = try await client.updates(lastEventID)
    return AsyncStream { continuation in
      let task = Task {
        var sent: Set<ChangeCursor> = []
        if let lastEventID, let missed = try? await client.changesSince(lastEventID) {
          for event in missed { continuation.yield(Self.encode(event)) }
          sent = Set(missed.compactMap(\.cursor))
        }
        do {
          for try await event in live {
            if let cursor = event.cursor, sent.remove(cursor) != nil { continue }
            continuation.yield(Self.encode(event))
          }
        } catch {}
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  static func encode(_ event: NotificationEvent) -> ServerSentEvent {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let name: String
    let data: Data?
    switch event.change {
    case .inserted(let notification):
      name = "inserted"
      data = try? encoder.encode(notification)
    case .updated(let notification):
      name = "updated"
      data = try? encoder.encode(notification)
    case .deleted(let id):
      name = "deleted"
      data = try? encoder.encode(["id": id])
    case .snapshot(let notifications):
      name = "snapshot"
      data = try? encoder.encode(notifications)
    }
    return ServerSentEvent(
      event: name, id: event.cursor?.description,
      data: String(decoding: data ?? Data(), as: UTF8.self))
  }

  /// Decodes a request body, which must be JSON as RFC 8259 writes it: Foundation's decoder
  /// alone takes a trailing comma, and a key given twice.
  func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
    do {
      _ = try JSONValue.read(data)
    } catch {
      if case .duplicateKey(let path) = error {
        throw UserFacingError.invalidData(reason: "The request body gives \"\(path)\" twice")
      }
      throw UserFacingError.invalidData(reason: "The request body is not valid JSON")
    }
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw UserFacingError.invalidData(
        reason: "The request body is not the JSON this request takes")
    }
  }
}
