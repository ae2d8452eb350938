import Foundation
import NotificationClients
import Notifications
import Testing

/// The change log through the CLI (issue #24): processes that share an inbox lose nothing, and a
/// change queued while the server is down is kept, without failing any command, until a command
/// sends it.
extension CLITests {
  /// Issue #24, item 3: 40 `push` and 40 `notice` commands, run in two loops at once on one
  /// inbox, each say they delivered or recorded, and all 80 remain. Each process wrote the
  /// whole outbox of its settings, so 33 pushes and 36 notices did.
  @Test func pushesAndNoticesFromTwoProcessesAtOnceAllRemain() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let count = 40
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for index in 0..<count {
          let payload = #"{"id":"p\#(index)","type":"system","title":"Push \#(index)"}"#
          let pushed = try await cli("push", payload)
          #expect(pushed.output == "Delivered p\(index): Push \(index)\n", "\(pushed.error)")
        }
      }
      group.addTask {
        for index in 0..<count {
          let recorded = try await cli("notice", "Notice \(index)")
          #expect(recorded.output.hasSuffix(": Notice \(index)\n"), "\(recorded.error)")
        }
      }
      try await group.waitForAll()
    }
    let listed = try await cli.listed("--all")
    let titles = Set(listed.compactMap { $0["title"] as? String })
    #expect(titles.isSuperset(of: (0..<count).map { "Notice \($0)" }))
    #expect(titles.isSuperset(of: (0..<count).map { "Push \($0)" }))
  }

  /// Issue #24, item 4: a change queued while the server is down is kept through any number of
  /// commands run offline (each one a launch: it was given up after eight, and the ninth, a
  /// plain `list`, failed), none of which fails because of it, and the first command that
  /// reaches the server sends it.
  @Test func aQueuedChangeOutlivesOfflineCommandsAndFailsNone() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "2", "--inbox", serverInbox, useInbox: false)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    let id = try #require(
      try await cli.listed("--server", url, "--token", "t").first?["id"] as? String)
    stop(server)
    let queued = try await cli("read", id, "--server", url, "--token", "t")
    #expect(queued.status == 0, "\(queued.error)")
    let note =
      "note: Cannot reach the server at \(url): 1 change is saved, and the next command that "
      + "reaches the server sends it.\n"
    for launch in 1...12 {
      let offline = try await cli("list", "--server", url, "--token", "t")
      #expect(offline.status == 0, "launch \(launch): \(offline.error)")
      #expect(offline.output.contains("\n1 unread"), "launch \(launch): \(offline.output)")
      #expect(offline.error == note, "launch \(launch)")
    }
    let port = try #require(URL(string: url)?.port)
    let (again, _) = try startServer(["--inbox", serverInbox, "--token", "t", "--port", "\(port)"])
    defer { stop(again) }
    let online = try await cli("list", "--server", url, "--token", "t")
    #expect(online.status == 0)
    #expect(online.error.isEmpty, "\(online.error)")
    let onServer = try await cli.listed("--inbox", serverInbox)
    #expect(onServer.first { $0["id"] as? String == id }?["isRead"] as? Bool == true)
  }

  /// Issue #24, item 4: a queued change the server no longer knows (another device deleted the
  /// notification meanwhile: 404) leaves the log and is told as a note; the command that sent
  /// it does not fail, and the next one does not send it again.
  @Test func aQueuedChangeTheServerNoLongerKnowsFailsNoCommand() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "3", "--inbox", serverInbox, useInbox: false)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    let id = try #require(
      try await cli.listed("--server", url, "--token", "t").first?["id"] as? String)
    stop(server)
    #expect(try await cli("read", id, "--server", url, "--token", "t").status == 0)
    // Meanwhile, on the server: the notification is deleted.
    try await LocalInbox(url: URL(fileURLWithPath: serverInbox)).notificationClient.delete(id)
    let port = try #require(URL(string: url)?.port)
    let (again, _) = try startServer(["--inbox", serverInbox, "--token", "t", "--port", "\(port)"])
    defer { stop(again) }
    let online = try await cli("list", "--server", url, "--token", "t")
    #expect(online.status == 0, "\(online.error)")
    #expect(online.output.contains("\n2 unread"), "\(online.output)")
    #expect(
      online.error
        == "note: The server refused a change an earlier command saved (read \(id)): "
        + "That notification no longer exists.\n")
    let next = try await cli("list", "--server", url, "--token", "t")
    #expect(next.status == 0)
    #expect(next.error.isEmpty, "\(next.error)")
  }
}
