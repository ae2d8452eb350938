import Foundation
import Loom
import Notifications

/// Settings kept in memory whose writes and loads the test can hold back, to decide in which
/// order they finish: a held write stores its value only when the test resumes it, so a test can
/// make an earlier write finish after a later one; a held load answers late with what it read.
///
/// ```swift
/// let settings = ControlledSettings()
/// let older = settings.holdWrites(of: SavedFilter(filter: .all, unreadOnly: false), forKey: key)
/// … // start the older write, then a newer one
/// older.resume()
/// #expect(settings.value(SavedFilter.self, forKey: key) == newer)
/// ```
final class ControlledSettings: Sendable {
  private struct HeldWrite {
    let key: String
    let matches: @Sendable (Data) -> Bool
    let release: TestContinuation<Void>
  }

  private let storage = LockedState<[String: Data]>([:])
  private let heldWrites = LockedState<[HeldWrite]>([])
  private let heldLoads = LockedState<[String: (answer: Data?, release: TestContinuation<Void>)]>(
    [:])
  /// Every value stored, by key, in the order the writes finished.
  let finishedWrites = LockedState<[(key: String, data: Data)]>([])

  init() {}

  /// The client the feature uses.
  var client: SettingsClient {
    SettingsClient(
      loadData: { [self] key in
        if let held = heldLoads.withLock({ $0[key] }) {
          try await held.release.value
          return held.answer
        }
        return storage.withLock { $0[key] }
      },
      saveData: { [self] data, key in
        let release = heldWrites.withLock { held in
          held.first { $0.key == key && $0.matches(data) }?.release
        }
        if let release { try await release.value }
        storage.withLock { $0[key] = data }
        finishedWrites.withLock { $0.append((key, data)) }
      })
  }

  /// Holds every write of `value` under `key` until the test resumes the continuation returned.
  func holdWrites<Value: Codable & Equatable & Sendable>(
    of value: Value, forKey key: String
  ) -> TestContinuation<Void> {
    let release = TestContinuation<Void>()
    let matches: @Sendable (Data) -> Bool = { data in
      (try? JSONDecoder().decode(Value.self, from: data)) == value
    }
    heldWrites.withLock { $0.append(HeldWrite(key: key, matches: matches, release: release)) }
    return release
  }

  /// Holds every load of `key` until the test resumes the continuation returned, and answers it
  /// with what was stored when this was called: as if the load read the value then and its answer
  /// arrived only when the test resumes it.
  func holdLoads(forKey key: String) -> TestContinuation<Void> {
    let release = TestContinuation<Void>()
    let answer = storage.withLock { $0[key] }
    heldLoads.withLock { $0[key] = (answer, release) }
    return release
  }

  /// Stores `value` under `key` at once, as a previous launch would have left it.
  func store<Value: Encodable>(_ value: Value, forKey key: String) {
    let data = try? JSONEncoder().encode(value)
    storage.withLock { $0[key] = data }
  }

  /// The value stored under `key` now, decoded.
  func value<Value: Decodable>(_ type: Value.Type, forKey key: String) -> Value? {
    guard let data = storage.withLock({ $0[key] }) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  /// The values written under `key`, decoded, in the order the writes finished.
  func writes<Value: Decodable>(of type: Value.Type, forKey key: String) -> [Value] {
    finishedWrites.withLock { $0 }.filter { $0.key == key }.compactMap {
      try? JSONDecoder().decode(Value.self, from: $0.data)
    }
  }
}
