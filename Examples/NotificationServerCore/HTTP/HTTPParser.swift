import Foundation

/// Why a request could not be read. Each maps to the status the server answers with.
public enum HTTPParseError: Error, Equatable, Sendable {
  /// The request line or a header is malformed (400).
  case malformed(String)
  /// The request line and headers are too long (431).
  case headersTooLarge
  /// The body is longer than allowed (413).
  case bodyTooLarge
  /// A body without a Content-Length (411).
  case lengthRequired

  public var status: Int {
    switch self {
    case .malformed: 400
    case .headersTooLarge: 431
    case .bodyTooLarge: 413
    case .lengthRequired: 411
    }
  }

  /// The `error` code of the JSON error body (see `Docs/HTTP-API.md`).
  public var code: String {
    switch self {
    case .malformed: "malformed_request"
    case .headersTooLarge: "headers_too_large"
    case .bodyTooLarge: "body_too_large"
    case .lengthRequired: "length_required"
    }
  }

  public var message: String {
    switch self {
    case .malformed(let reason): "Malformed request: \(reason)"
    case .headersTooLarge: "Request headers too large"
    case .bodyTooLarge: "Request body too large"
    case .lengthRequired: "A request body needs a Content-Length (chunked bodies are not accepted)"
    }
  }

  /// The answer the server sends for this error.
  public var response: HTTPResponse {
    .error(status, code: code, message: message)
  }
}

/// Parses HTTP/1.1 requests from bytes, incrementally: feed it what arrived and ask for a
/// request; it never traps on garbage. Package-visible so its tests need no `@testable import`.
///
/// Bytes that cannot begin a request are rejected as soon as they arrive (a request line with
/// something other than a method before its first space, a bare LF), not when a header end that
/// may never come arrives.
package struct HTTPParser {
  package var maximumHeaderBytes = 16 * 1024
  package var maximumBodyBytes = 1024 * 1024

  package init() {}

  static let bareLF = HTTPParseError.malformed("a line ends in a bare LF (lines end in CRLF)")
  static let badRequestLine = HTTPParseError.malformed("bad request line")

  /// Parses one request from the start of `buffer`. Returns `nil` when more bytes are needed,
  /// or the request and how many bytes it used.
  package func parse(_ buffer: [UInt8]) throws(HTTPParseError) -> (HTTPRequest, Int)? {
    let headerEnd = Self.find([13, 10, 13, 10], in: buffer)
    let head = buffer[..<(headerEnd.map { $0 + 4 } ?? buffer.count)]
    try Self.checkLineEnds(head)
    try Self.checkRequestLineStart(head)
    guard let headerEnd else {
      if buffer.count > maximumHeaderBytes { throw .headersTooLarge }
      return nil
    }
    guard headerEnd <= maximumHeaderBytes else { throw .headersTooLarge }
    guard let text = String(bytes: buffer[..<headerEnd], encoding: .utf8) else {
      throw .malformed("not UTF-8")
    }
    var lines = text.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."),
      !requestLine[0].isEmpty, requestLine[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
      requestLine[1].hasPrefix("/"), !requestLine[1].contains(where: Self.isControl)
    else { throw Self.badRequestLine }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        !line.contains(where: { Self.isControl($0) && $0 != "\t" })
      else {
        throw .malformed("bad header line")
      }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      guard !name.isEmpty, !name.contains(" ") else { throw .malformed("bad header name") }
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    if headers["transfer-encoding"] != nil { throw .lengthRequired }
    var length = 0
    if let value = headers["content-length"] {
      guard !value.isEmpty, value.count <= 18, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber),
        let parsed = Int(value)
      else { throw .malformed("bad Content-Length") }
      guard parsed <= maximumBodyBytes else { throw .bodyTooLarge }
      length = parsed
    }
    let bodyStart = headerEnd + 4
    guard buffer.count >= bodyStart + length else { return nil }
    let target = String(requestLine[1])
    let (path, query) = Self.split(target)
    let request = HTTPRequest(
      method: String(requestLine[0]), path: path, segments: Self.segments(of: target),
      query: query, headers: headers, body: Data(buffer[bodyStart..<(bodyStart + length)]))
    return (request, bodyStart + length)
  }

  /// Throws when a line of the head ends in a LF without a CR before it.
  static func checkLineEnds(_ head: ArraySlice<UInt8>) throws(HTTPParseError) {
    var previous: UInt8 = 0
    for byte in head {
      if byte == 10, previous != 13 { throw bareLF }
      previous = byte
    }
  }

  /// Throws when the bytes so far cannot begin a request line: the method is uppercase ASCII
  /// letters followed by a space.
  static func checkRequestLineStart(_ head: ArraySlice<UInt8>) throws(HTTPParseError) {
    for byte in head {
      if byte == 32 { return }
      guard (65...90).contains(byte) else { throw badRequestLine }
    }
  }

  static func isControl(_ character: Character) -> Bool {
    character.unicodeScalars.contains { $0.value < 32 || $0.value == 127 }
  }

  /// The segments of the target's path, split before they are percent-decoded (so `%2F` stays
  /// inside its segment), empty ones kept. A segment that does not decode stays as it is.
  package static func segments(of target: String) -> [String] {
    let rawPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    return rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      String($0).removingPercentEncoding ?? String($0)
    }
  }

  package static func split(_ target: String) -> (String, [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
    var query: [String: String] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = String(keyValue[0]).replacingOccurrences(of: "+", with: " ")
        let value = keyValue.count == 2 ? String(keyValue[1]).replacingOccurrences(of: "+", with: " ") : ""
        query[key.removingPercentEncoding ?? key] = value.removingPercentEncoding ?? value
      }
    }
    return (path, query)
  }

  package static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count)
    where haystack[index] == needle[0] && Array(haystack[index..<(index + needle.count)]) == needle {
      return index
    }
    return nil
  }
}
