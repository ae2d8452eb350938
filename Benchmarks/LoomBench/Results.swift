import Foundation

/// One figure a workload measured: `W1 send-throughput: 38.2 ns/action` is workload `W1`, name
/// `send-throughput`, value 38.2, unit `ns/action`.
struct Figure: Codable, Sendable {
  var workload: String
  var name: String
  var value: Double
  var unit: String
}

/// What `loom-bench --json` writes: every figure of the run, with what it ran on, so a figure
/// read months later still says which commit, toolchain and machine produced it.
struct Results: Codable, Sendable {
  /// `git rev-parse HEAD` where the benchmark ran, or nil outside a git checkout.
  var commit: String?
  /// Whether the work tree had uncommitted changes, so the figures measured more than `commit`.
  var dirty: Bool?
  /// When the run finished, ISO 8601 in UTC.
  var date: String
  /// `swift --version`, its lines joined with "; ".
  var toolchain: String?
  var machine: Machine
  /// Whether the workloads ran at 1/10 of their size (`--quick`).
  var quick: Bool
  var figures: [Figure]

  struct Machine: Codable, Sendable {
    var hostname: String
    /// The `model name` line of /proc/cpuinfo.
    var cpu: String?
    var cores: Int
    var memoryGiB: Double
    /// `PRETTY_NAME` of /etc/os-release and the kernel release.
    var os: String
  }
}

/// The figures reported so far in this run, in order.
@MainActor var reportedFigures: [Figure] = []

/// Where the stable text lines go: standard output, or standard error when the JSON document
/// itself is written to standard output.
@MainActor var textLinesToStandardError = false

/// Prints one figure as the stable line tools read (`W1 send-throughput: 38.2 ns/action`) and
/// records it for `--json`. Every figure goes through here.
@MainActor
func report(_ workload: String, _ name: String, _ value: Double, _ unit: String) {
  let line = "\(workload) \(name): \(figure(value)) \(unit)"
  if textLinesToStandardError {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  } else {
    print(line)
  }
  reportedFigures.append(Figure(workload: workload, name: name, value: value, unit: unit))
}

extension Results {
  /// The results of this run: the figures reported so far and what they ran on.
  @MainActor
  static func collect(quick: Bool) -> Results {
    let commit = run("git", "rev-parse", "HEAD")
    let status = commit == nil ? nil : run("git", "status", "--porcelain", "--untracked-files=no")
    let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))
      .flatMap { field("PRETTY_NAME", in: $0, separator: "=") }?
      .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let os = [osRelease, kernel.map { "Linux \($0)" }].compactMap { $0 }.joined(separator: ", ")
    let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    return Results(
      commit: commit,
      dirty: status.map { !$0.isEmpty },
      date: ISO8601DateFormatter().string(from: Date()),
      toolchain: run("swift", "--version")?
        .split(separator: "\n").joined(separator: "; "),
      machine: Machine(
        hostname: ProcessInfo.processInfo.hostName,
        cpu: cpuinfo.flatMap { field("model name", in: $0, separator: ":") },
        cores: ProcessInfo.processInfo.activeProcessorCount,
        memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10)
          .rounded() / 10,
        os: os.isEmpty ? ProcessInfo.processInfo.operatingSystemVersionString : os),
      quick: quick,
      figures: reportedFigures)
  }

  /// The document, pretty-printed with sorted keys so two results files diff line by line.
  func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}

/// The value of the first `key<separator>value` line of `text`, trimmed.
private func field(_ key: String, in text: String, separator: Character) -> String? {
  for line in text.split(separator: "\n") {
    guard let index = line.firstIndex(of: separator) else { continue }
    if line[..<index].trimmingCharacters(in: .whitespaces) == key {
      return line[line.index(after: index)...].trimmingCharacters(in: .whitespaces)
    }
  }
  return nil
}

/// Runs a command found on `PATH` and returns its trimmed standard output, or nil when it
/// cannot start or exits with a failure.
private func run(_ arguments: String...) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
