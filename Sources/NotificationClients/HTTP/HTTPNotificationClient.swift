import Foundation
import Loom
import Notifications

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NotificationClient {
  /// A client for the notifications HTTP API (see `Docs/HTTP-API.md`) with bearer-token auth.
  /// Every failure becomes a ``UserFacingError``, but a `410 Gone` for a deleted notification
  /// (``DeletedNotificationError``): 401 unauthorized, 404 not found, 429 and 5xx
  /// server, connection failures and timeouts network, undecodable bodies invalid data naming
  /// the field. Pages are decoded item by item: a bad item is reported and skipped.
  ///
  /// The requests and the decoding of their answers (a page can hold a thousand notifications)
  /// run off the caller's executor, in `@concurrent` functions, wherever the endpoints are
  /// called from.
  ///
  /// ```swift
  /// $0.notificationClient = .live(baseURL: URL(string: "http://127.0.0.1:8080")!, token: "t")
  /// ```
  public static func live(
    baseURL: URL, token: String?, session: URLSession = .shared
  ) -> NotificationClient {
    let api = HTTPAPI(baseURL: baseURL, token: token, session: session)
    @Sendable nonisolated(nonsending) func fetchPage(_ request: PageRequest) async throws
      -> NotificationPage
    {
      var query = [URLQueryItem(name: "limit", value: String(request.limit))]
      if let cursor = request.cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
      if case .type(let type) = request.filter {
        query.append(URLQueryItem(name: "type", value: type.rawValue))
      }
      if request.unreadOnly { query.append(URLQueryItem(name: "unread", value: "true")) }
      let page = try await api.get(LossyPage.self, "api/notifications", query: query)
      for problem in page.problems { reportIssue("Skipped a notification the server sent: \(problem)") }
      if let problem = page.unreadTotalProblem {
        reportIssue("Ignored the unread total the server sent: \(problem)")
      }
      return NotificationPage(
        items: page.items, nextCursor: page.nextCursor, hasMore: page.hasMore,
        unreadTotal: page.unreadTotal, changeCursor: page.changeCursor)
    }
    return NotificationClient(
      fetchPage: fetchPage,
      updates: { since in try await api.events(since: since) },
      changesSince: { cursor in
        try await api.get(
          [WireEvent].self, "api/notifications/changes",
          query: [URLQueryItem(name: "since", value: cursor.description)]
        ).map(\.event)
      },
      apply: { request in
        let (method, path, body) = try HTTPAPI.route(of: request.intent)
        let data = try await api.send(
          method, path, body: body, headers: ["Idempotency-Key": request.id.uuidString])
        // A server older than cursors answers 204, with no body. The answer is a cursor, small
        // enough to decode on the caller.
        guard !data.isEmpty else { return nil }
        return try api.decode(ChangeAnswer.self, from: data).cursor
      },
      fetchNotification: { id in
        try await api.get(NotificationData.self, "api/notifications/\(try HTTPAPI.segment(id))")
      },
      fetchUnread: { entity in
        let query =
          switch entity {
          case .contact(let id): URLQueryItem(name: "contact", value: id)
          case .alert(let id): URLQueryItem(name: "alert", value: id)
          case .ping(let id): URLQueryItem(name: "ping", value: id)
          }
        // The server answers a page at a time (500 at most), each with the cursor of the next.
        var unread: [NotificationData] = []
        var cursor: String?
        var cursors: Set<String> = []
        repeat {
          let page: LossyPage
          do {
            page = try await api.get(
              LossyPage.self, "api/notifications/unread",
              query: [query] + (cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? []))
          } catch UserFacingError.notFound where cursor == nil {
            // A server older than this route reads `unread` as a notification's id: its pages
            // are searched instead.
            return try await NotificationClient.unread(about: entity, pagingThrough: fetchPage)
          }
          for problem in page.problems { reportIssue("Skipped a notification the server sent: \(problem)") }
          unread += page.items
          // A cursor given before would loop for ever: the pages end there.
          cursor = page.nextCursor.flatMap { cursors.insert($0).inserted ? $0 : nil }
        } while cursor != nil
        return unread
      }
    )
  }
}

