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
      throw .unreadable(path: path, reason: error.localizedDescription)
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

  /// What a decoding error says, with where in the document it happened.
  static func describe(_ error: any Error) -> String {
    if let decoding = error as? DecodingError {
      switch decoding {
      case .dataCorrupted(let context), .keyNotFound(_, let context),
        .typeMismatch(_, let context), .valueNotFound(_, let context):
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
      @unknown default:
        return "\(decoding)"
      }
    }
    return error.localizedDescription
  }
}
