import Foundation
import Testing

/// Each guide (README and `Docs/`), made from the guide's own blocks: each is written to a
/// fresh package that depends on this checkout by the path its manifest shows (`../Loom`, a link
/// to the checkout), then built (tests too, warnings as errors), run and tested by `swift` in a
/// child process. Only this shows that a guide works when pasted into a package of one's own:
/// that it imports what it uses, defines what it uses, and names products Loom has. A guide
/// that names its products in prose rather than showing a manifest gets one made from them
/// (``GuidePackage/manifest()``).
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

  @Test func readmeTourBuildsRunsAndPassesItsTest() async throws {
    let package = try GuidePackage.readme.write()
    try await GuidePackage.buildAndTest(
      package, running: "Tour", expecting: ["delayedIncrementWaitsForTheClock()"])
  }

  @Test func reducersAndCompositionBuildsAndRuns() async throws {
    let package = try GuidePackage.reducersAndComposition.write()
    try await GuidePackage.buildAndTest(package, running: "Composition")
  }

  @Test func effectsAndCancellationBuilds() async throws {
    let package = try GuidePackage.effectsAndCancellation.write()
    try await GuidePackage.buildAndTest(package)
  }

  @Test func dependenciesBuildsAndPrintsWhatItsCommentsShow() async throws {
    let package = try GuidePackage.dependencies.write()
    let run = try await GuidePackage.buildAndTest(package, running: "Items")
    // What the comments of the `print` lines say they print.
    let main = try #require(
      try GuidePackage.dependencies.blocks().first { $0.name == "overriding" })
    var shown: [String] = []
    for line in main.lines where line.contains("print(") {
      guard let comment = line.range(of: "// ") else { continue }
      shown.append(String(line[comment.upperBound...]))
    }
    #expect(shown.count == 2)
    let printed: [String] = (run?.output ?? "").split(separator: "\n").suffix(shown.count).map {
      String($0)
    }
    #expect(printed == shown, "\(run?.output ?? "")")
  }

  @Test func testingBuildsAndPassesItsTests() async throws {
    let package = try GuidePackage.testing.write()
    try await GuidePackage.buildAndTest(
      package,
      expecting: [
        "timerTicks()", "aNonExhaustiveReceiveSkipsWhatCameBeforeIt()",
        "factsArriveAsTheTestYieldsThem()",
      ])
  }

  @Test func navigationBuildsAndPassesItsTests() async throws {
    let package = try GuidePackage.navigation.write()
    try await GuidePackage.buildAndTest(
      package,
      expecting: [
        "leavingABookBeforeItsPagesLoadCancelsTheLoad()",
        "aBookIsDeletedOnlyOnceTheAlertIsConfirmed()",
        "aScreenPopsItselfAndBackToTheListCancelsTheRest()",
        "chaptersNestAsDeepAsTheReaderGoes()",
      ])
  }

  @Test func migratingFromTCABuildsAndPassesItsTest() async throws {
    let package = try GuidePackage.migratingFromTCA.write()
    try await GuidePackage.buildAndTest(package, expecting: ["aFactAndItsAlert()"])
  }

  @Test func notificationFeatureBuildsAndPassesItsTests() async throws {
    let package = try GuidePackage.notificationFeature.write()
    try await GuidePackage.buildAndTest(
      package,
      expecting: [
        "aChangeTheServerRefusesLeavesTheLog()", "aPushIsKeptUntilTheServerListsIt()",
        "aChangeFromTheTapToTheServersTruth()",
      ])
  }

  @Test func everySwiftBlockOfTheGuidesIsInItsPackageOrSaysWhyNot() throws {
    let guides = try Documentation.guidePaths().filter { path in
      try Guide(path: path, text: Documentation.read(path)).blocks.contains {
        if case .snippet = $0.source { true } else { false }
      }
    }
    // The DocC catalogs under Sources/ are not packages: Loom's shows the README's tour (its
    // package builds it), LoomTesting's the body of the tour's test (`tour-test`, a fragment).
    let packaged = guides.filter { !$0.hasPrefix("Sources/") }
    #expect(packaged.sorted() == GuidePackage.all.map(\.guide).sorted())
    for package in GuidePackage.all {
      let shown = try package.blocks().map(\.name)
      let placed =
        package.files.flatMap(\.snippets).filter { !$0.contains("#") } + package.notInPackage.keys
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
  /// For a guide that says in prose which of Loom's products its package uses instead of
  /// showing a manifest: the package's name and those products (see ``manifest``).
  var products: (name: String, products: [String])?

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
      ("Sources/Shell/ServerStore.swift", ["shell-server-store"]),
      ("Sources/Shell/main.swift", ["shell-main"]),
    ],
    notInPackage: [
      "swiftui-shell": "a sketch; SwiftUI is not on every platform the tests run on",
      "delegate-routing": "a case of a parent reducer's switch, shown in NotificationFeature.md",
    ])

  static let readme = GuidePackage(
    guide: "README.md", folder: "Tour",
    files: [
      ("Sources/Tour/main.swift", ["tour-feature"]),
      ("Tests/TourTests/TourTests.swift", ["tour-test-file"]),
    ],
    products: ("Tour", ["Loom"]))

  /// `Counter` is the README's, with its `main.swift`, as the guide says.
  static let reducersAndComposition = GuidePackage(
    guide: "Docs/ReducersAndComposition.md", folder: "Composition",
    files: [
      ("Sources/Composition/main.swift", ["README.md#tour-feature"]),
      ("Sources/Composition/App.swift", ["app", "case-paths", "children", "case-path-chains", "bindings"]),
    ],
    notInPackage: [
      "case-path-chain-use": "statements, in the test beside them",
      "bindings-test": "a test of the guide's feature; the package has no test target",
      "bindings-store": "statements on a store of the feature, in the test beside it",
      "bindings-view": "a sketch; SwiftUI is not on every platform the tests run on",
    ],
    products: ("Composition", ["Loom"]))

  static let effectsAndCancellation = GuidePackage(
    guide: "Docs/EffectsAndCancellation.md", folder: "Searching",
    files: [("Sources/Searching/Search.swift", ["cancellation", "search-client"])],
    products: ("Searching", ["Loom"]))

  static let dependencies = GuidePackage(
    guide: "Docs/Dependencies.md", folder: "Items",
    files: [
      ("Sources/Items/Feature.swift", ["declaring", "using"]),
      ("Sources/Items/main.swift", ["overriding"]),
    ],
    products: ("Items", ["Loom"]))

  static let testing = GuidePackage(
    guide: "Docs/Testing.md", folder: "Stopwatches",
    files: [
      ("Sources/Stopwatches/Features.swift", ["stopwatch", "launcher", "fact-listener"]),
      (
        "Tests/StopwatchesTests/StopwatchesTests.swift",
        ["testing-imports", "exhaustive", "non-exhaustive", "test-stream"]
      ),
    ],
    products: ("Stopwatches", ["Loom"]))

  static let navigation = GuidePackage(
    guide: "Docs/Navigation.md", folder: "Library",
    files: [
      (
        "Sources/Library/Library.swift",
        ["book-detail", "library", "library-case-paths", "reading-list", "chapter"]
      ),
      (
        "Tests/LibraryTests/LibraryTests.swift",
        ["navigation-test-imports", "library-test", "reading-list-test", "chapter-test"]
      ),
    ],
    notInPackage: [
      "library-view": "a sketch; SwiftUI is not on every platform the tests run on",
      "rows-view": "a sketch of the composition guide's App; SwiftUI is not on every platform",
      "reading-list-view": "a sketch; SwiftUI is not on every platform the tests run on",
    ],
    products: ("Library", ["Loom"]))

  static let migratingFromTCA = GuidePackage(
    guide: "Docs/MigratingFromTCA.md", folder: "Ported",
    files: [
      ("Sources/Ported/Tally.swift", ["ported-feature"]),
      ("Tests/PortedTests/PortedTests.swift", ["ported-test-imports", "ported-test"]),
    ],
    products: ("Ported", ["Loom"]))

  static let notificationFeature = GuidePackage(
    guide: "Docs/NotificationFeature.md", folder: "Inbox",
    files: [
      ("Sources/Inbox/AppFeature.swift", ["embedding"]),
      (
        "Tests/InboxTests/InboxTests.swift",
        ["testing", "pushes", "life-of-a-change"]
      ),
    ],
    products: ("Inbox", ["Loom", "Notifications"]))

  /// Builds `package` with its tests, warnings as errors; runs the executable `product` if
  /// given (and returns what it printed); runs the tests if any are `expected`, and expects each
  /// of them (by function name) to pass.
  @discardableResult
  static func buildAndTest(
    _ package: URL, running product: String? = nil, expecting tests: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run? {
    let build = try await swift(
      ["build", "--build-tests"] + strict, package: package, sourceLocation: sourceLocation)
    // After a failed build, `--skip-build` would run what an earlier build left.
    guard build.status == 0 else { return nil }
    var run: Run?
    if let product {
      run = try await swift(
        ["run", "--skip-build", product], package: package, sourceLocation: sourceLocation)
    }
    if !tests.isEmpty {
      let test = try await swift(
        ["test", "--skip-build"], package: package, sourceLocation: sourceLocation)
      for name in tests {
        #expect(
          test.output.contains("Test \(name) passed"), "\(test.output)",
          sourceLocation: sourceLocation)
      }
    }
    return run
  }

  /// How long one `swift` command may take: a first build of Loom's libraries on a slow machine
  /// takes minutes.
  static let timeLimit: TimeInterval = 900

  /// A guide's code builds without warnings, as the project's does.
  static let strict = ["-Xswiftc", "-warnings-as-errors"]

  static let base = Documentation.root.appendingPathComponent(".build-guides")

  static let all: [GuidePackage] = [
    .readme, .gettingStarted, .reducersAndComposition, .effectsAndCancellation, .dependencies,
    .testing, .navigation, .migratingFromTCA, .notificationFeature, .embeddingInAnAppShell,
  ]

  /// The manifest of a package whose guide names its products in prose: a target with the
  /// package's name that depends on `products` (an executable target when the guide shows its
  /// `main.swift`), and a test target that depends on it and `LoomTesting` when the guide shows
  /// tests: Getting started's manifest, with the guide's names.
  func manifest() -> String? {
    guard let (name, products) = products else { return nil }
    let executable = files.contains { $0.path == "Sources/\(name)/main.swift" }
    let dependencies = products.map { #".product(name: "\#($0)", package: "Loom")"# }
    var targets = [
      #".\#(executable ? "executableTarget" : "target")(name: "\#(name)", "#
        + "dependencies: [\(dependencies.joined(separator: ", "))]),"
    ]
    if files.contains(where: { $0.path.hasPrefix("Tests/") }) {
      targets.append(
        #".testTarget(name: "\#(name)Tests", "#
          + #"dependencies: ["\#(name)", .product(name: "LoomTesting", package: "Loom")]),"#)
    }
    return """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "\(name)",
        platforms: [.macOS(.v15), .iOS(.v18)],
        dependencies: [.package(path: "../Loom")],
        targets: [
      \(targets.map { "    " + $0 }.joined(separator: "\n"))
        ]
      )

      """
  }

  /// The guide's snippet blocks, by snippet name.
  func blocks() throws -> [(name: String, lines: [String])] {
    try Self.blocks(of: guide)
  }

  /// The snippet blocks of the guide at `path`, by snippet name.
  static func blocks(of path: String) throws -> [(name: String, lines: [String])] {
    let guide = try Guide(path: path, text: Documentation.read(path))
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
    var texts: [(path: String, text: String)] = try files.map { file in
      let parts = try file.snippets.map { name in
        // `GUIDE#NAME` is a block of another guide, which this one refers to.
        let parts = name.split(separator: "#", maxSplits: 1).map(String.init)
        let lines =
          parts.count == 2
          ? try Self.blocks(of: parts[0]).first { $0.name == parts[1] }?.lines
          : blocks[name]
        guard let lines else { throw SnippetError("\(guide): no guide shows `\(name)`") }
        return lines.joined(separator: "\n")
      }
      return (file.path, parts.joined(separator: "\n\n") + "\n")
    }
    if let manifest = manifest() { texts.append(("Package.swift", manifest)) }
    var expected: Set<String> = []
    for (path, text) in texts {
      let url = package.appendingPathComponent(path)
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
    let subcommand: [String] = Array(arguments.prefix(1))
    let options: [String] = [
      "--package-path", package.path, "--scratch-path", base.appendingPathComponent("scratch").path,
    ]
    process.arguments = ["swift"] + subcommand + options + Array(arguments.dropFirst())
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
