// swift-tools-version: 6.2
import PackageDescription

// Loom takes no package dependencies: every target builds with what the Swift toolchain ships
// (the standard library, Foundation, Dispatch, Observation, Synchronization, XCTest, Testing)
// and the system's SQLite: the SDK's `SQLite3` module on Apple platforms, the `CSQLite` system
// library target below elsewhere (on Debian and Ubuntu: `apt-get install libsqlite3-dev`).
//
// Every target builds in the Swift 6 language mode with complete strict concurrency checking.
// It needs Swift 6.2 or later (`Task.immediate`, `nonisolated(nonsending)`); CI uses 6.3.1.

let package = Package(
  name: "Loom",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Loom", targets: ["Loom"]),
    .library(name: "LoomTesting", targets: ["LoomTesting"]),
    .library(name: "Notifications", targets: ["Notifications"]),
    .library(name: "NotificationClients", targets: ["NotificationClients"]),
    .executable(name: "notifications", targets: ["NotificationsCLI"]),
    .executable(name: "notifications-server", targets: ["NotificationServer"]),
    .executable(name: "loom-bench", targets: ["LoomBench"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "Loom"),
    .target(name: "LoomTesting", dependencies: ["Loom"]),
    .target(name: "Notifications", dependencies: ["Loom"]),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]
    ),
    .target(
      name: "NotificationClients",
      dependencies: [
        "Loom", "Notifications",
        .target(name: "CSQLite", condition: .when(platforms: [.linux, .android])),
      ]
    ),
    .target(
      name: "AppShell",
      dependencies: ["Loom", "Notifications", "NotificationClients"],
      path: "Examples/AppShell"
    ),
    // TCA's case studies written from scratch with Loom: each study is a reducer and its
    // exhaustive test (Examples/CaseStudies/README.md has their sizes beside TCA's).
    .target(
      name: "CaseStudies", dependencies: ["Loom"], path: "Examples/CaseStudies",
      exclude: ["README.md", "count-lines"],
      // The studies' tests read their internal types (`@testable import`), in a release build
      // too (CI builds the tests in release). No product contains this target, so a package
      // that depends on Loom never builds it.
      swiftSettings: [.unsafeFlags(["-enable-testing"], .when(configuration: .release))]
    ),
    .target(
      name: "NotificationServerCore",
      dependencies: ["Notifications", "NotificationClients"],
      path: "Examples/NotificationServerCore"
    ),
    .executableTarget(
      name: "NotificationServer",
      dependencies: ["NotificationServerCore"],
      path: "Examples/NotificationServer"
    ),
    .executableTarget(
      name: "NotificationsCLI",
      dependencies: ["Loom", "Notifications", "NotificationClients", "AppShell"],
      path: "Examples/NotificationsCLI"
    ),
    .executableTarget(
      name: "LoomBench",
      dependencies: ["Loom", "LoomTesting", "Notifications", "NotificationClients"],
      path: "Benchmarks/LoomBench"
    ),
    .testTarget(name: "LoomTests", dependencies: ["Loom", "LoomTesting"]),
    .testTarget(name: "LoomTestingTests", dependencies: ["Loom", "LoomTesting"]),
    .testTarget(
      name: "NotificationsTests",
      dependencies: ["Loom", "LoomTesting", "Notifications", "NotificationClients"]
    ),
    .testTarget(
      name: "NotificationClientsTests",
      dependencies: ["Loom", "Notifications", "NotificationClients", "NotificationServerCore"]
    ),
    .testTarget(name: "CaseStudiesTests", dependencies: ["Loom", "LoomTesting", "CaseStudies"]),
    .testTarget(
      name: "AppShellTests",
      dependencies: ["Loom", "LoomTesting", "Notifications", "NotificationClients", "AppShell"]
    ),
    .testTarget(
      name: "NotificationServerTests",
      dependencies: ["NotificationServerCore", "Notifications", "NotificationClients"]
    ),
    .testTarget(
      name: "NotificationsCLITests",
      dependencies: ["NotificationsCLI", "NotificationServer", "NotificationClients", "Notifications"]
    ),
    // The code every guide shows (README, Docs/, the DocC catalogs), compiled and run; a test
    // checks that the guides show exactly these snippets.
    .testTarget(
      name: "DocSnippetTests",
      dependencies: ["Loom", "LoomTesting", "Notifications", "NotificationClients", "AppShell"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
