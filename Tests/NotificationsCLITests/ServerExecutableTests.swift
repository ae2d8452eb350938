import Foundation
import Testing

/// The `notifications-server` executable's options for its limits.
struct ServerExecutableTests {
  static var executable: URL {
    CLI.executable.deletingLastPathComponent().appendingPathComponent("notifications-server")
  }

  /// Runs the server with `arguments` and returns its exit status and standard error; for
  /// arguments it refuses before listening.
  func refuse(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = ["--port", "0"] + arguments
    let error = Pipe()
    process.standardError = error
    process.standardOutput = Pipe()
    try process.run()
    let text = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: text, as: UTF8.self))
  }

  @Test func outOfRangeLimitsAreRefusedWithUsageStatus() throws {
    for value in ["0", "-1", "x", "100000"] {
      let (status, error) = try refuse(["--heartbeat", value])
      #expect(status == 64, "--heartbeat \(value)")
      #expect(error == "error: --heartbeat takes seconds from 0.01 to 86400\n", "--heartbeat \(value)")
    }
    for value in ["0", "-5", "many", "100001"] {
      let (status, error) = try refuse(["--max-connections", value])
      #expect(status == 64, "--max-connections \(value)")
      #expect(error == "error: --max-connections takes 1 to 100000\n", "--max-connections \(value)")
    }
  }
}