/// A page decoded item by item. Package-visible so its tests need no `@testable import`.
///
/// `unreadTotal` is optional: a server that does not send it gives `nil`, and so does one that
/// sends something other than a count (described in `unreadTotalProblem`); the feature then
/// counts the notifications it loaded. `changeCursor` is optional too: without it (an older
/// server) the feature catches up from the newest change it heard of.
/// The answer to a change: `{"cursor": "42"}`.
struct ChangeAnswer: Decodable {
  var cursor: ChangeCursor?
}

package struct LossyPage: Decodable {
  package var items: [NotificationData] = []
  package var problems: [String] = []
  package var nextCursor: String?
  package var hasMore: Bool
  package var unreadTotal: Int?
  package var unreadTotalProblem: String?
  package var changeCursor: ChangeCursor?

  enum CodingKeys: String, CodingKey { case items, nextCursor, hasMore, unreadTotal, changeCursor }

  private struct Item: Decodable {
    var notification: NotificationData?
    var problem: String?
    init(from decoder: any Decoder) throws {
      do {
        notification = try NotificationData(from: decoder)
      } catch {
        problem = HTTPAPI.describe(error)
      }
    }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    for item in try container.decode([Item].self, forKey: .items) {
      if let notification = item.notification { items.append(notification) }
      if let problem = item.problem { problems.append(problem) }
    }
    nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
    // A cursor that is not digits is no cursor (an older or foreign server's): left out.
    changeCursor = try container.decodeIfPresent(String.self, forKey: .changeCursor)
      .flatMap(ChangeCursor.init)
    do {
      let total = try container.decodeIfPresent(Int.self, forKey: .unreadTotal)
      if let total, total < 0 {
        unreadTotalProblem = #"field "unreadTotal": \#(total) is negative"#
      } else {
        unreadTotal = total
      }
    } catch {
      unreadTotalProblem = HTTPAPI.describe(error)
    }
  }
}

/// Requests to the API and the mapping of their failures.
struct HTTPAPI: Sendable {
  let baseURL: URL
  let token: String?
  let session: URLSession

  /// What a query value keeps unencoded: what a query allows, less the characters that
  /// separate or stand for something in one.
  static let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(
    CharacterSet(charactersIn: "+&=;"))

  /// What a path segment keeps unencoded: letters, digits, `-`, `_` and `~` (RFC 3986's
  /// unreserved characters less `.`, so no segment can read as `.` or `..`).
  static let segmentAllowed = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")

  /// `id` as exactly one segment of a request's path: checked (an empty id, `.` or `..` would
  /// name the collection, and the server would act on every notification) and percent-encoded,
  /// `/` and `.` included.
  ///
  /// - Throws: `UserFacingError.invalidData` naming what is wrong with the id.
  static func segment(_ id: String) throws -> String {
    do {
      try NotificationData.checkID(id)
    } catch {
      throw UserFacingError.invalidData(reason: "Not a notification id: \(error)")
    }
    return id.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? id
  }

  /// A request for `path` (relative to the base URL, its segments encoded already) and `query`.
  /// The method, path and body of the call that makes a change.
  static func route(of intent: ChangeIntent) throws -> (String, String, Data?) {
    switch intent {
    case .markAsRead(let id): return ("PATCH", "api/notifications/\(try segment(id))/read", nil)
    case .markAsUnread(let id): return ("PATCH", "api/notifications/\(try segment(id))/unread", nil)
    case .markAllAsRead(let ids):
      return ("PATCH", "api/notifications/read-all", try JSONEncoder().encode(["ids": ids]))
    case .delete(let id): return ("DELETE", "api/notifications/\(try segment(id))", nil)
    case .deleteAll(upTo: nil):
      return ("POST", "api/notifications/clear", try JSONEncoder().encode(["everything": true]))
    case .deleteAll(upTo: let bound?):
      guard let timestamp = ISO8601.string(from: bound.timestamp) else {
        throw UserFacingError.invalidData(reason: "a clear-all bound outside the years 0000 to 9999")
      }
      let body = try JSONEncoder().encode(["upTo": timestamp, "upToID": bound.id])
      return ("POST", "api/notifications/clear", body)
    }
  }

