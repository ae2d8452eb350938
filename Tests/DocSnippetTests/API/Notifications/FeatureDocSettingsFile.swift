// The snippets of the doc comments of Sources/Notifications/Clients/SettingsFileStore.swift.

import Foundation
import Loom
import Notifications
import Testing

struct SettingsFileDocSnippets {
  @Test func theErrorNamesTheCorruptFile() {
    // snippet: settings-file-error
    let message = SettingsFileError.corrupt(path: "/data/app/settings.json").description
    // snippet: end
    #expect(message == "The settings file /data/app/settings.json is corrupt; it was left as it is.")
  }

  @Test func theFileStoreKeepsSettingsInTheDataDirectory() async throws {
    // snippet: settings-file-store
    let settings = SettingsClient.file(directory: SettingsFileStore.defaultDirectory(appName: "app"))
    // snippet: end
    _ = settings
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("loom-doc-settings-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let saved: SettingsClient = withDependencies {
      // snippet: settings-file
      $0.settingsClient = .file(directory: directory)
      // snippet: end
    } operation: {
      @Dependency(\.settingsClient) var settingsClient
      return settingsClient
    }
    try await saved.save(true, forKey: "unreadOnly")
    let loaded: Bool? = try await SettingsClient.file(directory: directory)
      .load(Bool.self, forKey: "unreadOnly")
    #expect(loaded == true)
  }
}
