import Foundation
import Loom
import NotificationClients
import NotificationFeature

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

  public init(inbox: LocalInbox, token: String?, randomSeed: UInt64 = 0) {
    self.inbox = inbox
    self.client = inbox.notificationClient
    self.token = token
    self.random = LockedState(SeededRandomNumberGenerator(seed: randomSeed))
  }

  /// Changes the injected faults.
  public func updateFaults(_ update: @Sendable (inout Faults) -> Void) {
    faults.withLock { update(&$0) }
  }

  /// Answers one request.
  @Sendable
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    if request.path == "/health" { return .text("ok", status: 200) }
    if let token, request.header("authorization") != "Bearer \(token)" {
      var response = HTTPResponse.text("Missing or wrong bearer token", status: 401)
      response.headers["WWW-Authenticate"] = "Bearer"
      return response
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
    if let failure { return .text("Injected failure", status: failure) }
    do {
      return try await route(request)
    } catch let error as UserFacingError {
      switch error {
      case .notFound: return .text("Not found", status: 404)
      case .invalidData(let reason): return .text(reason, status: 400)
      default: return .text(error.message, status: 500)
      }
    } catch {
      return .text("\(error)", status: 500)
    }
  }

  func route(_ request: HTTPRequest) async throws -> HTTPResponse {
    let parts = request.path.split(separator: "/").map(String.init)
    let method = request.method
    guard parts.count >= 2, parts[0] == "api" else { return .text("Not found", status: 404) }
    if parts[1] == "devices", parts.count == 3 {
      return method == "PUT" || method == "DELETE"
        ? .empty() : .text("Method not allowed", status: 405)
    }
    guard parts[1] == "notifications" else { return .text("Not found", status: 404) }
    let rest = Array(parts.dropFirst(2))
    switch (method, rest.count) {
    case ("GET", 0):
      guard let limit = Int(request.query["limit"] ?? "50"), (1...500).contains(limit) else {
        return .text("limit must be 1 to 500", status: 400)
      }
      let offset = request.query["offset"].flatMap(Int.init)
      let page = try await client.fetchPage(
        PageRequest(limit: limit, cursor: request.query["cursor"], offset: offset))
      return .json(page)
    case ("DELETE", 0):
      try await client.deleteAll()
      return .empty()
    case ("GET", 1) where rest[0] == "changes":
      guard let since = request.query["since"] else {
        return .text("since is required", status: 400)
      }
      return .json(try await client.changesSince(since))
    case ("GET", 1) where rest[0] == "stream":
      return .eventStream(try await events(after: request.header("last-event-id")))
    case ("PATCH", 1) where rest[0] == "read-all":
      struct Body: Decodable { var ids: [String]? }
      let body = request.body.isEmpty ? Body(ids: nil) : try decode(Body.self, request.body)
      try await client.markAllAsRead(body.ids)
      return .empty()
    case ("DELETE", 1):
      try await client.delete(rest[0])
      return .empty()
    case ("PATCH", 2) where rest[1] == "read":
      try await client.markAsRead(rest[0])
      return .empty()
    case ("PATCH", 2) where rest[1] == "unread":
      try await client.markAsUnread(rest[0])
      return .empty()
    case (_, 0...2):
      return .text("Method not allowed", status: 405)
    default:
      return .text("Not found", status: 404)
    }
  }

  /// Every change after `lastEventID` (as a catch-up), then live changes.
  ///
  /// The live stream is opened before this returns, so by the time the response's head tells
  /// the client it is connected no change can slip between the catch-up and the live changes.
  /// A live change the catch-up already sent (same cursor) is not sent again.
  func events(after lastEventID: String?) async throws -> AsyncStream<ServerSentEvent> {
    let client = client
    let live = try await client.updates(lastEventID)
    return AsyncStream { continuation in
      let task = Task {
        var sent: Set<String> = []
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
      event: name, id: event.cursor, data: String(decoding: data ?? Data(), as: UTF8.self))
  }

  func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw UserFacingError.invalidData(reason: "the request body is not valid JSON")
    }
  }
}
