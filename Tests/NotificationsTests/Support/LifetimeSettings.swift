import Foundation
import Loom
import Notifications

/// The device's settings for the lifetime model-based test, kept on the main actor: every read
/// and write the feature makes runs there, on the caller's executor, so a seed's reads and
/// writes happen in the same order on every run, and the test reads what is saved without a
/// lock or a race.
@MainActor
final class LifetimeSettings {
  /// What is saved, by key, as the feature encoded it.
  private(set) var storage: [String: Data] = [:]

  /// The client every launch uses.
  var client: SettingsClient {
    SettingsClient(
      loadData: { @MainActor key in self.storage[key] },
      saveData: { @MainActor data, key in self.storage[key] = data })
  }

  /// The value saved under `key`, decoded, or `nil` when there is none or it cannot be read.
  func saved<Value: Decodable>(_ type: Value.Type, forKey key: String) -> Value? {
    storage[key].flatMap { try? JSONDecoder().decode(type, from: $0) }
  }
}