  func request(
    _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
    headers: [String: String] = [:]
  ) throws -> URLRequest {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
      throw UserFacingError.invalidData(reason: "bad server address \(baseURL)")
    }
    // The segments are joined as they are: appending them as a path component would encode
    // their `%` again.
    let base = components.percentEncodedPath.hasSuffix("/")
      ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
    components.percentEncodedPath = base + "/" + path
    if !query.isEmpty {
      // `queryItems` leaves `+` (and `;`) as they are, and servers read a `+` in a query as a
      // space: each value is encoded here, those included.
      components.percentEncodedQueryItems = query.map { item in
        URLQueryItem(
          name: item.name,
          value: item.value?.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed))
      }
    }
    guard let url = components.url else {
      throw UserFacingError.invalidData(reason: "bad server address \(baseURL)")
    }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = 30
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
  }

  /// The body of the answer to a request; throws the mapped error for a failure. Off the
  /// caller's executor.
  @concurrent
  func send(
    _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
    headers: [String: String] = [:]
  ) async throws -> Data {
    let request = try request(method, path, query: query, body: body, headers: headers)
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch {
      throw UserFacingError.network
    }
    guard let http = response as? HTTPURLResponse else { throw UserFacingError.network }
    try Self.check(status: http.statusCode, body: data)
    return data
  }

  /// Throws the error a status stands for: a `410 Gone` whose body names the deletion's cursor
  /// is a ``DeletedNotificationError``, and without one is `notFound`.
  static func check(status: Int, body: Data = Data()) throws {
    switch status {
    case 200..<300: return
    case 401: throw UserFacingError.unauthorized
    case 404: throw UserFacingError.notFound
    case 410:
      if let deleted = try? JSONDecoder().decode(DeletedNotificationError.self, from: body) {
        throw deleted
      }
      throw UserFacingError.notFound
    default: throw UserFacingError.server(status: status)
    }
  }

  /// The answer to a `GET` of `path`, decoded, both off the caller's executor: the endpoints may
  /// run on their caller's (the main actor in an app), and decoding a page of a thousand
  /// notifications there would hold it up.
  @concurrent
  func get<T: Decodable & Sendable>(
    _ type: T.Type, _ path: String, query: [URLQueryItem] = []
  ) async throws -> T {
    try decode(type, from: try await send("GET", path, query: query))
  }

  func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw UserFacingError.invalidData(reason: Self.describe(error))
    }
  }

  static func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch decoding {
    case .keyNotFound(let key, let context):
      return "missing field \"\(path(context.codingPath + [key]))\""
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      let path = path(context.codingPath)
      return path.isEmpty ? context.debugDescription : "field \"\(path)\": \(context.debugDescription)"
    @unknown default:
      return "\(decoding)"
    }
  }

  /// Opens the live event stream, parsed from Server-Sent Events, resuming after `since`.
  /// Returns once the server has accepted it (a 2xx response head); throws the mapped error if
  /// it refuses or cannot be reached. Off the caller's executor.
  @concurrent
  func events(since: ChangeCursor?) async throws -> AsyncThrowingStream<NotificationEvent, any Error> {
    var request = try request("GET", "api/notifications/stream")
    request.timeoutInterval = 3_600
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    if let since { request.setValue(since.description, forHTTPHeaderField: "Last-Event-ID") }
    let (stream, continuation) = AsyncThrowingStream<NotificationEvent, any Error>.makeStream()
    let reader = EventStreamReader(
      continuation: continuation, issueReporter: DependencyValues.current.issueReporter)
    let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
    let task = session.dataTask(with: request)
    continuation.onTermination = { _ in
      task.cancel()
      session.invalidateAndCancel()
    }
    task.resume()
    do {
      try await withTaskCancellationHandler {
        try await reader.opened()
      } onCancel: {
        reader.open(.failure(CancellationError()))
      }
    } catch {
      continuation.finish()
      throw error
    }
    return stream
  }
}
