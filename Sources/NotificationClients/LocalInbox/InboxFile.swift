import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file behind a local inbox: atomic, durable writes under an advisory lock, and a file
/// that is corrupt, empty or from a newer version is never overwritten.
///
/// ```swift
/// let file = InboxFile(url: URL(fileURLWithPath: "/tmp/inbox.json"))
/// try file.update { $0.notifications.append(notification) }
/// ```
public struct InboxFile: Sendable {
  public let url: URL

  /// A hook for tests: runs after the temporary file is written and before it replaces the
  /// inbox, so a test can simulate a crash at the worst moment.
  package var beforeRename: (@Sendable () throws -> Void)?

  public init(url: URL) {
    self.url = url
  }

  var path: String { url.path }
  var lockURL: URL { url.appendingPathExtension("lock") }

  /// Reads the inbox; a missing file is an empty inbox.
  public func read() throws(InboxError) -> InboxDocument {
    try typed { try withLock { try readUnlocked() } }
  }

  /// Reads, changes and writes the inbox under the lock, so two processes never lose each
  /// other's changes. Nothing is written if `body` throws or the file is not a valid inbox.
  public func update<T>(_ body: (inout InboxDocument) throws -> T) throws -> T {
    try withLock { () throws -> T in
      var document = try readUnlocked()
      let result = try body(&document)
      try writeUnlocked(document)
      return result
    }
  }

  /// Moves a bad file aside (keeping it) and starts a fresh inbox. Returns where the bad file
  /// went, or `nil` if there was nothing to move.
  public func recover() throws(InboxError) -> URL? {
    try typed { try withLock { () throws(InboxError) -> URL? in
      guard FileManager.default.fileExists(atPath: path) else { return nil }
      let stamp = ISO8601DateFormatter().string(from: Date())
        .replacingOccurrences(of: ":", with: "")
      var destination = url.appendingPathExtension("corrupt-\(stamp)")
      var counter = 1
      while FileManager.default.fileExists(atPath: destination.path) {
        counter += 1
        destination = url.appendingPathExtension("corrupt-\(stamp)-\(counter)")
      }
      do {
        try FileManager.default.moveItem(at: url, to: destination)
      } catch {
        throw .notWritable(path: path, reason: error.localizedDescription)
      }
      try writeUnlocked(InboxDocument())
      return destination
    } }
  }

  /// Runs `body`, whose only errors are ``InboxError``s, with a typed error.
  private func typed<T>(_ body: () throws -> T) throws(InboxError) -> T {
    do {
      return try body()
    } catch let error as InboxError {
      throw error
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
  }

  /// When the file last changed (modification time and size), to notice another process's
  /// writes cheaply.
  public func modificationStamp() -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let date = attributes[.modificationDate] as? Date
    else { return nil }
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    return "\(date.timeIntervalSince1970)-\(size)"
  }

  // MARK: Unlocked primitives

  func readUnlocked() throws(InboxError) -> InboxDocument {
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

  func writeUnlocked(_ document: InboxDocument) throws(InboxError) {
    let folder = url.deletingLastPathComponent()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let data = try encoder.encode(document)
      guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
        throw InboxError.notWritable(path: path, reason: "cannot create a file in \(folder.path)")
      }
      let handle = try FileHandle(forWritingTo: temporary)
      try handle.synchronize()
      try handle.close()
      try beforeRename?()
      guard rename(temporary.path, path) == 0 else {
        throw InboxError.notWritable(path: path, reason: String(cString: strerror(errno)))
      }
      Self.syncFolder(folder)
    } catch let error as InboxError {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw .notWritable(path: path, reason: error.localizedDescription)
    }
  }

  /// Runs `body` holding an exclusive `flock` on the sidecar lock file (which survives the
  /// rename of the inbox file). Errors from `body` pass through unchanged.
  func withLock<T>(_ body: () throws -> T) throws -> T {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw InboxError.notWritable(path: path, reason: error.localizedDescription)
    }
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0 else {
      throw InboxError.lockFailed(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX) == 0 else {
      throw InboxError.lockFailed(path: path, reason: String(cString: strerror(errno)))
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  static func syncFolder(_ folder: URL) {
    let descriptor = open(folder.path, O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

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
