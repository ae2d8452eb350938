import Foundation
import Loom

/// Why the settings file could not be used. The file is never overwritten after one of these:
/// what it holds stays for a person (or a repair tool) to recover.
///
/// ```swift
/// let message = SettingsFileError.corrupt(path: "/data/app/settings.json").description
/// ```
///
/// The message is "The settings file /data/app/settings.json is corrupt; it was left as it is."
public enum SettingsFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists but is not the JSON object of settings this store writes.
  case corrupt(path: String)
  /// The file or its directory could not be read or written; `reason` is the system's.
  case inaccessible(path: String, reason: String)

  public var description: String {
    switch self {
    case .corrupt(let path):
      "The settings file \(path) is corrupt; it was left as it is."
    case .inaccessible(let path, let reason):
      "The settings file \(path) could not be used: \(reason)."
    }
  }
}

/// Settings kept in one JSON file, `settings.json`, in a directory: the live settings off Apple
/// platforms. Each save reads the file, changes one key and writes the whole file atomically (a
/// new file renamed over the old), so a crash leaves the old file or the new one, never half.
///
/// ```swift
/// let settings = SettingsClient.file(directory: SettingsFileStore.defaultDirectory(appName: "app"))
/// ```
///
/// Saves in one process are serialised, so concurrent saves of different keys all survive. The
/// file is read and written off the caller's executor, wherever the client's endpoints run.
/// Processes sharing the file are not coordinated: the last write of the whole file wins.
public enum SettingsFileStore {
  /// One lock for every settings file in the process: saves are rare and small, and clients
  /// made separately over the same directory must not lose each other's keys.
  ///
  /// A plain `NSLock`: a `LockedState` of `Void` stores its zero-sized value at the lock's own
  /// address, and the thread sanitizer reported the value's access under the lock and the
  /// lock's read before it as a race.
  private static let lock = NSLock()

  /// The directory for an app's data: `$XDG_DATA_HOME/<appName>` when that is set to an absolute
  /// path, else `$HOME/.local/share/<appName>`, else the same under the temporary directory.
  public static func defaultDirectory(
    appName: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      base = URL(fileURLWithPath: dataHome, isDirectory: true)
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    } else {
      base = FileManager.default.temporaryDirectory
    }
    return base.appendingPathComponent(appName, isDirectory: true)
  }

  /// Throws a ``SettingsFileError``. Off the caller's executor: it reads a file, after every
  /// call made before it (``SettingsFileWork``).
  nonisolated(nonsending) static func load(_ key: String, from file: URL) async throws -> Data? {
    try await SettingsFileWork.shared.run {
      try lock.withLock { () throws -> Data? in
        try read(file)[key]
      }
    }
  }

  /// Throws a ``SettingsFileError``. Off the caller's executor: it reads and writes a file,
  /// after every call made before it, so the last value saved under a key is the last one
  /// asked for.
  nonisolated(nonsending) static func save(_ data: Data, forKey key: String, to file: URL)
    async throws
  {
    try await SettingsFileWork.shared.run {
      try lock.withLock { () throws in
        var settings = try read(file)
        settings[key] = data
        try write(settings, to: file)
      }
    }
  }

  /// The settings in `file`: empty when there is no file yet.
  private static func read(_ file: URL) throws(SettingsFileError) -> [String: Data] {
    guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
    let contents: Data
    do {
      contents = try Data(contentsOf: file)
    } catch {
      throw .inaccessible(path: file.path, reason: error.localizedDescription)
    }
    do {
      return try JSONDecoder().decode([String: Data].self, from: contents)
    } catch {
      throw .corrupt(path: file.path)
    }
  }

  private static func write(_ settings: [String: Data], to file: URL) throws(SettingsFileError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try encoder.encode(settings).write(to: file, options: .atomic)
    } catch {
      throw .inaccessible(path: file.path, reason: error.localizedDescription)
    }
  }
}

extension SettingsClient {
  /// Settings kept in `settings.json` inside `directory`, created on the first save. Loading or
  /// saving over a corrupt file throws ``SettingsFileError/corrupt(path:)`` and leaves the file
  /// as it is. See ``SettingsFileStore``.
  ///
  /// ```swift
  /// $0.settingsClient = .file(directory: directory)
  /// ```
  public static func file(directory: URL) -> Self {
    let file = directory.appendingPathComponent("settings.json")
    return Self(
      loadData: { key in try await SettingsFileStore.load(key, from: file) },
      saveData: { data, key in try await SettingsFileStore.save(data, forKey: key, to: file) }
    )
  }

  #if canImport(Darwin)
    /// Settings kept in `UserDefaults`, each value as `Data` under its key: the live settings on
    /// Apple platforms.
    ///
    /// - Parameter suiteName: The defaults suite, or `nil` for the app's standard defaults.
    public static func userDefaults(suiteName: String? = nil) -> Self {
      Self(
        loadData: { key in defaults(suiteName).data(forKey: key) },
        saveData: { data, key in defaults(suiteName).set(data, forKey: key) }
      )
    }

    private static func defaults(_ suiteName: String?) -> UserDefaults {
      suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
    }
  #endif

  /// The settings a running app keeps across launches: `UserDefaults` on Apple platforms, a
  /// file in the user's data directory elsewhere (see
  /// ``SettingsFileStore/defaultDirectory(appName:environment:)``), named after the bundle
  /// identifier or, without one, the process.
  public static var live: Self {
    #if canImport(Darwin)
      .userDefaults()
    #else
      .file(
        directory: SettingsFileStore.defaultDirectory(
          appName: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
    #endif
  }
}

/// Where the settings files are read and written: each call is a job of this actor, enqueued
/// when the caller hops to it. The store's endpoints are `nonisolated(nonsending)`, so callers
/// hop in the order of their calls, and an actor runs the jobs of one priority in the order
/// they were enqueued: calls are applied in the order made, though nothing waits for one
/// before making the next (a `@concurrent` function took the lock in whatever order the pool's
/// threads reached it, and an older filter could be saved last).
actor SettingsFileWork {
  static let shared = SettingsFileWork()

  func run<Value: Sendable>(_ body: @Sendable () throws -> Value) throws -> Value {
    try body()
  }
}
