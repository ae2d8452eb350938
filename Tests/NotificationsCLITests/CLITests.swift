import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import NotificationClients
import Notifications
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

  /// Inserts a notification titled `title` into this test's inbox, as another process (the
  /// development server, say) would.
  func insert(_ title: String) throws {
    try LocalInbox(url: inbox).insert([
      NotificationData(
        id: "other-\(title.lowercased())", type: .system, title: title, message: "",
        timestamp: Date())
    ])
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

  func callAsFunction(_ arguments: String..., useInbox: Bool = true, input: String? = nil)
    async throws -> Result
  {
    try await callAsFunction(arguments, useInbox: useInbox, input: input)
  }

  /// Runs the CLI with `arguments` (and `--inbox` this test's inbox unless `useInbox` is
  /// false), `input` on its standard input; standard output and error are captured, so that
  /// nothing a child prints reaches the test run's output.
  func callAsFunction(_ arguments: [String], useInbox: Bool = true, input: String? = nil)
    async throws -> Result
  {
    try await onOwnThread { try run(arguments, useInbox: useInbox, input: input) }
  }

  /// Runs the CLI and blocks until it exits: on a thread of its own, see ``onOwnThread(_:)``.
  private func run(_ arguments: [String], useInbox: Bool, input: String?) throws -> Result {
    let process = process(arguments + (useInbox ? ["--inbox", inbox.path] : []))
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    // A child that hangs is killed, and says so in its standard error, so that the test fails
    // naming the command instead of holding up the whole run.
    let pid = process.processIdentifier
    let limit = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.timeLimit), execute: limit)
    if let input {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
    // Read both at once: a child that fills one pipe while the test waits on the other would
    // never finish.
    let errorData = LockedData()
    let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    errorReader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    limit.cancel()
    let errorText = errorData.wait()
    let killed =
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
      ? "\n(killed after \(Self.timeLimit) s: notifications \(arguments.joined(separator: " ")))"
      : ""
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorText, as: UTF8.self) + killed)
  }

  /// How long a command may run, in seconds: the slowest takes a few under the thread
  /// sanitizer.
  static let timeLimit = 120

  /// The CLI, not started, with `arguments` as they are and the test's environment.
  func process(_ arguments: [String], environment overrides: [String: String] = [:]) -> Process {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["XDG_DATA_HOME"] = folder.path
    environment.merge(overrides) { $1 }
    process.environment = environment
    return process
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }

  /// The JSON array `list --json` (with `arguments`) prints.
  func listed(_ arguments: String...) async throws -> [[String: Any]] {
    let output = try await self(
      ["list", "--json"] + arguments, useInbox: !arguments.contains("--inbox")
    ).output
    return try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
  }
}

/// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's
/// concurrency pool. The CLI tests wait on child processes: a pool thread blocked on one takes a
/// thread from every task of the test run (the streams of the server tests among them), and two
/// take them all on a 2-core machine.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Waits until `process` exits, without blocking a thread (see ``onOwnThread(_:)``).
func exited(_ process: Process) async {
  while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
}

/// The pseudo-terminal functions: Glibc's module leaves them out (they need _XOPEN_SOURCE), so
/// they are looked up in the C library, as Darwin's are declared.
enum Terminal {
  #if canImport(Glibc)
    private static func function<F>(_ name: String, as type: F.Type) -> F {
      unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), to: type)
    }
    static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let name = function(
      "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
  #else
    static let open = posix_openpt
    static let grant = grantpt
    static let unlock = unlockpt
    static let name = ptsname
  #endif
}

/// Data one thread reads and another waits for.
final class LockedData: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  func set(_ value: Data) {
    condition.lock()
    data = value
    condition.broadcast()
    condition.unlock()
  }

  func wait() -> Data {
    condition.lock()
    defer { condition.unlock() }
    while data == nil { condition.wait() }
    return data ?? Data()
  }
}

/// A running child's standard output and error, collected as they arrive, to see what it
/// printed while it still runs.
final class LiveOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var outputData = Data()
  private var errorData = Data()

  /// Connects `process`'s standard output and error; before it runs.
  init(_ process: Process) {
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      if data.isEmpty { handle.readabilityHandler = nil }
      self?.lock.withLock { self?.outputData.append(data) }
    }
    error.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      if data.isEmpty { handle.readabilityHandler = nil }
      self?.lock.withLock { self?.errorData.append(data) }
    }
  }

  var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
  var error: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }

  /// Waits until `text` (standard output, or standard error) holds `expected`, for `timeout`
  /// seconds at most; whether it did.
  func wait(for expected: String, inError: Bool = false, timeout: TimeInterval = 20) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if (inError ? error : output).contains(expected) { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return false
  }
}

