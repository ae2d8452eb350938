import Foundation
import Testing

/// The `notifications-server` executable's options for its limits.
struct ServerExecutableTests {
  static var executable: URL {
    CLI.executable.deletingLastPathComponent().appendingPathComponent("notifications-server")
  }

  /// Runs the server with `arguments` and returns its exit status and standard error; for
  /// arguments it refuses before listening.
  func refuse(_ arguments: [String]) async throws -> (Int32, String) {
    try await onOwnThread {
      let process = Process()
      process.executableURL = Self.executable
      process.arguments = ["--port", "0"] + arguments
      // Never the default inbox of whoever runs the tests.
      process.environment = ProcessInfo.processInfo.environment.merging([
        "XDG_DATA_HOME": FileManager.default.temporaryDirectory
          .appendingPathComponent("loom-server-data-\(UUID().uuidString)").path
      ]) { $1 }
      let error = Pipe()
      process.standardError = error
      process.standardOutput = Pipe()
      try process.run()
      let text = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }
  }

  @Test func outOfRangeLimitsAreRefusedWithUsageStatus() async throws {
    let hint = "Run 'notifications-server --help' for usage.\n"
    for value in ["0", "-1", "x", "100000"] {
      let (status, error) = try await refuse(["--heartbeat", value])
      #expect(status == 2, "--heartbeat \(value)")
      #expect(
        error == "error: --heartbeat takes seconds from 0.01 to 86400\n" + hint,
        "--heartbeat \(value)")
    }
    for value in ["0", "-5", "many", "100001"] {
      let (status, error) = try await refuse(["--max-connections", value])
      #expect(status == 2, "--max-connections \(value)")
      #expect(
        error == "error: --max-connections takes 1 to 100000\n" + hint, "--max-connections \(value)"
      )
    }
  }

  @Test func unknownOptionsAndMalformedValuesAreRefused() async throws {
    for (arguments, expected) in [
      (
        ["--bogus", "1"],
        "error: Unknown option '--bogus'.\nThe options are --port, --inbox, --token,"
      ),
      (["--prot", "1"], "error: Unknown option '--prot'; did you mean '--port'?\n"),
      (
        ["--fail-rate", "abc"],
        "error: --fail-rate takes a fraction from 0 to 1, like 0.2, not 'abc'\n"
      ),
      (
        ["--fail-rate", "2"], "error: --fail-rate takes a fraction from 0 to 1, like 0.2, not '2'\n"
      ),
      (
        ["--latency", "soon"], "error: --latency takes milliseconds from 0 to 600000, not 'soon'\n"
      ),
      (["--fail-next", "3"], "error: --fail-next takes COUNT:STATUS, like 3:503, not '3'\n"),
      (
        ["--fail-next", "3:200"], "error: --fail-next takes COUNT:STATUS, like 3:503, not '3:200'\n"
      ),
      (["--port", "--inbox", "x"], "error: --port needs a value\n"),
      (["--inbox"], "error: --inbox needs a value\n"),
      (["extra"], "error: Unexpected argument 'extra': every option is --NAME VALUE\n"),
    ] {
      // `refuse` puts `--port 0` first; a later --port replaces it.
      let (status, error) = try await refuse(arguments)
      #expect(status == 2, "\(arguments)")
      #expect(error.hasPrefix(expected), "\(arguments): \(error)")
      #expect(error.hasSuffix("Run 'notifications-server --help' for usage.\n"), "\(arguments)")
    }
  }

  @Test func helpListsEveryOption() async throws {
    let (status, text) = try await onOwnThread {
      let process = Process()
      process.executableURL = Self.executable
      process.arguments = ["--help"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, text)
    }
    #expect(status == 0)
    for option in [
      "--port", "--inbox", "--token", "--latency", "--fail-rate", "--fail-next", "--heartbeat",
      "--max-connections",
    ] {
      #expect(text.contains("\n  \(option) "), "\(option)")
    }
  }

  @Test func aPortInUseIsNamedInWords() async throws {
    let first = Process()
    first.executableURL = Self.executable
    first.arguments = [
      "--port", "0", "--inbox",
      FileManager.default.temporaryDirectory
        .appendingPathComponent("loom-server-\(UUID().uuidString).sqlite").path,
    ]
    let output = Pipe()
    first.standardOutput = output
    first.standardError = FileHandle.nullDevice
    try first.run()
    defer {
      first.terminate()
      first.waitUntilExit()
    }
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      line.append(byte)
    }
    let port = try #require(
      String(decoding: line, as: UTF8.self).split(separator: ":").last.flatMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      })
    let (status, error) = try await refuse(["--port", "\(port)"])
    #expect(status == 1)
    #expect(
      error
        == "error: Cannot listen on port \(port): it is in use; pick another with --port (0 picks a free one).\n"
    )
  }

  /// A corrupt inbox is refused at start, with what to run: it used to start, say 200 to
  /// `/health` and answer 500 to every call, telling the client to run with an option the
  /// server does not have.
  @Test func aCorruptInboxIsRefusedAtStart() async throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-server-corrupt-\(UUID().uuidString).sqlite")
    try Data(String(repeating: "not a database ", count: 10).utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let (status, error) = try await refuse(["--inbox", url.path])
    #expect(status == 1)
    #expect(error.hasPrefix("error: The inbox file \(url.path) is corrupt: "), "\(error)")
    #expect(
      error.hasSuffix(
        "It was left untouched; run 'notifications --recover --inbox \(url.path)' to move it "
          + "aside, then start the server again.\n"), "\(error)")
  }
}
