import Foundation
import Loom

extension NotificationFeature {
  /// The change log saved, with what an earlier version kept in the settings moved into it on
  /// the first launch that finds it: its outbox (`SettingsKey.outbox`), and its pushes the feed
  /// had not listed and its local notices (`SettingsKey.pushes`), older than anything in the
  /// log (see ``ChangeLog/init(migrating:pushes:receivedAt:ids:)``). The moved rows are written
  /// to the store first, then the settings keys are emptied: a launch killed in between moves
  /// them again, under the same record ids, which the log then holds already.
  ///
  /// Called by the launch's read, before anything of this launch is written. It runs on the
  /// caller's executor, as the store and the settings do: a hop to another executor would let
  /// the restore's answer come at a time the caller's own work does not decide.
  nonisolated(nonsending) static func loadLog(
    from store: ChangeLogStore, migrating settings: SettingsClient, receivedAt now: Date
  ) async throws -> ChangeLog {
    let loaded = try await store.load()
    // What cannot be read is left as it is: there is nothing of it to move.
    let outbox =
      (try? await settings.load(SavedOutbox.self, forKey: SettingsKey.outbox))
      ?? SavedOutbox(entries: [])
    let pushes =
      (try? await settings.load(SavedPushes.self, forKey: SettingsKey.pushes))
      ?? SavedPushes()
    guard !outbox.entries.isEmpty || !pushes.pushes.isEmpty || !pushes.notices.isEmpty else {
      return loaded
    }
    var next = 0
    let legacy = ChangeLog(migrating: outbox, pushes: pushes, receivedAt: now) {
      next += 1
      return Self.migratedRecordID(next)
    }
    let migrated = legacy.merging(newer: loaded)
    try await store.write(migrated.writes(from: loaded))
    try await settings.save(
      SavedOutbox(entries: []), forKey: SettingsKey.outbox)
    try await settings.save(SavedPushes(), forKey: SettingsKey.pushes)
    return migrated
  }

  /// The id of the `index`th change moved from an earlier version's outbox (from 1): the same
  /// at every launch, so a change moved twice is held once.
  public static func migratedRecordID(_ index: Int) -> UUID {
    let hex = String(UInt64(index), radix: 16, uppercase: true)
    let digits = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    return UUID(uuidString: "4D494752-0000-4000-8000-\(digits)") ?? UUID()
  }

  /// The outbox an earlier version kept in the settings (``SettingsKey/outbox``), as far as
  /// moving it into the log needs: the changes it had not sent, oldest first. It decodes both
  /// formats that version saved: the entries alone (an array), and `{entries, rollbacks,
  /// failures}`, whose rollbacks and failure counts are not needed (a change the server refuses
  /// leaves the log, and failures counted launches, which no longer count).
  ///
  /// ```swift
  /// let outbox = try JSONDecoder().decode(NotificationFeature.SavedOutbox.self, from: data)
  /// let log = ChangeLog(migrating: outbox, ids: { uuid() })
  /// ```
  public struct SavedOutbox: Sendable, Hashable, Codable {
    /// The changes waiting to be sent, oldest first.
    public var entries: [ChangeIntent]

    public init(entries: [ChangeIntent]) {
      self.entries = entries
    }

    public init(from decoder: any Decoder) throws {
      guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
        // The older format: the entries alone.
        self.init(entries: try [ChangeIntent](from: decoder))
        return
      }
      self.init(entries: try container.decode([ChangeIntent].self, forKey: .entries))
    }
  }

  /// The pushes an earlier version kept in the settings (``SettingsKey/pushes``): those its
  /// feed had not listed, the ids of those deleted before it did, and the local notices.
  ///
  /// ```swift
  /// let pushes = try JSONDecoder().decode(NotificationFeature.SavedPushes.self, from: data)
  /// ```
  public struct SavedPushes: Sendable, Hashable, Codable {
    /// Pushes the backend's feed had not listed, newest first, as the person left them.
    public var pushes: [NotificationData]
    /// Pushes the person deleted before the backend's feed listed them, oldest first.
    public var deletedIDs: [String]
    /// The local notices in the list (``NotificationData/isLocal``), newest first: kept on the
    /// device only, listed until the person deletes them.
    public var notices: [NotificationData]

    public init(
      pushes: [NotificationData] = [], deletedIDs: [String] = [], notices: [NotificationData] = []
    ) {
      self.pushes = pushes
      self.deletedIDs = deletedIDs
      self.notices = notices
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      pushes = try container.decode([NotificationData].self, forKey: .pushes)
      deletedIDs = try container.decode([String].self, forKey: .deletedIDs)
      // A version before it saved no notices.
      notices = try container.decodeIfPresent([NotificationData].self, forKey: .notices) ?? []
    }
  }
}
