import Foundation
import NotificationClients
import Notifications
import Testing

/// A fresh folder per test, removed afterwards.
struct TemporaryFolder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-inbox-\(UUID().uuidString)")

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The reader of the earlier JSON format, which the SQLite inbox imports.
struct InboxFileTests {
  @Test func aCorruptFileIsReportedNamingItAndNeverOverwritten() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data(#"{"schemaVersion":1,"notifications":[{"id":3}]}"#.utf8).write(to: file.url)
    #expect {
      try file.read()
    } throws: { error in
      guard case .corrupt(let path, let reason)? = error as? InboxError else { return false }
      return path == file.url.path && reason.contains("notifications")
    }
    #expect(try String(contentsOf: file.url, encoding: .utf8).contains(#""id":3"#))
  }

  @Test func anEmptyFileIsReported() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data().write(to: file.url)
    #expect(throws: InboxError.empty(path: file.url.path)) { try file.read() }
  }

  @Test func aFileFromANewerVersionIsReportedAndLeftAsItWas() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let file = InboxFile(url: folder.url.appendingPathComponent("inbox.json"))
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data(#"{"schemaVersion":9}"#.utf8).write(to: file.url)
    #expect(throws: InboxError.newerSchema(path: file.url.path, found: 9, supported: 1)) {
      try file.read()
    }
    #expect(try String(contentsOf: file.url, encoding: .utf8) == #"{"schemaVersion":9}"#)
  }
}
