import Foundation
import NotificationClients
import NotificationFeature
import Testing

/// Runs the built `notifications` executable as a subprocess, each test with its own inbox.
struct CLI {
  let folder: URL
  var inbox: URL { folder.appendingPathComponent("inbox.json") }

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  static var executable: URL {
    // The test bundle and the executable are built into the same folder.
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("notifications")
  }

  struct Result {
    var status: Int32
    var output: String
    var error: String
  }

  func callAsFunction(_ arguments: String..., useInbox: Bool = true) throws -> Result {
    try callAsFunction(arguments, useInbox: useInbox)
  }

  func callAsFunction(_ arguments: [String], useInbox: Bool = true) throws -> Result {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments + (useInbox ? ["--inbox", inbox.path] : [])
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["XDG_DATA_HOME"] = folder.path
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}

@Suite(.serialized)
struct CLITests {
  @Test func seedThenListShowsTheNotificationsNewestFirst() throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try cli("seed", "--count", "3").output == "Added 3 notifications.\n")
    let list = try cli("list")
    #expect(list.status == 0)
    let lines = list.output.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0].contains("Alert"))
    #expect(lines[3] == "3 unread")
    #expect(lines[4] == "highlighted: alert a0, contact c1, contact c2, ping p1")
  }

  @Test func listAsJSONFiltersByTypeAndUnread() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("seed", "--count", "7")
    let json = try cli("list", "--type", "ping", "--json")
    let items = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
    #expect(items?.count == 1)
    #expect(items?.first?["type"] as? String == "ping")
  }

  @Test func readUnreadDeleteAndClearChangeTheInbox() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("seed", "--count", "2")
    let ids = try JSONSerialization.jsonObject(with: Data(try cli("list", "--json").output.utf8))
      as? [[String: Any]] ?? []
    let id = ids.first?["id"] as? String ?? ""
    #expect(try cli("read", id).output == "Marked \(id) read.\n")
    #expect(try cli("list").output.contains("\n1 unread\n"))
    #expect(try cli("unread", id).status == 0)
    #expect(try cli("read", "--all").status == 0)
    #expect(try cli("list").output.hasSuffix("0 unread\n"))
    #expect(try cli("delete", id).output == "Deleted \(id).\n")
    #expect(try cli("clear").status == 0)
    #expect(try cli("list").output == "No notifications.\n0 unread\n")
  }

  @Test func showAndTapDescribeTheNotification() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let push = try cli("push", #"{"id":"p1","type":"ping","pingId":"x","contactId":"c7","title":"Hi"}"#)
    #expect(push.output == "Delivered p1: Hi\n")
    #expect(try cli("show", "p1").output.contains("opens:     ping x of contact c7"))
    #expect(try cli("tap", "p1").output == "Opened the contacts tab: contact c7, ping x\n")
  }

  @Test func openMarksEverythingAboutAnEntityReadAndListHighlightsEntities() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("push", #"{"id":"a","type":"ping","pingId":"p1","contactId":"c1"}"#)
    _ = try cli("push", #"{"id":"b","type":"role","contactId":"c1"}"#)
    _ = try cli("push", #"{"id":"c","type":"alert","alertId":"x9","priority":"high"}"#)
    let list = try cli("list").output
    #expect(list.contains("highlighted: alert x9, contact c1, ping p1"))
    #expect(list.contains("!!"))
    #expect(try cli("open", "contact", "c1").output == "Opened contact c1: marked 2 notifications read.\n")
    #expect(try cli("list").output.hasSuffix("1 unread\nhighlighted: alert x9\n"))
    #expect(try cli("open", "planet", "x").status == 64)
  }

  @Test func aLocalNoticeIsRecordedAndListed() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let notice = try cli("notice", "Message sent", "to Ada")
    #expect(notice.status == 0)
    #expect(notice.output.hasPrefix("Recorded local-"))
    let list = try cli("list").output
    #expect(list.contains("Message sent  (local)"))
    #expect(list.hasSuffix("0 unread\n"))
  }

  @Test func unknownIDsFailOnStandardError() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try cli("read", "nope")
    #expect(result.status == 1)
    #expect(result.error == "error: No notification with id nope.\n")
    #expect(result.output.isEmpty)
  }

  @Test func aMalformedPushPrintsTheParseErrorAndFails() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try cli("push", #"{"type":"ping"}"#)
    #expect(result.status == 1)
    #expect(result.error == "error: Invalid push payload: The push payload has no \"id\".\n")
  }

  @Test func aCorruptInboxIsReportedAndLeftUntouchedUntilRecovered() throws {
    let cli = try CLI()
    defer { cli.remove() }
    try Data("{not json".utf8).write(to: cli.inbox)
    let result = try cli("list")
    #expect(result.status == 1)
    #expect(result.error.contains("The inbox file \(cli.inbox.path) is corrupt"))
    #expect(try String(contentsOf: cli.inbox, encoding: .utf8) == "{not json")
    let recovered = try cli("list", "--recover")
    #expect(recovered.status == 0)
    #expect(
      recovered.output.hasPrefix(
        "The inbox was corrupt: moved it to \(cli.inbox.path).corrupt and started a fresh one.\n"))
    #expect(try String(contentsOf: cli.inbox.appendingPathExtension("corrupt"), encoding: .utf8) == "{not json")
  }

  @Test func listShowsTheFirstPageUnlessAskedForEveryNotification() throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try cli("seed", "--count", "120").status == 0)
    func ids(_ arguments: String...) throws -> [String] {
      let output = try cli(arguments + ["--json"]).output
      let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]
      return rows?.compactMap { $0["id"] as? String } ?? []
    }
    let first = try ids("list")
    #expect(first.count == 50)
    #expect(try ids("list", "--all").count == 120)
    #expect(try Array(ids("list", "--all").prefix(50)) == first)
    #expect(try ids("list", "--unread").count == 120)
    let table = try cli("list").output
    #expect(table.contains("\nThe newest 50 are shown; 'list --all' lists every notification.\n120 unread\n"))
    // A command on one notification finds it beyond the first page.
    let oldest = try #require(try ids("list", "--all").last)
    #expect(try cli("read", oldest).output == "Marked \(oldest) read.\n")
    #expect(try cli("list").output.contains("119 unread"))
    #expect(try cli("show", oldest, "--json").output.contains("\"id\" : \"\(oldest)\""))
    #expect(try cli("unread", oldest).output == "Marked \(oldest) unread.\n")
    #expect(try cli("tap", oldest).status == 0)
    #expect(try cli("delete", oldest).output == "Deleted \(oldest).\n")
    #expect(try cli("list", "--all", "--json").output.contains(oldest) == false)
    #expect(try cli("show", oldest).error == "error: No notification with id \(oldest).\n")
  }

  @Test func recoverLeavesAHealthyInboxAndItsNotificationsAlone() throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try cli("seed", "--count", "3").status == 0)
    let recovered = try cli("--recover")
    #expect(recovered.status == 0)
    #expect(recovered.output == "The inbox is healthy: nothing to recover.\n")
    let listed = try cli("list", "--json")
    #expect(listed.status == 0)
    #expect(listed.output.components(separatedBy: "\"id\"").count - 1 == 3)
  }

  @Test func badArgumentsFailWithUsage() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let unknown = try cli("frobnicate")
    #expect(unknown.status == 64)
    #expect(unknown.error.contains("Unknown command 'frobnicate'"))
    #expect(try cli("read").status == 64)
    #expect(try cli("list", "--type").status == 64)
    #expect(try cli("--help").output.contains("USAGE: notifications"))
  }

  @Test func theCLIWorksAgainstTheDevelopmentServer() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.json").path
    _ = try cli("seed", "--count", "2", "--inbox", serverInbox, useInbox: false)
    let server = Process()
    server.executableURL = CLI.executable.deletingLastPathComponent()
      .appendingPathComponent("notifications-server")
    server.arguments = ["--port", "0", "--inbox", serverInbox, "--token", "t"]
    let output = Pipe()
    server.standardOutput = output
    try server.run()
    defer {
      if server.isRunning {
        server.terminate()
        server.waitUntilExit()
      }
    }
    var firstLine = Data()
    while !firstLine.contains(UInt8(ascii: "\n")) {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      firstLine.append(byte)
    }
    let line = String(decoding: firstLine, as: UTF8.self)
    #expect(line.hasPrefix("listening on http://127.0.0.1:"))
    let url = line.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "listening on ", with: "")
    let list = try cli("list", "--server", url, "--token", "t")
    #expect(list.status == 0)
    #expect(list.output.contains("2 unread"))
    let denied = try cli("list", "--server", url, "--token", "wrong")
    #expect(denied.status == 1)
    #expect(denied.error == "error: Your session has expired. Sign in again.\n")
    #expect(try cli("seed", "--server", url).status == 64)
    // SIGTERM stops the server cleanly.
    server.terminate()
    server.waitUntilExit()
    #expect(server.terminationReason == .exit)
    #expect(server.terminationStatus == 0)
    // The server's feed was cached beside the local inbox: with the server gone it still lists.
    let offline = try cli("list", "--server", url, "--token", "t")
    #expect(offline.status == 0, "\(offline.error)")
    #expect(offline.output.contains("2 unread"))
    #expect(try cli("list").output == "No notifications.\n0 unread\n")
  }

  @Test func runPlaysAScriptOneCommandPerLine() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let script = cli.folder.appendingPathComponent("session.txt")
    try Data(
      """
      # a reproducible session
      seed --count 1
      notice "Message sent" to Ada
      read --all
      list
      """.utf8
    ).write(to: script)
    let result = try cli("run", script.path)
    #expect(result.status == 0)
    #expect(result.output.contains("Added 1 notifications."))
    #expect(result.output.contains(": Message sent"))
    #expect(result.output.contains("Marked every notification read."))
    #expect(result.output.contains("0 unread"))
    let failing = cli.folder.appendingPathComponent("bad.txt")
    try Data("read nope\nlist\n".utf8).write(to: failing)
    let bad = try cli("run", failing.path)
    #expect(bad.status == 1)
    #expect(bad.error == "error: line 1: No notification with id nope.\n")
  }

  @Test func replRunsTypedCommands() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("seed", "--count", "1")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["repl", "--inbox", cli.inbox.path]
    process.environment = ["NO_COLOR": "1", "HOME": cli.folder.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data("list\nfrobnicate\n".utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("1 unread"))
  }

  @Test func watchPrintsChangesAnotherProcessMakes() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("seed", "--count", "1")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["watch", "--max-events", "1", "--inbox", cli.inbox.path]
    process.environment = ["NO_COLOR": "1", "HOME": cli.folder.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // Give the watcher a moment to load and start polling, then change the inbox.
    Thread.sleep(forTimeInterval: 1.0)
    _ = try cli("notice", "Fire", "in the kitchen")
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("Watching 1 notifications"))
    #expect(text.contains("new:") && text.contains("Fire"))
  }

  @Test func aPushIsKeptByTheFeatureNotWrittenIntoTheInboxUntilDeleted() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let push = #"{"id":"p1","type":"alert","alertId":"a1","title":"Fire","body":"Now"}"#
    #expect(try cli("push", push).output == "Delivered p1: Fire\n")
    // The shell only sent the action: the inbox's feed does not list the push.
    let page = try await LocalInbox(url: cli.inbox).notificationClient.fetchPage(PageRequest(limit: 50))
    #expect(page.items == [])
    // Each command is a relaunch: the next one still lists it, and reads it.
    let list = try cli("list").output
    #expect(list.contains("p1  Fire"))
    #expect(list.hasSuffix("1 unread\nhighlighted: alert a1\n"))
    #expect(try cli("read", "p1").output == "Marked p1 read.\n")
    #expect(try cli("list").output.hasSuffix("0 unread\n"))
    #expect(try cli("unread", "p1").output == "Marked p1 unread.\n")
    #expect(try cli("list").output.hasSuffix("1 unread\nhighlighted: alert a1\n"))
    #expect(try cli("delete", "p1").output == "Deleted p1.\n")
    #expect(try cli("list").output == "No notifications.\n0 unread\n")
    // A late duplicate delivery does not bring it back.
    let duplicate = try cli("push", push)
    #expect(duplicate.status == 1)
    #expect(duplicate.error == "error: The push was not delivered.\n")
    #expect(try cli("list").output == "No notifications.\n0 unread\n")
  }

  @Test func tracePrintsEachActionWithTheStateChangeItCaused() throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try cli("seed", "--count", "1")
    let ids = try JSONSerialization.jsonObject(with: Data(try cli("list", "--json").output.utf8))
      as? [[String: Any]] ?? []
    let id = ids.first?["id"] as? String ?? ""
    let traced = try cli("read", id, "--trace")
    #expect(traced.status == 0)
    #expect(traced.output.contains("received action:\n  .notifications(.markAsRead(\"\(id)\"))"))
    #expect(traced.output.contains("-         isRead: false\n  +         isRead: true"))
    #expect(traced.output.hasSuffix("Marked \(id) read.\n"))
  }

  @Test func theDemoPlaysItsScriptedSession() throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try cli("demo", useInbox: false)
    #expect(result.status == 0)
    #expect(result.output.contains("→ banner: Ping from Grace — Are you there?"))
    #expect(result.output.contains("→ contacts tab, contact c1, ping p9"))
    #expect(result.output.contains("→ error shown: The server had a problem (400)."))
    #expect(result.output.contains("received action:"))
    // The pushed notification is still listed after the relaunch at the end, as read.
    #expect(result.output.hasSuffix("→ push-1 listed: true, read: true\n"))
  }
}
