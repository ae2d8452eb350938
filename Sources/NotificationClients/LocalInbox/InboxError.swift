import Foundation

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
    func sentence(_ reason: String) -> String {
      // A reason is a clause of the sentence: without its own final period.
      reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }
    return switch self {
    case .corrupt(let path, let reason):
      "The inbox file \(path) is corrupt: \(sentence(reason)). It was left untouched; run with --recover to move it aside and start a fresh inbox."
    case .empty(let path):
      "The inbox file \(path) is empty. It was left untouched; run with --recover to start a fresh inbox."
    case .newerSchema(let path, let found, let supported):
      "The inbox file \(path) was written by a newer version (schema \(found); this version reads up to \(supported)). It was left untouched."
    case .unreadable(let path, let reason): "The inbox file \(path) cannot be read: \(sentence(reason))."
    case .notWritable(let path, let reason): "The inbox file \(path) cannot be written: \(sentence(reason))."
    case .lockFailed(let path, let reason): "The inbox file \(path) could not be locked: \(sentence(reason))."
    case .invalidRequest(let reason): reason
    }
  }
}

extension InboxError {
  /// Why a file or folder operation on `path` failed, in words: Foundation on Linux describes
  /// many failures only as "The operation could not be completed. (NSCocoaErrorDomain error 256.)".
  static func reason(for error: any Error, path: String) -> String {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return "it is a folder, not a file"
    }
    // A file where a folder of the path should be.
    var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    while folder.path != "/" {
      if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
        if !isDirectory.boolValue { return "\(folder.path) is a file, not a folder" }
        break
      }
      folder.deleteLastPathComponent()
    }
    switch (error as? CocoaError)?.code {
    case .fileNoSuchFile?, .fileReadNoSuchFile?: return "there is no such file"
    case .fileReadNoPermission?, .fileWriteNoPermission?: return "permission denied"
    case .fileWriteOutOfSpace?: return "the disk is full"
    case .fileWriteVolumeReadOnly?: return "the volume is read-only"
    default: break
    }
    if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code))).lowercased()
    }
    return error.localizedDescription
  }
}
