// Whole files of the packages the guides have their readers make: manifests, `main.swift`
// files and test files that this target cannot compile (they import the reader's own modules or
// `PackageDescription`, or are top-level code), and the imports of test files that import the
// reader's own module. `GuidePackageTests` builds and runs each guide's
// package from the guide's blocks, which compiles these.

/// The files, as text; the snippet markers inside the literals are what the guides show.
enum GuidePackageFiles {
  static let gettingStarted = [
    #"""
    // snippet: getting-started-manifest
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "Counter",
      platforms: [.macOS(.v15), .iOS(.v18)],
      dependencies: [.package(path: "../Loom")],
      targets: [
        .executableTarget(name: "Counter", dependencies: [.product(name: "Loom", package: "Loom")]),
        .testTarget(
          name: "CounterTests",
          dependencies: ["Counter", .product(name: "LoomTesting", package: "Loom")]
        ),
      ]
    )
    // snippet: end
    """#,
    #"""
    // snippet: getting-started-main
    import Loom

    let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
    store.send(.incrementTapped)
    await store.send(.factTapped).finish()
    print(store.state.fact ?? "")   // "1 is a number."
    // snippet: end
    """#,
    #"""
    // snippet: getting-started-test
    @testable import Counter
    import LoomTesting
    import Testing

    @MainActor
    @Test func factIsLoadedForTheCount() async {
      let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() } withDependencies: {
        $0.numberFact.fetch = { "\($0) is odd." }
      }
      await store.send(.incrementTapped) { $0.count = 1 }
      await store.send(.factTapped)
      await store.receive(.factLoaded("1 is odd.")) { $0.fact = "1 is odd." }
    }
    // snippet: end
    """#,
  ]

  static let embeddingInAnAppShell = [
    #"""
    // snippet: shell-manifest
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "Shell",
      platforms: [.macOS(.v15), .iOS(.v18)],
      dependencies: [.package(path: "../Loom")],
      targets: [
        .executableTarget(
          name: "Shell",
          dependencies: [
            .product(name: "Loom", package: "Loom"),
            .product(name: "Notifications", package: "Loom"),
            .product(name: "NotificationClients", package: "Loom"),
          ]
        )
      ]
    )
    // snippet: end
    """#,
    #"""
    // snippet: shell-main
    import Foundation
    import NotificationClients

    let inbox = LocalInbox(url: URL(fileURLWithPath: "inbox.json"))
    let id = CommandLine.arguments.dropFirst().first ?? ""
    for line in await markAsRead(id, in: inbox) { print(line) }
    // snippet: end
    """#,
  ]

  static let readme = [
    #"""
    // snippet: tour-test-file
    @testable import Tour
    import Loom
    import LoomTesting
    import Testing

    @MainActor
    @Test func delayedIncrementWaitsForTheClock() async {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.delayedIncrementTapped)
      await clock.advance(by: .seconds(1))
      await store.receive(.incrementTapped) { $0.count = 1 }
    }
    // snippet: end
    """#,
  ]

  static let dependencies = [
    #"""
    // snippet: overriding
    import Foundation
    import Loom

    let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.fetchTapped(7)).finish()
    print(store.state.items)   // [00000000-0000-0000-0000-000000000000: "item 7"]

    withDependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) } operation: {
      @Dependency(\.date) var date
      print(date())   // 1970-01-01 00:00:00 +0000
    }

    let reducer = Feature().dependency(\.uuid, .incrementing)   // for a subtree and the effects it returns
    // snippet: end
    """#,
  ]

  static let testing = [
    #"""
    // snippet: testing-imports
    @testable import Stopwatches
    import Loom
    import LoomTesting
    import Testing
    // snippet: end
    """#,
  ]

  static let migratingFromTCA = [
    #"""
    // snippet: ported-test-imports
    @testable import Ported
    import Loom
    import LoomTesting
    import Testing
    // snippet: end
    """#,
  ]

  static let navigation = [
    #"""
    // snippet: navigation-test-imports
    @testable import Library
    import Loom
    import LoomTesting
    import Testing
    // snippet: end
    """#,
  ]
}
