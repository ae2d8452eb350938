// swift-tools-version: 6.0
import PackageDescription

// A package that uses Loom as an app would, by path, for `RealRunnerTests`: its tests forget
// things on purpose, and only running them with `swift test` shows whether the test store's
// failures reach the test frameworks.
let package = Package(
  name: "TestStoreFixture",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(name: "Loom", path: "../../..")],
  targets: [
    .target(name: "FixtureFeature", dependencies: [.product(name: "Loom", package: "Loom")]),
    .testTarget(
      name: "SwiftTestingFixture",
      dependencies: ["FixtureFeature", .product(name: "LoomTesting", package: "Loom")]
    ),
    .testTarget(
      name: "XCTestFixture",
      dependencies: ["FixtureFeature", .product(name: "LoomTesting", package: "Loom")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
