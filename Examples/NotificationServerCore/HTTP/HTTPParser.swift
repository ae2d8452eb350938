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

  public var message: String {
    switch self {
    case .malformed(let reason): "Malformed request: \(reason)"
    case .headersTooLarge: "Request headers too large"
    case .bodyTooLarge: "Request body too large"
    case .lengthRequired: "A request body needs a Content-Length (chunked bodies are not accepted)"
    }
  }
}

/// Parses HTTP/1.1 requests from bytes, incrementally: feed it what arrived and ask for a
/// request; it never traps on garbage. Package-visible so its tests need no `@testable import`.
package struct HTTPParser {
  package var maximumHeaderBytes = 16 * 1024
  package var maximumBodyBytes = 1024 * 1024

  package init() {}

  /// Parses one request from the start of `buffer`. Returns `nil` when more bytes are needed,
  /// or the request and how many bytes it used.
  package func parse(_ buffer: [UInt8]) throws(HTTPParseError) -> (HTTPRequest, Int)? {
    guard let headerEnd = Self.find([13, 10, 13, 10], in: buffer) else {
      if buffer.count > maximumHeaderBytes { throw .headersTooLarge }
      return nil
    }
    guard headerEnd <= maximumHeaderBytes else { throw .headersTooLarge }
    guard let head = String(bytes: buffer[..<headerEnd], encoding: .utf8) else {
      throw .malformed("not UTF-8")
    }
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."),
      !requestLine[0].isEmpty, requestLine[0].allSatisfy({ $0.isLetter && $0.isUppercase }),
      requestLine[1].hasPrefix("/")
    else { throw .malformed("bad request line") }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
        throw .malformed("bad header line")
      }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      guard !name.isEmpty, !name.contains(" ") else { throw .malformed("bad header name") }
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    if headers["transfer-encoding"] != nil { throw .lengthRequired }
    var length = 0
    if let value = headers["content-length"] {
      guard let parsed = Int(value), parsed >= 0 else { throw .malformed("bad Content-Length") }
      guard parsed <= maximumBodyBytes else { throw .bodyTooLarge }
      length = parsed
    }
    let bodyStart = headerEnd + 4
    guard buffer.count >= bodyStart + length else { return nil }
    let target = String(requestLine[1])
    let (path, query) = Self.split(target)
    let request = HTTPRequest(
      method: String(requestLine[0]), path: path, query: query, headers: headers,
      body: Data(buffer[bodyStart..<(bodyStart + length)]))
    return (request, bodyStart + length)
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
