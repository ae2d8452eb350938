import Foundation
import Notifications
import Testing

/// The file-backed settings client that is the live default off Apple platforms: what it saves
/// is there after a relaunch, a corrupt file is reported and never overwritten, and concurrent
/// saves of different keys all survive.
struct SettingsFileTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-settings-\(UUID().uuidString)", isDirectory: true)

  var file: URL { directory.appendingPathComponent("settings.json") }

  func removeDirectory() { try? FileManager.default.removeItem(at: directory) }

  @Test func aSavedValueIsLoadedByTheNextLaunch() async throws {
    defer { removeDirectory() }
    let first = SettingsClient.file(directory: directory)
    try await first.save(NotificationFilter.type(.alert), forKey: "filter")
    try await first.save(true, forKey: "unreadOnly")

    let relaunched = SettingsClient.file(directory: directory)
    let filter: NotificationFilter? = try await relaunched.load(
      NotificationFilter.self, forKey: "filter")
    let unreadOnly: Bool? = try await relaunched.load(Bool.self, forKey: "unreadOnly")
    let missing: Bool? = try await relaunched.load(Bool.self, forKey: "missing")
    #expect(filter == .type(.alert))
    #expect(unreadOnly == true)
    #expect(missing == nil)
  }

  @Test func nothingSavedLoadsNilWithoutCreatingAFile() async throws {
    defer { removeDirectory() }
    let settings = SettingsClient.file(directory: directory)
    let data: Data? = try await settings.loadData("filter")
    #expect(data == nil)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aCorruptFileIsATypedErrorAndIsNeverOverwritten() async throws {
    defer { removeDirectory() }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let corrupt = Data("{ not json".utf8)
    try corrupt.write(to: file)
    let settings = SettingsClient.file(directory: directory)

    let expected = SettingsFileError.corrupt(path: file.path)
    await #expect(throws: expected) { _ = try await settings.loadData("filter") }
    await #expect(throws: expected) { try await settings.saveData(Data("1".utf8), "filter") }
    #expect(FileManager.default.contents(atPath: file.path) == corrupt)
  }

  @Test func concurrentSavesOfDifferentKeysAllSurvive() async throws {
    defer { removeDirectory() }
    let keys: [String] = (0..<20).map { "key\($0)" }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, key) in keys.enumerated() {
        // A client per task, as separate parts of an app would make.
        let settings = SettingsClient.file(directory: directory)
        group.addTask { try await settings.save(index, forKey: key) }
      }
      try await group.waitForAll()
    }
    let relaunched = SettingsClient.file(directory: directory)
    var loaded: [Int] = []
    for key in keys {
      let value: Int? = try await relaunched.load(Int.self, forKey: key)
      loaded.append(value ?? -1)
    }
    #expect(loaded == Array(0..<20))
  }

  /// Saves of one key made one after the other, none waiting for the one before, leave the
  /// last value saved: calls are applied in the order made (a feature saves its latest choice
  /// with nothing in its state to order the writes). On the pool, the older value won in some
  /// rounds.
  @MainActor
  @Test func savesMadeWithoutWaitingAreAppliedInTheOrderMade() async throws {
    let client = SettingsClient.file(directory: directory)
    defer { removeDirectory() }
    for round in 0..<20 {
      var saves: [Task<Void, any Error>] = []
      for value in 0..<20 {
        saves.append(
          Task.immediate { @MainActor in try await client.save(value, forKey: "choice") })
      }
      for save in saves { try await save.value }
      let saved = try await client.load(Int.self, forKey: "choice")
      #expect(saved == 19, "round \(round)")
    }
  }

  @Test func theDefaultDirectoryFollowsXDGDataHomeThenTheHomeDirectory() {
    let xdg: URL = SettingsFileStore.defaultDirectory(
      appName: "app", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"])
    let home: URL = SettingsFileStore.defaultDirectory(
      appName: "app", environment: ["HOME": "/home/ada"])
    #expect(xdg.path == "/data/app")
    #expect(home.path == "/home/ada/.local/share/app")
  }
}
