import Foundation
import Notifications

/// One event of a Server-Sent Events stream, as the wire gives it.
package struct ServerSentEventMessage: Equatable, Sendable {
  package var event: String?
  package var id: String?
  package var data: String

  package init(event: String? = nil, id: String? = nil, data: String) {
    self.event = event
    self.id = id
    self.data = data
  }
}

/// Splits a Server-Sent Events byte stream into events, as bytes arrive in chunks of any size.
///
/// Lines end in CRLF, LF or CR (a CRLF split between two chunks counts once); a blank line ends
/// an event; lines starting with `:` are comments (heartbeats); `data` lines are joined with
/// LF; unknown fields are ignored, as the specification says. An event is dispatched when it
/// has an `event` or a `data` field. Unlike a browser, an event without an `id` has none (it does
/// not inherit the previous event's): a cursor belongs to one change. Package-visible so its tests need no `@testable import`.
package struct ServerSentEventParser {
  /// The longest line or event the parser holds before it gives up on the stream.
  package var maximumEventBytes = 8 * 1024 * 1024

  private var line: [UInt8] = []
  private var afterCR = false
  private var event: String?
  private var id: String?
  private var data: [String] = []
  private var hasData = false
  private var eventBytes = 0

  package init() {}

  /// An event longer than ``maximumEventBytes``.
  package struct TooLarge: Error, Equatable {
    package init() {}
  }

  /// Feeds the next bytes and returns the events they complete.
  package mutating func feed(_ bytes: some Sequence<UInt8>) throws(TooLarge) -> [ServerSentEventMessage] {
    var messages: [ServerSentEventMessage] = []
    for byte in bytes {
      if afterCR {
        afterCR = false
        if byte == 10 { continue }
      }
      switch byte {
      case 13, 10:
        afterCR = byte == 13
        if let message = endLine() { messages.append(message) }
      default:
        line.append(byte)
        eventBytes += 1
        guard eventBytes <= maximumEventBytes else { throw TooLarge() }
      }
    }
    return messages
  }

  private mutating func endLine() -> ServerSentEventMessage? {
    defer { line.removeAll(keepingCapacity: true) }
    guard !line.isEmpty else { return dispatch() }
    if line.first == UInt8(ascii: ":") { return nil }
    let text = String(decoding: line, as: UTF8.self)
    let field: Substring
    var value: Substring
    if let colon = text.firstIndex(of: ":") {
      field = text[..<colon]
      value = text[text.index(after: colon)...]
      if value.first == " " { value = value.dropFirst() }
    } else {
      field = Substring(text)
      value = ""
    }
    switch field {
    case "event": event = String(value)
    case "data":
      data.append(String(value))
      hasData = true
    case "id" where !value.contains("\0"): id = String(value)
    default: break
    }
    return nil
  }

  private mutating func dispatch() -> ServerSentEventMessage? {
    defer {
      event = nil
      id = nil
      data = []
      hasData = false
      eventBytes = 0
    }
    guard event != nil || hasData else { return nil }
    return ServerSentEventMessage(event: event, id: id, data: data.joined(separator: "\n"))
  }
}

/// Why an event of the notifications stream could not be used.
package enum EventStreamProblem: Error, Equatable, Sendable {
  /// An event name the client does not know: reported and skipped, so a newer server's events
  /// do not break the stream.
  case unknownEvent(String?)
  /// A known event whose data does not decode: the stream fails with `invalidData`, so the
  /// feature reconnects and catches up instead of silently missing a change.
  case undecodable(String)

  /// The event from a message of the notifications stream (see `Docs/HTTP-API.md`).
  package static func decode(_ message: ServerSentEventMessage) throws(EventStreamProblem)
    -> NotificationEvent
  {
    let payload = Data(message.data.utf8)
    let decoder = JSONDecoder()
    let name = message.event ?? "message"
    let cursor = message.id.flatMap(ChangeCursor.init)
    do {
      switch message.event {
      case "inserted":
        return NotificationEvent(
          .inserted(try decoder.decode(NotificationData.self, from: payload)), cursor: cursor)
      case "updated":
        return NotificationEvent(
          .updated(try decoder.decode(NotificationData.self, from: payload)), cursor: cursor)
      case "deleted":
        struct Deleted: Decodable { var id: String }
        return NotificationEvent(
          .deleted(id: try decoder.decode(Deleted.self, from: payload).id), cursor: cursor)
      case "snapshot":
        return NotificationEvent(
          .snapshot(try decoder.decode([NotificationData].self, from: payload)), cursor: cursor)
      default:
        throw EventStreamProblem.unknownEvent(message.event)
      }
    } catch let problem as EventStreamProblem {
      throw problem
    } catch {
      let id = message.id.map { " with id \($0.prefix(40))" } ?? ""
      throw .undecodable("event \"\(name.prefix(40))\"\(id): \(HTTPAPI.describe(error))")
    }
  }
}
