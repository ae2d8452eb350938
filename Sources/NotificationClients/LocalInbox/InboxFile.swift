import Foundation

/// An inbox file of the earlier JSON format, read once to import it into the SQLite inbox.
/// Nothing writes this format any more; ``LocalInbox`` imports such a file the first time it
/// opens and renames it.
///
/// ```swift
/// let document = try InboxFile(url: URL(fileURLWithPath: "/tmp/inbox.json")).read()
/// ```
public struct InboxFile: Sendable {
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  var path: String { url.path }

  /// Reads the inbox; a missing file is an empty inbox.
  ///
  /// - Throws: ``InboxError/corrupt(path:reason:)``, ``InboxError/empty(path:)`` or
  ///   ``InboxError/newerSchema(path:found:supported:)`` for a file that cannot be imported
  ///   (which is then left as it is), ``InboxError/unreadable(path:reason:)``.
  public func read() throws(InboxError) -> InboxDocument {
    guard FileManager.default.fileExists(atPath: path) else { return InboxDocument() }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: path, reason: InboxError.reason(for: error, path: path))
    }
    guard !data.isEmpty else { throw .empty(path: path) }
    struct Version: Decodable { var schemaVersion: Int }
    let version: Int
    do {
      version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
    } catch {
      throw .corrupt(path: path, reason: Self.describe(error))
    }
    guard version <= InboxDocument.currentSchemaVersion else {
      throw .newerSchema(
        path: path, found: version, supported: InboxDocument.currentSchemaVersion)
    }
    do {
      return try JSONDecoder().decode(InboxDocument.self, from: data)
    } catch {
      throw .corrupt(path: path, reason: Self.describe(error))
    }
  }

  /// What a decoding error says, with where in the document it happened, in words (not
  /// `CodingKeys(stringValue: …)`).
  static func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return error.localizedDescription }
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        .drop(while: { $0 == "." }).description
    }
    switch decoding {
    case .keyNotFound(let key, let context):
      return "missing field \"\(path(context.codingPath + [key]))\""
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "not valid JSON"
    case .typeMismatch(let type, let context):
      return "field \"\(path(context.codingPath))\" is not \(describe(type))"
    case .valueNotFound(_, let context):
      return "field \"\(path(context.codingPath))\" is null"
    case .dataCorrupted(let context):
      return "field \"\(path(context.codingPath))\" is invalid"
    @unknown default:
      return "not an inbox"
    }
  }

  /// A type as a person calls it: "a number", "a list".
  static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type, is Double.Type: "a number"
    case is Bool.Type: "true or false"
    case is [Any].Type: "a list"
    case is [String: Any].Type: "an object"
    default: "of the expected kind"
    }
  }
}