@Suite(.serialized)
struct CLITests {
  @Test func seedThenListShowsTheNotificationsNewestFirst() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let seeded = try await cli("seed", "--count", "3")
    #expect(seeded.output == "Added 3 notifications.\n")
    #expect(seeded.error.isEmpty)
    let list = try await cli("list")
    #expect(list.status == 0)
    let lines = list.output.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0].contains("Alert"))
    #expect(lines[3] == "3 unread")
    #expect(lines[4] == "highlighted: alert a0, contact c1, contact c2, ping p1")
  }

  @Test func listAsJSONFiltersByTypeAndUnread() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "7")
    let json = try await cli("list", "--type", "ping", "--json")
    let items = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
    #expect(items?.count == 1)
    #expect(items?.first?["type"] as? String == "ping")
  }

  @Test func readUnreadDeleteAndClearChangeTheInbox() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "2")
    let ids =
      try JSONSerialization.jsonObject(with: Data(try await cli("list", "--json").output.utf8))
      as? [[String: Any]] ?? []
    let id = ids.first?["id"] as? String ?? ""
    #expect(try await cli("read", id).output == "Marked \(id) read.\n")
    #expect(try await cli("list").output.contains("\n1 unread\n"))
    #expect(try await cli("unread", id).status == 0)
    #expect(try await cli("read", "--all").status == 0)
    #expect(try await cli("list").output.hasSuffix("0 unread\n"))
    #expect(try await cli("delete", id).output == "Deleted \(id).\n")
    #expect(try await cli("clear").status == 0)
    #expect(try await cli("list").output == "No notifications.\n0 unread\n")
  }

  @Test func showAndTapDescribeTheNotification() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let push = try await cli(
      "push", #"{"id":"p1","type":"ping","pingId":"x","contactId":"c7","title":"Hi"}"#)
    #expect(push.output == "Delivered p1: Hi\n")
    let shown = try await cli("show", "p1").output
    #expect(shown.contains("opens:     ping x of contact c7"))
    let tapped = try await cli("tap", "p1").output
    #expect(tapped == "Opened ping x of contact c7\n")
  }

  @Test func openMarksEverythingAboutAnEntityReadAndListHighlightsEntities() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("push", #"{"id":"a","type":"ping","pingId":"p1","contactId":"c1"}"#)
    _ = try await cli("push", #"{"id":"b","type":"role","contactId":"c1"}"#)
    _ = try await cli("push", #"{"id":"c","type":"alert","alertId":"x9","priority":"high"}"#)
    let list = try await cli("list").output
    #expect(list.contains("highlighted: alert x9, contact c1, ping p1"))
    #expect(list.contains("!!"))
    #expect(
      try await cli("open", "contact", "c1").output
        == "Opened contact c1: marked 2 notifications read.\n")
    #expect(try await cli("list").output.hasSuffix("1 unread\nhighlighted: alert x9\n"))
    let planet = try await cli("open", "planet", "x")
    #expect(planet.status == 2)
    #expect(
      planet.error.hasPrefix(
        "error: Unknown kind 'planet'. The kinds are contact, alert and ping.\n"))
    let typo = try await cli("open", "contcat", "c1")
    #expect(typo.status == 2)
    #expect(typo.error.hasPrefix("error: Unknown kind 'contcat'; did you mean 'contact'?"))
  }

  @Test func openMarksWhatIsAboutAnEntityBeyondTheFirstPageWithoutLoadingEveryPage() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("seed", "--count", "300").status == 0)
    func unreadAboutC0() async throws -> Int {
      let output = try await cli("list", "--all", "--json").output
      let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
      return rows.count { row in
        let target = row["target"] as? [String: Any]
        return row["isRead"] as? Bool == false && target?["contactId"] as? String == "c0"
      }
    }
    let before = try await unreadAboutC0()
    // Six pages of 50: most of them are past the first.
    #expect(before > 25)
    let opened = try await cli("open", "contact", "c0", "--trace")
    #expect(opened.output == "Opened contact c0: marked \(before) notifications read.\n")
    // One page loaded, then the backend named the rest.
    // Each action as the trace names it, its line breaks and indentation left out.
    let actions = opened.error.components(separatedBy: "received action:").map {
      String($0.prefix(80).filter { !$0.isWhitespace })
    }
    #expect(actions.count { $0.hasPrefix(".notifications(.pageLoaded(") } == 1)
    #expect(actions.count { $0.hasPrefix(".notifications(.loadMoreRequested") } == 0)
    #expect(actions.count { $0.hasPrefix(".notifications(.targetUnreadLoaded(") } == 1)
    #expect(try await unreadAboutC0() == 0)
    #expect(try await cli("list").output.contains("\(300 - before) unread"))
  }

  @Test func clearDeletesEveryNotificationWithoutLoadingEveryPage() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("seed", "--count", "300").status == 0)
    let cleared = try await cli("clear", "--trace")
    #expect(cleared.status == 0)
    #expect(cleared.output == "Deleted every notification.\n")
    // The first page, then one clear-all for what it listed and the pages it did not load.
    let actions = cleared.error.components(separatedBy: "received action:").map {
      String($0.prefix(80).filter { !$0.isWhitespace })
    }
    #expect(actions.count { $0.hasPrefix(".notifications(.pageLoaded(") } == 1)
    #expect(actions.count { $0.hasPrefix(".notifications(.loadMoreRequested") } == 0)
    #expect(try await cli("list", "--all").output == "No notifications.\n0 unread\n")
    #expect(try LocalInbox(url: cli.inbox).count() == 0)
  }

  /// `push`, `notice` and `watch` cost what they say, whatever the inbox holds: each loads the
  /// first page only (`notice` printed once 199 load-mores on 10,000 notifications).
  @Test func pushNoticeAndWatchLoadTheFirstPageOnly() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("seed", "--count", "300").status == 0)
    func pagesLoaded(_ trace: String) -> (first: Int, more: Int) {
      let actions = trace.components(separatedBy: "received action:").map {
        String($0.prefix(80).filter { !$0.isWhitespace })
      }
      return (
        actions.count { $0.hasPrefix(".notifications(.pageLoaded(") },
        actions.count { $0.hasPrefix(".notifications(.loadMoreRequested") }
      )
    }
    let push = try await cli(
      "push", #"{"id":"p1","type":"alert","alertId":"a1","title":"Fire"}"#, "--trace")
    #expect(push.output == "Delivered p1: Fire\n")
    #expect(pagesLoaded(push.error) == (1, 0))
    let notice = try await cli("notice", "Saved", "--trace")
    #expect(notice.output.hasPrefix("Recorded local-"))
    #expect(pagesLoaded(notice.error) == (1, 0))

    let process = cli.process(["watch", "--max-events", "1", "--trace", "--inbox", cli.inbox.path])
    let live = LiveOutput(process)
    try process.run()
    #expect(await live.wait(for: "Watching ", inError: true))
    try await Task.sleep(for: .milliseconds(500))
    try cli.insert("Flood")
    await exited(process)
    #expect(process.terminationStatus == 0)
    #expect(live.output.contains("Flood"))
    #expect(pagesLoaded(live.error) == (1, 0))
  }

  @Test func aLocalNoticeIsRecordedAndListed() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let notice = try await cli("notice", "Message sent", "to Ada")
    #expect(notice.status == 0)
    #expect(notice.output.hasPrefix("Recorded local-"))
    let list = try await cli("list").output
    #expect(list.contains("Message sent  (local)"))
    #expect(list.hasSuffix("0 unread\n"))
  }

  /// The shell only sends the action: the feature keeps the notice on the device (saved with
  /// the pushes), not in the inbox's feed, and the next run lists it.
  @Test func aLocalNoticeIsKeptByTheFeatureNotWrittenIntoTheInbox() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("notice", "Message sent").status == 0)
    let page = try await LocalInbox(url: cli.inbox).notificationClient.fetchPage(
      PageRequest(limit: 50))
    #expect(page.items.isEmpty)
    #expect(try await cli("list").output.contains("Message sent  (local)"))
  }

  /// Titles are cleaned (spaces trimmed, a line break folded) and still recorded; a blank one
  /// is refused. The CLI looked the notice up by its raw title, so these failed.
  @Test func aNoticeTitleIsCleanedAndABlankOneIsRefused() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let spaced = try await cli("notice", "  spaced title  ")
    #expect(spaced.status == 0)
    #expect(spaced.output.hasSuffix(": spaced title\n"))
    let folded = try await cli("notice", "two\nlines")
    #expect(folded.status == 0)
    #expect(!folded.output.contains("\n\n"))
    let blank = try await cli("notice", "   ")
    #expect(blank.status == 2)
    #expect(blank.error.hasPrefix("error: 'notice' needs a title that is not blank"))
    #expect(try await cli("list").output.hasSuffix("0 unread\n"))
  }

  @Test func unknownIDsFailOnStandardError() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "2")
    // Every command on one notification says the same (read and unread once differed).
    for command in ["read", "unread", "delete", "show", "tap"] {
      let result = try await cli(command, "nope")
      #expect(result.status == 1, "\(command)")
      #expect(result.error == "error: No notification with id nope.\n", "\(command)")
      #expect(result.output.isEmpty, "\(command)")
    }
  }

  /// An id a reader cannot see (blank, or with spaces at its ends) is quoted. (`delete ' '`
  /// said "No notification with id  .")
  @Test func anUnknownIDThatIsBlankIsQuoted() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    let blank = try await cli("delete", " ")
    #expect(blank.status == 1)
    #expect(blank.error == "error: No notification with id \" \".\n")
    let padded = try await cli("read", "n1 ")
    #expect(padded.error == "error: No notification with id \"n1 \".\n")
  }

  @Test func aMalformedPushPrintsTheParseErrorAndFails() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try await cli("push", #"{"type":"ping"}"#)
    #expect(result.status == 1)
    #expect(result.error == "error: Invalid push payload: The push payload has no \"id\".\n")
  }

  @Test func aCorruptInboxIsReportedAndLeftUntouchedUntilRecovered() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    try Data("{not json".utf8).write(to: cli.inbox)
    let result = try await cli("list")
    #expect(result.status == 1)
    #expect(result.error.contains("The inbox file \(cli.inbox.path) is corrupt"))
    #expect(try String(contentsOf: cli.inbox, encoding: .utf8) == "{not json")
    // Recovering before a command says so on standard error: the command's output (JSON here)
    // is only the command's.
    let recovered = try await cli("list", "--recover", "--json")
    #expect(recovered.status == 0)
    #expect(
      recovered.error
        == "The inbox was corrupt: moved it to \(cli.inbox.path).corrupt and started a fresh one.\n"
    )
    #expect(recovered.output == "[]\n")
    #expect(
      try String(contentsOf: cli.inbox.appendingPathExtension("corrupt"), encoding: .utf8)
        == "{not json")
  }

  @Test func listShowsTheFirstPageUnlessAskedForEveryNotification() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("seed", "--count", "120").status == 0)
    func ids(_ arguments: String...) async throws -> [String] {
      let output = try await cli(arguments + ["--json"]).output
      let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]
      return rows?.compactMap { $0["id"] as? String } ?? []
    }
    let first = try await ids("list")
    #expect(first.count == 50)
    #expect(try await ids("list", "--all").count == 120)
    #expect(try await Array(ids("list", "--all").prefix(50)) == first)
    // A filter lists the first page of what passes, asked of the inbox; --all every one.
    #expect(try await ids("list", "--unread") == first)
    #expect(try await ids("list", "--unread", "--all").count == 120)
    let unreadTable = try await cli("list", "--unread").output
    #expect(
      unreadTable.contains("\nThe newest 50 are shown; 'list --all --unread' lists every one.\n"))
    let table = try await cli("list").output
    #expect(
      table.contains(
        "\nThe newest 50 are shown; 'list --all' lists every notification.\n120 unread\n"))
    // A command on one notification finds it beyond the first page.
    let oldest = try #require(try await ids("list", "--all").last)
    #expect(try await cli("read", oldest).output == "Marked \(oldest) read.\n")
    #expect(try await cli("list").output.contains("119 unread"))
    #expect(try await cli("show", oldest, "--json").output.contains("\"id\" : \"\(oldest)\""))
    #expect(try await cli("unread", oldest).output == "Marked \(oldest) unread.\n")
    #expect(try await cli("tap", oldest).status == 0)
    #expect(try await cli("delete", oldest).output == "Deleted \(oldest).\n")
    #expect(try await cli("list", "--all", "--json").output.contains(oldest) == false)
    #expect(try await cli("show", oldest).error == "error: No notification with id \(oldest).\n")
  }

  @Test func recoverLeavesAHealthyInboxAndItsNotificationsAlone() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    #expect(try await cli("seed", "--count", "3").status == 0)
    let recovered = try await cli("--recover")
    #expect(recovered.status == 0)
    #expect(recovered.output == "The inbox is healthy: nothing to recover.\n")
    let listed = try await cli("list", "--json")
    #expect(listed.status == 0)
    #expect(listed.output.components(separatedBy: "\"id\"").count - 1 == 3)
  }

  @Test func badArgumentsFailWithUsage() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let unknown = try await cli("frobnicate")
    #expect(unknown.status == 2)
    #expect(
      unknown.error.hasPrefix("error: Unknown command 'frobnicate'.\nThe commands are demo, list,"))
    #expect(unknown.error.hasSuffix("\nRun 'notifications --help' for usage.\n"))
    #expect(unknown.output.isEmpty)
    #expect(try await cli("read").status == 2)
    #expect(try await cli("list", "--type").status == 2)
    #expect(try await cli("--help").output.contains("USAGE: notifications"))
    #expect(try await cli(useInbox: false).status == 2)
  }

  @Test func unknownCommandsAndOptionsAreRefusedWithWhatIsValidAndTheClosestMatch() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "3")
    func refused(_ arguments: String..., saying expected: String...) async throws {
      let result = try await cli(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.output.isEmpty, "\(arguments)")
      for text in expected { #expect(result.error.contains(text), "\(arguments): \(result.error)") }
    }
    try await refused("lsit", saying: "error: Unknown command 'lsit'; did you mean 'list'?\n")
    try await refused(
      "list", "--frobnicate",
      saying: "error: Unknown option '--frobnicate' for 'list'.\n",
      "'list' takes --all, --type, --unread, --json, --inbox,",
      "Run 'notifications list --help' for usage.")
    try await refused(
      "list", "--unred", saying: "Unknown option '--unred' for 'list'; did you mean '--unread'?")
    try await refused("seed", "--json", saying: "Unknown option '--json' for 'seed'")
    try await refused("list", "-x", saying: "Unknown option '-x' for 'list'")
    try await refused(
      "list", "--type", "bogus",
      saying:
        "error: Unknown type 'bogus'.\nThe types are alert, ping, role, added, removed, check_in, system.\n"
    )
    try await refused("list", "--type", "Ping", saying: "Unknown type 'Ping'; did you mean 'ping'?")
    try await refused("list", "--type", "--json", saying: "--type needs a value (alert, ping,")
    try await refused("list", "--json=yes", saying: "--json takes no value")
    try await refused("list", "extra", saying: "'list' takes no arguments, but was given 1")
    try await refused(
      "show", "a", "b", saying: "'show' takes one notification id, but was given 2 arguments")
    try await refused(
      "watch", "--max-events", "abc", saying: "--max-events takes a whole number from 1, not 'abc'")
    try await refused(
      "watch", "--max-events", "0", saying: "--max-events takes a whole number from 1, not '0'")
    try await refused("seed", "--count", "0", saying: "--count takes 1 to 10000, not '0'")
    try await refused("seed", "--count", "many", saying: "--count takes 1 to 10000, not 'many'")
    try await refused("list", "--token", "t", saying: "--token goes with --server URL")
    try await refused("list", "--server", "ftp://x", saying: "--server needs an http(s) URL")
    try await refused("help", "nope", saying: "Unknown command 'nope'")
    // An option given twice kept one of them; an unknown one beside --help was ignored.
    try await refused(
      "list", "--type", "alert", "--type", "ping",
      saying: "error: --type is given twice; give it once\n")
    try await refused(
      "list", "--help", "--bogus", saying: "error: Unknown option '--bogus' for 'list'.")
    try await refused(
      "notice", saying: "error: 'notice' needs TITLE [MESSAGE]\n",
      "Run 'notifications notice --help' for usage.")
    try await refused("--version", "list", saying: "error: --version goes alone")
    // Nothing was changed by a refused command line.
    #expect(try await cli.listed().count == 3)
  }

  @Test func versionIsPrinted() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try await cli("--version", useInbox: false)
    #expect(result.status == 0)
    #expect(result.output == "notifications 0.23.0 (Loom, Swift 6)\n")
    #expect(result.error.isEmpty)
  }

  /// The marks of a list are explained where a person looks: `--help` and `list --help`.
  @Test func theHelpExplainsTheMarksOfAList() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    for arguments in [["--help"], ["list", "--help"]] {
      let help = try await cli(arguments, useInbox: false).output
      for mark in [
        "●   unread", "!!  high priority", "!   alert", "@  ping", "R  role", "+  added",
        "-  removed", "✓   check-in", "i  system", "?  a type this version does not know",
        "(local)  a notice kept on this device only",
      ] {
        #expect(help.contains(mark), "\(arguments): \(mark)")
      }
    }
    // README says the same.
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
    for mark in [
      "`●` unread", "`!!` high priority", "`!` alert", "`@` ping", "`R` role", "`+` added",
      "`-` removed", "`✓` check-in", "`i` system", "`?` a type this version",
      "`(local)` a notice kept on this device only",
    ] {
      #expect(readme.contains(mark), "README: \(mark)")
    }
  }

  /// Output that cannot be written is a failed command: `list --all > /dev/full` exited 0 with
  /// the list lost.
  @Test func anOutputThatCannotBeWrittenFailsTheCommand() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "30")
    guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return }
    let result = try await onOwnThread { () -> (Int32, String) in
      let process = cli.process(["list", "--all", "--inbox", cli.inbox.path])
      let error = Pipe()
      process.standardOutput = full
      process.standardError = error
      try process.run()
      let text = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }
    #expect(result.0 == 1)
    #expect(result.1 == "error: Cannot write the output: no space left on device.\n")
  }

  /// A zero-byte file is not an inbox: it used to become one silently.
  @Test func anEmptyFileIsRefusedAndLeftAlone() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let empty = cli.folder.appendingPathComponent("empty.sqlite")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    let result = try await cli("list", "--inbox", empty.path, useInbox: false)
    #expect(result.status == 1)
    #expect(
      result.error
        == "error: The inbox file \(empty.path) is empty. It was left untouched; run with "
        + "--recover to start a fresh inbox.\n")
    #expect(try Data(contentsOf: empty).isEmpty)
  }

  /// An inbox in a file and folder the process may not write is read (a WAL database that SQLite
  /// refused even to read: "SQLite error 8"), and a change to it says it is read-only. Root
  /// writes whatever the permissions say: as root, the CLI runs as `nobody` through `setpriv`
  /// (skipped where there is none); as anyone else, as itself.
  @Test(
    .enabled(
      if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "as root, only setpriv can run the CLI without write permission"))
  func aReadOnlyInboxCanBeReadAndSaysSoWhenChanged() async throws {
    let cli = try CLI()
    defer {
      chmod(cli.folder.path, 0o755)
      cli.remove()
    }
    let url = cli.folder.appendingPathComponent("inbox.sqlite")
    _ = try await cli("seed", "--count", "3", "--inbox", url.path, useInbox: false)
    chmod(url.path, 0o444)
    chmod(cli.folder.path, 0o555)
    func withoutWriteAccess(_ arguments: String...) async throws -> (Int32, String, String) {
      try await onOwnThread {
        let process = Process()
        if getuid() == 0 {
          process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
          process.arguments =
            ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path]
            + arguments + ["--inbox", url.path]
        } else {
          process.executableURL = CLI.executable
          process.arguments = arguments + ["--inbox", url.path]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["XDG_DATA_HOME"] = cli.folder.path
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
          process.terminationStatus, String(decoding: text, as: UTF8.self),
          String(decoding: errorText, as: UTF8.self)
        )
      }
    }
    // The CLI (built under /work, readable by all) must be reachable by nobody, under root.
    let listed = try await withoutWriteAccess("list")
    try #require(!listed.2.contains("Permission denied"), "the CLI cannot run as nobody here")
    #expect(listed.0 == 0, "\(listed.2)")
    #expect(listed.1.contains("3 unread"), "\(listed.1)")
    let json = try await withoutWriteAccess("list", "--json")
    let items = try JSONSerialization.jsonObject(with: Data(json.1.utf8)) as? [[String: Any]]
    let id = try #require(items?.first?["id"] as? String)
    let changed = try await withoutWriteAccess("read", id)
    #expect(changed.0 == 1)
    #expect(changed.2.contains("is read-only"), "\(changed.2)")
  }

  @Test func everyCommandHasHelp() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let commands = [
      "demo", "list", "show", "read", "unread", "delete", "clear", "push", "tap", "open", "notice",
      "seed", "watch", "run", "repl", "help",
    ]
    let overview = try await cli("--help")
    #expect(overview.status == 0)
    #expect(
      overview.output.contains(
        "Exit status: 0 on success, 1 when a command fails, 2 when the command line is wrong."))
    for command in commands {
      #expect(overview.output.contains("\n  \(command)"), "\(command)")
      for help in [
        try await cli([command, "--help"], useInbox: false),
        try await cli([command, "-h"], useInbox: false),
        try await cli(["help", command], useInbox: false),
      ] {
        #expect(help.status == 0, "\(command)")
        #expect(
          help.output.hasPrefix("USAGE: notifications \(command)"), "\(command): \(help.output)")
        #expect(help.error.isEmpty, "\(command)")
      }
    }
    #expect(
      try await cli("list", "--help").output.contains(
        "  --type TYPE     only this type: alert, ping,"))
    // Help wins over the rest of the line, but not over a mistake in it.
    #expect(try await cli("list", "--all", "--help").status == 0)
    #expect(try await cli("list", "--frobnicate", "--help").status == 2)
  }

  /// Starts `notifications-server` on a free port with `arguments`; returns it and its URL.
  func startServer(_ arguments: [String]) throws -> (Process, String) {
    let server = Process()
    server.executableURL = CLI.executable.deletingLastPathComponent()
      .appendingPathComponent("notifications-server")
    server.arguments = ["--port", "0"] + arguments
    let output = Pipe()
    server.standardOutput = output
    server.standardError = FileHandle.nullDevice
    try server.run()
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
    return (server, url)
  }

  func stop(_ server: Process) {
    if server.isRunning {
      server.terminate()
      server.waitUntilExit()
    }
  }

  @Test func theCLIWorksAgainstTheDevelopmentServer() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.json").path
    _ = try await cli("seed", "--count", "2", "--inbox", serverInbox, useInbox: false)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    defer { stop(server) }
    let list = try await cli("list", "--server", url, "--token", "t")
    #expect(list.status == 0)
    #expect(list.output.contains("2 unread"))
    let seed = try await cli("seed", "--server", url)
    #expect(seed.status == 2)
    #expect(seed.error.hasPrefix("error: 'seed' works on the local inbox only, not with --server;"))
    // SIGTERM stops the server cleanly.
    server.terminate()
    server.waitUntilExit()
    #expect(server.terminationReason == .exit)
    #expect(server.terminationStatus == 0)
    // The server's feed was cached beside the local inbox: with the server gone it still lists.
    let offline = try await cli("list", "--server", url, "--token", "t")
    #expect(offline.status == 0, "\(offline.error)")
    #expect(offline.output.contains("2 unread"))
    #expect(try await cli("list").output == "No notifications.\n0 unread\n")
  }

  /// Account A clears all while the server is down; account B then uses the same server: A's
  /// queued clear-all stays A's. With one cache per server address, B's command sent it with
  /// B's token and deleted B's notifications.
  @Test func aChangeQueuedForOneAccountIsNotSentForAnother() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "3", "--inbox", serverInbox, useInbox: false)
    let (first, url) = try startServer(["--inbox", serverInbox, "--token", "a"])
    #expect(try await cli("list", "--server", url, "--token", "a").output.contains("3 unread"))
    stop(first)
    let queued = try await cli("clear", "--server", url, "--token", "a")
    #expect(queued.error.contains("1 change is saved"), "\(queued.error)")
    // The same address, now serving account B.
    let parts: [Substring] = url.split(separator: ":")
    let port = String(parts[parts.count - 1])
    let (second, _) = try startServer(["--inbox", serverInbox, "--token", "b", "--port", port])
    defer { stop(second) }
    let listed = try await cli("list", "--server", url, "--token", "b")
    #expect(listed.status == 0, "\(listed.error)")
    #expect(listed.output.contains("3 unread"), "\(listed.output)")
    #expect(try await cli("list", "--server", url, "--token", "b").output.contains("3 unread"))
  }

  /// An id that is not one is a usage error before anything is opened: `delete ''` used to
  /// print "Deleted ." and delete every notification on the server.
  @Test func anIDThatIsNotOneIsAUsageErrorAndTheServerKeepsEverything() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "5", "--inbox", serverInbox, useInbox: false)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    defer { stop(server) }
    let refusals: [([String], String)] = [
      (["delete", ""], "error: '' is not an id: an id is not empty"),
      (["delete", "."], "error: '.' is not an id: an id is not '.' or '..'"),
      (["delete", ".."], "error: '..' is not an id: an id is not '.' or '..'"),
      (["read", ""], "error: '' is not an id: an id is not empty"),
      (["unread", "a\tb"], "error: 'a\tb' is not an id: an id has no control characters"),
      (["show", ""], "error: '' is not an id: an id is not empty"),
      (["tap", "."], "error: '.' is not an id: an id is not '.' or '..'"),
      (["open", "contact", ""], "error: '' is not an id: an id is not empty"),
      (["read", "--all", "n1"], "error: 'read' takes a notification id or --all, not both"),
    ]
    for (arguments, expected) in refusals {
      let result = try await cli(arguments + ["--server", url, "--token", "t"])
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.hasPrefix(expected + "\n"), "\(arguments): \(result.error)")
      #expect(result.output.isEmpty, "\(arguments)")
    }
    let list = try await cli("list", "--server", url, "--token", "t")
    #expect(list.output.contains("5 unread"), "\(list.output)")
  }

  @Test func serverErrorsSayWhatToFix() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "2", "--inbox", serverInbox, useInbox: false)
    func fails(_ arguments: String..., saying expected: String) async throws {
      let result = try await cli(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error == "error: \(expected)\n", "\(arguments)")
      #expect(result.output.isEmpty, "\(arguments)")
    }
    // Not "The server had a problem (400)": the request was refused.
    let (refusing, refusingURL) = try startServer([
      "--inbox", serverInbox, "--fail-next", "1000:400",
    ])
    try await fails(
      "list", "--server", refusingURL, saying: "The server refused the request (400).")
    stop(refusing)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    defer { stop(server) }
    // Not "Your session has expired. Sign in again.": there is no session to sign in to.
    try await fails(
      "list", "--server", url,
      saying: "The server at \(url) needs a token: pass it with --token.")
    try await fails(
      "list", "--server", url, "--token", "wrong",
      saying: "The server at \(url) refused the token: check the --token value.")
    // Not "That notification no longer exists.".
    try await fails(
      "list", "--server", url + "/nope", "--token", "t",
      saying:
        "The server at \(url)/nope does not serve the notifications API (404): check the --server URL."
    )
    try await fails(
      "read", "nope", "--server", url, "--token", "t", saying: "No notification with id nope.")
    try await fails(
      "unread", "nope", "--server", url, "--token", "t", saying: "No notification with id nope.")
    stop(server)
    // Not "You appear to be offline. Changes will be sent when you reconnect.": nothing is
    // cached for this server in a fresh folder, and list changes nothing.
    let fresh = try CLI()
    defer { fresh.remove() }
    let down = try await fresh("list", "--server", url, "--token", "t")
    #expect(down.status == 1)
    #expect(
      down.error
        == "error: Cannot reach the server at \(url): check that it is running and that the --server URL is right.\n"
    )
  }

  @Test func aChangeTheServerCannotTakeNowIsSavedAndSentByTheNextCommand() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let serverInbox = cli.folder.appendingPathComponent("server.sqlite").path
    _ = try await cli("seed", "--count", "2", "--inbox", serverInbox, useInbox: false)
    let (server, url) = try startServer(["--inbox", serverInbox, "--token", "t"])
    let id = try #require(
      try await cli.listed("--server", url, "--token", "t").first?["id"] as? String)
    stop(server)
    // Not a wait of minutes for the outbox's backoff, ending in "could not be sent": the
    // change is saved for the next command, and a note on stderr says so.
    let started = Date()
    let offline = try await cli("read", id, "--server", url, "--token", "t")
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(offline.status == 0)
    #expect(offline.output == "Marked \(id) read.\n")
    #expect(
      offline.error
        == "note: Cannot reach the server at \(url): 1 change is saved, and the next command that reaches the server sends it.\n"
    )
    // The server again, on the same port (the cache and its outbox are the server's): the next
    // command sends the change.
    let port = try #require(URL(string: url)?.port)
    let (again, _) = try startServer(["--inbox", serverInbox, "--token", "t", "--port", "\(port)"])
    defer { stop(again) }
    let online = try await cli("list", "--server", url, "--token", "t")
    #expect(online.status == 0)
    #expect(online.error.isEmpty)
    let onServer = try await cli.listed("--inbox", serverInbox)
    #expect(onServer.first { $0["id"] as? String == id }?["isRead"] as? Bool == true)
  }

  @Test func inboxErrorsSayWhatIsWrongInWords() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    func error(inbox: URL) async throws -> String {
      let result = try await cli("list", "--inbox", inbox.path, useInbox: false)
      #expect(result.status == 1)
      for leak in ["CodingKeys", "NSCocoaErrorDomain", "..", "SQLite error"] {
        #expect(!result.error.contains(leak), "\(result.error)")
      }
      return result.error
    }
    let missingField = cli.folder.appendingPathComponent("fields.json")
    try Data(#"{"schemaVersion":1,"notifications":[{"id":"x"}]}"#.utf8).write(to: missingField)
    #expect(
      try await error(inbox: missingField).contains("is corrupt: missing field \"notifications[0].")
    )
    let notJSON = cli.folder.appendingPathComponent("garbage.json")
    try Data("garbage".utf8).write(to: notJSON)
    #expect(
      try await error(inbox: notJSON).contains("is corrupt: not valid JSON. It was left untouched;")
    )
    let folder = cli.folder.appendingPathComponent("folder.json")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(try await error(inbox: folder).contains("cannot be read: it is a folder, not a file."))
    let file = cli.folder.appendingPathComponent("file")
    try Data().write(to: file)
    #expect(
      try await error(inbox: file.appendingPathComponent("inbox.sqlite"))
        .contains("cannot be written: \(file.path) is a file, not a folder."))
  }

  @Test func runPlaysAScriptOneCommandPerLine() async throws {
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
    let result = try await cli("run", script.path)
    #expect(result.status == 0)
    #expect(result.error.isEmpty)
    #expect(result.output.contains("Added 1 notification."))
    #expect(result.output.contains(": Message sent"))
    #expect(result.output.contains("Marked every notification read."))
    #expect(result.output.contains("0 unread"))
    let failing = cli.folder.appendingPathComponent("bad.txt")
    try Data("read nope\nlist\n".utf8).write(to: failing)
    let bad = try await cli("run", failing.path)
    #expect(bad.status == 1)
    #expect(bad.error == "error: line 1: No notification with id nope.\n")
    let missing = try await cli("run", cli.folder.appendingPathComponent("none.txt").path)
    #expect(missing.status == 1)
    #expect(missing.error.hasSuffix("none.txt: there is no such file.\n"))
  }

  @Test func runKeepsJSONAndQuotedWordsReadsCRLFAndNamesTheFailingLine() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let script = cli.folder.appendingPathComponent("crlf.txt")
    let lines = [
      #"push {"id":"p1","type":"ping","pingId":"x","contactId":"c7","title":"Hi there"}"#,
      #"push '{"id":"p2","type":"alert","alertId":"a1","title":"Fire"}'"#,
      "# a comment",
      "read p1",
      "show p1",
      "show nope",
      "list",
    ]
    try Data(lines.joined(separator: "\r\n").utf8).write(to: script)
    let result = try await cli("run", script.path)
    #expect(result.status == 1)
    #expect(!result.output.contains("\r"))
    #expect(
      result.output.hasPrefix(
        "Delivered p1: Hi there\nDelivered p2: Fire\nMarked p1 read.\nHi there\n"))
    #expect(result.error == "error: line 6: No notification with id nope.\n")
  }

  @Test func aScriptLineCannotChangeTheSession() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let other = cli.folder.appendingPathComponent("other.sqlite").path
    for (line, expected) in [
      (
        "seed --inbox \(other)",
        "error: line 2: --inbox applies to the whole session: pass it to 'run' or 'repl', not to one line\n"
      ),
      ("list --trace", "error: line 2: --trace applies to the whole session"),
      (
        "watch",
        "error: line 2: 'watch' cannot run inside a script or the repl: run it on its own\n"
      ),
      ("notice \"unclosed", "error: line 2: A \" quote is not closed\n"),
      ("push {\"id\":\"p1\"", "error: line 2: The JSON on this line is not closed"),
    ] {
      let script = cli.folder.appendingPathComponent("script.txt")
      try Data("list\n\(line)\nseed\n".utf8).write(to: script)
      let result = try await cli("run", script.path)
      #expect(result.status == 2, "\(line)")
      #expect(result.error.hasPrefix(expected), "\(line): \(result.error)")
    }
    #expect(!FileManager.default.fileExists(atPath: other))
    #expect(try await cli.listed().isEmpty)
  }

  @Test func replRunsTypedCommands() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    let result = try await cli(
      "repl", input: "list\nfrobnicate\nshow nope\n\nlist\nhelp\nquit\nlist\n")
    #expect(result.status == 0)
    // Piped input gets no prompt.
    #expect(!result.output.contains("notifications>"))
    // Each error names its own line, and the next line still works.
    #expect(result.error.hasPrefix("error: line 2: Unknown command 'frobnicate'.\n"))
    #expect(result.error.contains("\nerror: line 3: No notification with id nope.\n"))
    #expect(result.output.components(separatedBy: "1 unread").count - 1 == 2)
    #expect(result.output.contains("  exit, quit              leave (so does Ctrl-D)"))
    // 'exit' leaves too.
    let exited = try await cli("repl", input: "exit\nlist\n")
    #expect(exited.status == 0)
    #expect(exited.output.isEmpty)
    #expect(exited.error.isEmpty)
  }

  @Test func watchPrintsChangesAnotherProcessMakes() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    let process = cli.process(["watch", "--max-events", "1", "--inbox", cli.inbox.path])
    let live = LiveOutput(process)
    try process.run()
    #expect(await live.wait(for: "Watching 1 notification (Ctrl-C to stop)", inError: true))
    // Give the watcher a moment to start polling, then change the inbox.
    try await Task.sleep(for: .milliseconds(500))
    try cli.insert("Fire")
    await exited(process)
    #expect(process.terminationStatus == 0)
    #expect(await live.wait(for: "Fire"))
    #expect(live.output.hasPrefix("new:"))
  }

  @Test func watchPrintsEachChangeIntoAPipeAsItHappens() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    // No --max-events: the watcher runs until stopped, so whatever is read came through the
    // pipe while it ran (block-buffered output would arrive only at exit).
    let process = cli.process(["watch", "--inbox", cli.inbox.path])
    let live = LiveOutput(process)
    try process.run()
    defer {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
    }
    #expect(await live.wait(for: "Watching 1 notification", inError: true))
    // What watch says about itself goes to stderr: stdout is only the changes.
    #expect(live.output.isEmpty)
    try await Task.sleep(for: .milliseconds(500))
    try cli.insert("Fire")
    #expect(await live.wait(for: "Fire\n", timeout: 10))
    #expect(process.isRunning)
    try cli.insert("Flood")
    #expect(await live.wait(for: "Flood\n", timeout: 10))
    #expect(live.output.split(separator: "\n").allSatisfy { $0.hasPrefix("new:") })
  }

  @Test func aPushIsKeptByTheFeatureNotWrittenIntoTheInboxUntilDeleted() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let push = #"{"id":"p1","type":"alert","alertId":"a1","title":"Fire","body":"Now"}"#
    #expect(try await cli("push", push).output == "Delivered p1: Fire\n")
    // The shell only sent the action: the inbox's feed does not list the push.
    let page = try await LocalInbox(url: cli.inbox).notificationClient.fetchPage(
      PageRequest(limit: 50))
    #expect(page.items == [])
    // Each command is a relaunch: the next one still lists it, and reads it.
    let list = try await cli("list").output
    #expect(list.contains("p1  Fire"))
    #expect(list.hasSuffix("1 unread\nhighlighted: alert a1\n"))
    #expect(try await cli("read", "p1").output == "Marked p1 read.\n")
    #expect(try await cli("list").output.hasSuffix("0 unread\n"))
    #expect(try await cli("unread", "p1").output == "Marked p1 unread.\n")
    #expect(try await cli("list").output.hasSuffix("1 unread\nhighlighted: alert a1\n"))
    #expect(try await cli("delete", "p1").output == "Deleted p1.\n")
    #expect(try await cli("list").output == "No notifications.\n0 unread\n")
    // A late duplicate delivery does not bring it back.
    let duplicate = try await cli("push", push)
    #expect(duplicate.status == 1)
    #expect(duplicate.error == "error: The push was not delivered.\n")
    #expect(try await cli("list").output == "No notifications.\n0 unread\n")
  }

  @Test func tracePrintsEachActionWithTheStateChangeItCaused() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    let ids =
      try JSONSerialization.jsonObject(with: Data(try await cli("list", "--json").output.utf8))
      as? [[String: Any]] ?? []
    let id = ids.first?["id"] as? String ?? ""
    let traced = try await cli("read", id, "--trace")
    #expect(traced.status == 0)
    // The trace is a diagnostic: on standard error, leaving the command's output alone.
    #expect(traced.error.contains("received action:\n  .notifications(.markAsRead(\"\(id)\"))"))
    #expect(traced.error.contains("-         isRead: false\n  +         isRead: true"))
    #expect(traced.output == "Marked \(id) read.\n")
  }

  @Test func jsonStaysValidWhateverElseIsAsked() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let empty = try await cli("list", "--json")
    #expect(empty.output == "[]\n")
    _ = try await cli("seed", "--count", "2")
    let traced = try await cli("list", "--json", "--trace")
    #expect(traced.status == 0)
    #expect(traced.error.contains("received action:"))
    let rows = try JSONSerialization.jsonObject(with: Data(traced.output.utf8)) as? [[String: Any]]
    #expect(rows?.count == 2)
    let id = try #require(rows?.first?["id"] as? String)
    let shown = try await cli("show", id, "--json", "--trace")
    #expect(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) is [String: Any])
  }

  /// Runs the CLI with its standard output on a pseudo-terminal; returns what it printed.
  func onTerminal(_ cli: CLI, _ arguments: [String], environment: [String: String]) async throws
    -> String
  {
    let primary = Terminal.open(O_RDWR | O_NOCTTY)
    #expect(primary >= 0 && Terminal.grant(primary) == 0 && Terminal.unlock(primary) == 0)
    defer { close(primary) }
    let name = try #require(Terminal.name(primary).map { String(cString: $0) })
    let secondary = open(name, O_RDWR | O_NOCTTY)
    try #require(secondary >= 0)
    let process = cli.process(arguments + ["--inbox", cli.inbox.path], environment: environment)
    process.standardOutput = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
    process.standardError = FileHandle.nullDevice
    try process.run()
    await exited(process)
    close(secondary)
    // The child has exited: what it wrote waits in the terminal; reading past it fails.
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 4_096)
    var pending = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
    while poll(&pending, 1, 200) > 0 {
      let count = read(primary, &buffer, buffer.count)
      guard count > 0 else { break }
      output.append(contentsOf: buffer[..<count])
    }
    return String(decoding: output, as: UTF8.self)
  }

  @Test func colourOnATerminalUnlessNoColorHasAValue() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    _ = try await cli("seed", "--count", "1")
    let escape = "\u{1B}["
    // An empty NO_COLOR does not count (no-color.org): colour stays on.
    #expect(
      try await onTerminal(cli, ["list"], environment: ["NO_COLOR": "", "TERM": "xterm"]).contains(
        escape))
    #expect(
      !(try await onTerminal(cli, ["list"], environment: ["NO_COLOR": "1", "TERM": "xterm"])
        .contains(escape)))
    #expect(
      !(try await onTerminal(cli, ["list"], environment: ["NO_COLOR": "", "TERM": "dumb"]).contains(
        escape)))
    // Never into a pipe.
    let piped = cli.process(
      ["list", "--inbox", cli.inbox.path], environment: ["NO_COLOR": "", "TERM": "xterm"])
    let live = LiveOutput(piped)
    try piped.run()
    await exited(piped)
    #expect(await live.wait(for: "1 unread"))
    #expect(!live.output.contains(escape))
  }

  @Test func seedingTwiceAddsToTheInbox() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    // Within one second: the ids of the first seed were once made from the time in seconds.
    #expect(try await cli("seed", "--count", "3").output == "Added 3 notifications.\n")
    #expect(try await cli("seed", "--count", "3").output == "Added 3 notifications.\n")
    #expect(try await cli.listed().count == 6)
    #expect(try await cli("seed", "--count", "1").output == "Added 1 notification.\n")
  }

  @Test func listAndShowStayTidy() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    // At most 8 highlighted entities, then how many more.
    _ = try await cli("seed", "--count", "60")
    let lines = try await cli("list").output.split(separator: "\n")
    let highlighted = try #require(lines.last)
    #expect(highlighted.hasPrefix("highlighted: "))
    #expect(highlighted.components(separatedBy: ", ").count == 8)
    #expect(highlighted.range(of: #" and \d+ more$"#, options: .regularExpression) != nil)
    // A notification without a message shows no empty line for it.
    _ = try await cli("push", #"{"id":"q","type":"system","title":"Hi"}"#)
    let shown = try await cli("show", "q").output
    #expect(shown.hasPrefix("Hi\n\nid:        q\n"))
  }

  /// The demo's sections, in order.
  static let demoSections = [
    "Launch: the app loads the inbox", "A push arrives while the app is open",
    "The person taps the push", "Mark all as read", "The server refuses a change",
    "The network is down", "Relaunch: a new session on the same inbox",
  ]

  @Test func theDemoTellsAShortStoryUnderHeaders() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let result = try await cli("demo", useInbox: false)
    #expect(result.status == 0)
    #expect(result.error == "")
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.count < 50, "\(lines.count) lines")
    #expect(!result.output.contains("received action:"))
    // Nothing before the first header; each header has a rule and, but for the first, a blank
    // line before it.
    let headers: [Int] = lines.indices.filter { lines[$0].hasPrefix("──") }
    #expect(headers.first == 0)
    let headerLines: [String] = headers.map { lines[$0] }
    let ruled: [Bool] = headerLines.map { line in
      line.range(of: #"^── (.+) ─{3,}$"#, options: .regularExpression) != nil
    }
    #expect(!ruled.contains(false))
    let names: [String] = headerLines.map { line in
      String(line.dropFirst(3).prefix { $0 != "─" }.dropLast())
    }
    #expect(names == Self.demoSections)
    let blankBefore: [Bool] = headers.dropFirst().map { lines[$0 - 1].isEmpty }
    #expect(!blankBefore.contains(false))
    for line in [
      "Banner: Ping from Grace — Are you there?",
      "push-1 is listed first: 6 notifications, 6 unread; the badge shows 6.",
      "The app shows ping p9 of contact c1.",
      "push-1 is read: 6 notifications, 5 unread.",
      "6 notifications, 0 unread; no badge.",
      "The server answers. Error shown: The server refused the request (400).",
      "The server cannot be reached: 1 change waits in the outbox. No error is shown.",
    ] {
      #expect(lines.contains(line), "\(line)")
    }
    // After the relaunch the pushed notification is still listed first, and read.
    let relaunch = try #require(headers.last)
    let table = lines[(relaunch + 1)...]
    #expect(table.first?.hasSuffix(" push-1  Ping from Grace") == true)
    #expect(table.first?.hasPrefix("  ") == true)
    #expect(
      result.output.hasSuffix(
        "push-1 is listed and read (the inbox never had it; the app kept it).\n"))
  }

  @Test func theDemoTracesOnStderrAndTellsTheSameStory() async throws {
    let cli = try CLI()
    defer { cli.remove() }
    let story = try await cli("demo", useInbox: false)
    let traced = try await cli("demo", "--trace", useInbox: false)
    #expect(traced.status == 0)
    // The sample notifications' ids differ from run to run.
    func sameIDs(_ text: String) -> String {
      text.replacingOccurrences(of: #"s[0-9a-f]{8}-"#, with: "s-", options: .regularExpression)
    }
    #expect(sameIDs(traced.output) == sameIDs(story.output))
    #expect(
      traced.error.hasPrefix("received action:\n  .notifications(.foregroundChanged(false))\n"))
    #expect(traced.error.contains("  .notifications(.pushReceived("))
    #expect(traced.error.contains("+     isInForeground: true"))
    // Its help lists --trace, under one OPTIONS heading.
    let help = try await cli("demo", "--help", useInbox: false).output
    #expect(help.hasPrefix("USAGE: notifications demo [--trace]\n"))
    #expect(
      help.hasSuffix(
        "\n\nOPTIONS\n  --trace         print every action and the state change it caused, on stderr\n"
          + "  --help          show this help (also -h)\n"))
  }
}
