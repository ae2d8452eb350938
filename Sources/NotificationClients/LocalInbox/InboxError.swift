/// Why the local inbox could not be used. Every case names the file; none of them ever leads
/// to the file being overwritten.
///
/// ```swift
/// do { try inbox.open() } catch { print(error) }
/// // "The inbox file …/inbox.sqlite is corrupt: file is not a database. It was left untouched; …"
/// ```
public enum InboxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file is not valid inbox JSON.
  case corrupt(path: String, reason: String)
  /// The file exists but is empty.
  case empty(path: String)
  /// The file was written by a newer version of the app.
  case newerSchema(path: String, found: Int, supported: Int)
  case unreadable(path: String, reason: String)
  case notWritable(path: String, reason: String)
  case lockFailed(path: String, reason: String)
  /// A page was asked for with an offset, cursor or limit out of range.
  case invalidRequest(String)

  public var description: String {
    switch self {
    case .corrupt(let path, let reason):
      "The inbox file \(path) is corrupt: \(reason). It was left untouched; run with --recover to move it aside and start a fresh inbox."
    case .empty(let path):
      "The inbox file \(path) is empty. It was left untouched; run with --recover to start a fresh inbox."
    case .newerSchema(let path, let found, let supported):
      "The inbox file \(path) was written by a newer version (schema \(found); this version reads up to \(supported)). It was left untouched."
    case .unreadable(let path, let reason): "The inbox file \(path) cannot be read: \(reason)."
    case .notWritable(let path, let reason): "The inbox file \(path) cannot be written: \(reason)."
    case .lockFailed(let path, let reason): "The inbox file \(path) could not be locked: \(reason)."
    case .invalidRequest(let reason): reason
    }
  }
}
