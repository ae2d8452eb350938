import Foundation
import Testing

/// The guides that have their reader make a package, made from the guide's own blocks: each is
/// written to a fresh package that depends on this checkout by the path its manifest shows
/// (`../Loom`, a link to the checkout), then built, run and tested by `swift` in a child
/// process. Only this shows that a guide works when pasted into a package of one's own: that it
/// imports what it uses, defines what it uses, and names products Loom has.
///
/// The packages and their build live in `.build-guides` at the root of the checkout, one
/// scratch folder for all of them, so a second run (the thread sanitizer's) reuses the build.
/// The suite is serialized because the packages share that folder.
@Suite(.serialized)
struct GuidePackageTests {
  @Test func gettingStartedBuildsRunsAndPassesItsOwnTest() async throws {
    let package = try GuidePackage.gettingStarted.write()
    try await GuidePackage.swift(["build", "--build-tests"] + GuidePackage.strict, package: package)
    let run = try await GuidePackage.swift(["run", "--skip-build", "Counter"], package: package)
    #expect(run.lastLine == "1 is a number.", "\(run.output)")
    let test = try await GuidePackage.swift(["test", "--skip-build"], package: package)
    #expect(test.output.contains("Test factIsLoadedForTheCount() passed"), "\(test.output)")
  }

  @Test func embeddingInAnAppShellBuildsAndRuns() async throws {
    let package = try GuidePackage.embeddingInAnAppShell.write()
    try await GuidePackage.swift(["build"] + GuidePackage.strict, package: package)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-guide-shell-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await GuidePackage.swift(
      ["run", "--skip-build", "Shell", "n1"], package: package, in: folder)
    // A new inbox is empty, so the shell prints the feature's "not found" error.
    #expect(run.lastLine == "error: That notification no longer exists.", "\(run.output)")
  }

  @Test func everySwiftBlockOfTheGuidesIsInItsPackageOrSaysWhyNot() throws {
    for package in [GuidePackage.gettingStarted, .embeddingInAnAppShell] {
      let shown = try package.blocks().map(\.name)
      let placed = package.files.flatMap(\.snippets) + package.notInPackage.keys
      #expect(shown.sorted() == placed.sorted(), "\(package.guide)")
    }
  }
}

/// A guide's package: which of the guide's blocks make up which file.
struct GuidePackage {
  /// The guide, relative to the package root.
  var guide: String
  /// The package's folder under `.build-guides/packages`.
  var folder: String
  /// Each file of the package, and the snippets (by name, in order) the guide shows for it.
  var files: [(path: String, snippets: [String])]
  /// The guide's blocks that are not part of the package, and why.
  var notInPackage: [String: String] = [:]

  static let gettingStarted = GuidePackage(
    guide: "Docs/GettingStarted.md", folder: "GettingStarted",
    files: [
      ("Package.swift", ["getting-started-manifest"]),
      ("Sources/Counter/CounterFeature.swift", ["counter-feature", "number-fact-dependency"]),
      ("Sources/Counter/main.swift", ["getting-started-main"]),
      ("Tests/CounterTests/CounterTests.swift", ["getting-started-test"]),
    ])

  static let embeddingInAnAppShell = GuidePackage(
    guide: "Docs/EmbeddingInAnAppShell.md", folder: "EmbeddingInAnAppShell",
    files: [
      ("Package.swift", ["shell-manifest"]),
      ("Sources/Shell/MarkAsRead.swift", ["shell-feature"]),
      ("Sources/Shell/main.swift", ["shell-main"]),
    ],
    notInPackage: [
      "swiftui-shell": "a sketch; SwiftUI is not on every platform the tests run on",
      "delegate-routing": "a case of a parent reducer's switch, shown in NotificationFeature.md",
    ])

  /// How long one `swift` command may take: a first build of Loom's libraries on a slow machine
  /// takes minutes.
  static let timeLimit: TimeInterval = 900

  /// A guide's code builds without warnings, as the project's does.
  static let strict = ["-Xswiftc", "-warnings-as-errors"]

  static let base = Documentation.root.appendingPathComponent(".build-guides")

  /// The guide's snippet blocks, by snippet name.
  func blocks() throws -> [(name: String, lines: [String])] {
    let guide = try Guide(path: guide, text: Documentation.read(guide))
    return guide.blocks.compactMap { block in
      guard case .snippet(_, let name) = block.source else { return nil }
      return (name, block.lines)
    }
  }

  /// Writes the package from the guide's blocks (a file only when it changed, so the build
  /// stays incremental), removes files the guide no longer shows, and returns its folder.
  func write() throws -> URL {
    let fileManager = FileManager.default
    let packages = Self.base.appendingPathComponent("packages")
    let package = packages.appendingPathComponent(folder)
    try fileManager.createDirectory(at: package, withIntermediateDirectories: true)
    let link = packages.appendingPathComponent("Loom")
    if (try? fileManager.destinationOfSymbolicLink(atPath: link.path)) == nil {
      try fileManager.createSymbolicLink(at: link, withDestinationURL: Documentation.root)
    }
    let blocks = Dictionary(try blocks().map { ($0.name, $0.lines) }) { first, _ in first }
    var expected: Set<String> = []
    for file in files {
      let parts = try file.snippets.map { name in
        guard let lines = blocks[name] else {
          throw SnippetError("\(guide) shows no snippet `\(name)`")
        }
        return lines.joined(separator: "\n")
      }
      let text = parts.joined(separator: "\n\n") + "\n"
      let url = package.appendingPathComponent(file.path)
      expected.insert(url.standardizedFileURL.path)
      if (try? String(contentsOf: url, encoding: .utf8)) != text {
        try fileManager.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
      }
    }
    let enumerator = fileManager.enumerator(at: package, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift", !expected.contains(url.standardizedFileURL.path)
      else { continue }
      try fileManager.removeItem(at: url)
    }
    return package
  }

  struct Run {
    var status: Int32
    var output: String
    var lastLine: String? {
      output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  /// Runs `swift` with `arguments` on `package`, in the shared scratch folder, and expects it
  /// to succeed.
  @discardableResult
  static func swift(
    _ arguments: [String], package: URL,
    in directory: URL? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    let outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-guide-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputFile) }
    let handle = try FileHandle(forWritingTo: outputFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // The options go right after the subcommand: after `swift run`'s product they would be
    // the program's arguments, and `swift` would build the package in the current folder.
    process.arguments =
      ["swift"] + arguments.prefix(1) + [
        "--package-path", package.path,
        "--scratch-path", base.appendingPathComponent("scratch").path,
      ] + arguments.dropFirst()
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = handle
    process.standardError = handle
    // A child that hangs fails the test instead of the whole run.
    let timeout = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timeout)
    // Waits without blocking a thread of the cooperative pool: the build takes a while.
    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    try handle.close()
    timeout.cancel()
    let output = try String(contentsOf: outputFile, encoding: .utf8)
    #expect(
      status == 0, "swift \(arguments.joined(separator: " ")) failed:\n\(output)",
      sourceLocation: sourceLocation)
    return Run(status: status, output: output)
  }
}
