import Foundation
import Loom

/// Small values saved by key: the filter, the preferences, the outbox.
///
/// ```swift
/// try await settings.save(NotificationFilter.all, forKey: "filter")
/// let filter = try await settings.load(NotificationFilter.self, forKey: "filter")
/// ```
///
/// Its endpoints and ``load(_:forKey:)`` and ``save(_:forKey:)`` are `nonisolated(nonsending)`:
/// they run on the caller's executor (see ``NotificationClient``), and a client that reads or
/// writes a file or a database moves that work off the caller itself, as
/// ``file(directory:)`` does.
///
/// Calls are applied in the order they are made, whether or not the caller waits for one
/// before making the next, and a load sees every save made before it: a feature saves its
/// latest choice at each change, with nothing in its state to order the writes.
public struct SettingsClient: Sendable {
  /// The data saved under a key, or `nil`.
  public var loadData: nonisolated(nonsending) @Sendable (String) async throws -> Data?
  /// Saves data under a key.
  public var saveData: nonisolated(nonsending) @Sendable (Data, String) async throws -> Void

  public init(
    loadData: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Data?,
    saveData: nonisolated(nonsending) @escaping @Sendable (Data, String) async throws -> Void
  ) {
    self.loadData = loadData
    self.saveData = saveData
  }

  /// Loads and decodes the value saved under `key`, or `nil`.
  nonisolated(nonsending) public func load<Value: Decodable>(
    _ type: Value.Type, forKey key: String
  ) async throws
    -> Value?
  {
    guard let data = try await loadData(key) else { return nil }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      throw UserFacingError.invalidData(reason: "the saved \"\(key)\" could not be read")
    }
  }

  /// Encodes and saves `value` under `key`.
  nonisolated(nonsending) public func save<Value: Encodable>(_ value: Value, forKey key: String)
    async throws
  {
    try await saveData(try JSONEncoder().encode(value), key)
  }

  /// Settings kept in memory, for previews and tests: nothing survives the process. The live
  /// default, ``live``, persists.
  public static func inMemory(_ initial: [String: Data] = [:]) -> Self {
    let storage = LockedState(initial)
    return Self(
      loadData: { key in storage.withLock { $0[key] } },
      saveData: { data, key in storage.withLock { $0[key] = data } }
    )
  }

  public static let unimplemented = SettingsClient(
    loadData: Loom.unimplemented("SettingsClient.loadData"),
    saveData: Loom.unimplemented("SettingsClient.saveData")
  )
}

private enum SettingsClientKey: DependencyKey {
  static var liveValue: SettingsClient { .live }
  /// Previews and demos keep nothing, so they never change the app's saved settings.
  static var previewValue: SettingsClient { .inMemory() }
  static let testValue = SettingsClient.unimplemented
}

extension DependencyValues {
  /// Where the feature keeps its small settings.
  public var settingsClient: SettingsClient {
    get { self[SettingsClientKey.self] }
    set { self[SettingsClientKey.self] = newValue }
  }
}
